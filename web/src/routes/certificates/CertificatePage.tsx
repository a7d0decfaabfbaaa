import { useEffect, useState } from 'react';
import { Badge, Box, Button, Flex, Image, Link as ChakraLink, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link, useParams } from '@tanstack/react-router';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/hooks';
import { PageContainer, PageHeader } from '../../components/PageHeader';

interface DualDate {
  iso: string;
  gregorian: string;
  hijri: { year: number; month: number; day: number } | null;
}

interface CertificateView {
  id: string;
  number: string;
  kindLabel: string;
  status: { code: number; public: string; label: string };
  kind: string;
  holder: { publicId: string; type: string; nameAr: string; nameEn: string; registrationNumber: string | null; city: string | null };
  categories: string[];
  products: { nameAr: string; nameEn: string; brandAr?: string; brandEn?: string; hsCode?: string }[];
  issuedAt: DualDate;
  validFrom: DualDate;
  expiresAt: DualDate;
  verificationCode: string;
  verificationUrl: string;
  requestNumber: string | null;
}

/** The certificate page: holder, validity (Gregorian and Hijri), products, the bilingual PDF and the QR code. */
export function CertificatePage() {
  const { certificateId } = useParams({ strict: false }) as { certificateId: string };
  const { t, i18n } = useTranslation(['requests', 'shell', 'forms']);
  const cert = useApiQuery<CertificateView>(`/api/certificates/${certificateId}`);
  const [qr, setQr] = useState('');
  const c = cert.data;
  useEffect(() => {
    if (c) void QRCode.toDataURL(c.verificationUrl, { errorCorrectionLevel: 'M', margin: 2, scale: 6 }).then(setQr);
  }, [c]);
  if (!c) return <PageContainer>{null}</PageContainer>;
  const ar = i18n.language === 'ar';
  const date = (d: DualDate) => `${d.gregorian}${d.hijri ? ` — ${d.hijri.day}/${d.hijri.month}/${d.hijri.year} ${t('requests:certificate.hijri')}` : ''}`;
  const verifyPath = new URL(c.verificationUrl).pathname;
  return (
    <PageContainer>
      <PageHeader
        title={t('requests:certificate.title', { number: c.number })}
        breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: c.number }]}
        actions={
          <>
            {/* Renewal (type 202) opens in the last 60 days and after expiry. */}
            {c.kind === 'internalHalal' && (c.status.public === 'expiringSoon' || c.status.public === 'expired') && (
              <Button asChild variant="outline" colorPalette="brand" data-testid="renew-certificate">
                <Link to="/internal-renewal-request/$facilityPublicId/$certificateId" params={{ facilityPublicId: c.holder.publicId, certificateId: c.id }}>
                  {t('requests:renewal.start')}
                </Link>
              </Button>
            )}
            <Button asChild colorPalette="brand" data-testid="certificate-pdf">
              <a href={`/api/certificates/${c.id}/pdf`} download>
                {t('requests:certificate.download')}
              </a>
            </Button>
          </>
        }
      />
      <Flex gap="8" direction={{ base: 'column', md: 'row' }}>
        <Stack gap="4" flex="1">
          <Flex gap="3" align="center">
            <Text fontWeight="semibold">{c.kindLabel}</Text>
            <Badge colorPalette={c.status.public === 'active' ? 'green' : 'orange'} data-testid="certificate-status">
              {c.status.label}
            </Badge>
          </Flex>
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <Field label={t('requests:certificate.holder')} value={ar ? c.holder.nameAr : c.holder.nameEn} />
            <Field label={t('requests:certificate.request')} value={c.requestNumber ?? '—'} />
            <Field label={t('requests:certificate.issuedAt')} value={date(c.issuedAt)} />
            <Field label={t('requests:certificate.expiresAt')} value={date(c.expiresAt)} />
            <Field label={t('requests:certificate.categories')} value={c.categories.map((k) => t(`forms:category.${k}`, { defaultValue: k })).join('، ') || '—'} />
            <Field label={t('requests:certificate.code')} value={c.verificationCode} />
          </SimpleGrid>
          <Box>
            <Text fontWeight="semibold" mb="2">
              {t('requests:certificate.products')}
            </Text>
            <Stack as="ul" ps="5" gap="1">
              {c.products.map((p, i) => (
                <li key={i}>{ar ? `${p.nameAr}${p.brandAr ? ` (${p.brandAr})` : ''}` : `${p.nameEn}${p.brandEn ? ` (${p.brandEn})` : ''}`}</li>
              ))}
            </Stack>
          </Box>
        </Stack>
        <Stack align="center" gap="2">
          {qr && <Image src={qr} alt={t('requests:certificate.qrAlt')} w="200px" h="200px" data-testid="certificate-qr" />}
          <ChakraLink href={verifyPath} data-testid="verify-link" colorPalette="brand">
            {t('requests:certificate.verify')}
          </ChakraLink>
        </Stack>
      </Flex>
    </PageContainer>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text>{value}</Text>
    </Box>
  );
}
