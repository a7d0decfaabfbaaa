import { useEffect, useState } from 'react';
import { Badge, Box, Button, Flex, Image, Link as ChakraLink, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';
import { useRouteParams } from '../../route-params';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { servicePath } from '../../../../machines/services';
import { Ltr, ltr } from '../../components/Bidi';
import { screenExists } from '../../screens';
import { startParams } from '../services/services';
import { statusPalette } from '../records/status-palette';
import { CertificateLifecycle } from './CertificateLifecycle';
import { OpenRenewalLink } from './OpenRenewalLink';
import { certificateSections } from './certificate-sections';
import { listSeparator } from '../../i18n';
import { scopeText } from '../../lib/mark-scope';

type DualDate = ApiResponse<'/api/certificates/{id}'>['issuedAt'];

/**
 * The certificate page: holder, issuer, validity (Gregorian and Hijri), scope, categories, products, the old system's
 * number, the bilingual PDF and the QR code; the renewal the server says is open now, when its screen is built; and its
 * lifecycle: the actions the machine allows this person (suspend, reinstate, a mark's cancel) and its status history.
 */
export function CertificatePage() {
  // Also the CB's designation certificate (facility-profile/cb/$cbPublicId/certifications/cb-halal-certificate/$certificateId).
  const { certificateId } = useRouteParams('certificates/$certificateId');
  const { t, i18n } = useTranslation(['requests', 'shell', 'forms', 'records', 'payments', 'public']);
  const cert = useApi(apiQuery('/api/certificates/{id}', { params: { path: { id: certificateId } } }));
  const [qr, setQr] = useState('');
  const c = cert.data;
  useEffect(() => {
    if (c) void QRCode.toDataURL(c.verificationUrl, { errorCorrectionLevel: 'M', margin: 2, scale: 6 }).then(setQr);
  }, [c]);
  if (!c) return <PageContainer>{null}</PageContainer>;
  const ar = i18n.language === 'ar';
  const date = (d: DualDate) => `${d.gregorian}${d.hijri ? ` — ${d.hijri.day}/${d.hijri.month}/${d.hijri.year} ${t('requests:certificate.hijri')}` : ''}`;
  const verifyPath = new URL(c.verificationUrl).pathname;
  const renewal = c.renewal && screenExists(c.renewal.start) ? c.renewal : null;
  const party = (p: { nameAr: string; nameEn: string }) => (ar ? p.nameAr : p.nameEn);
  const mark = c.kind === 'halalMark';
  const Section = certificateSections[c.kind];
  const list = mark ? { label: t('records:marks.title'), to: '/halal-marks' } : { label: t('records:certificates.title'), to: '/certificates' };
  return (
    <PageContainer>
      <PageHeader
        title={
          mark
            ? t('records:marks.pageTitle', { number: ltr(c.number) })
            : t('requests:certificate.title', { number: ltr(c.number), kind: t(`payments:certificate.kind.${c.kind}`, { defaultValue: c.kindLabel }) })
        }
        breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, list, { label: ltr(c.number) }]}
        actions={
          <>
            {/* The renewal service of this certificate's kind, while its window is open (the server decides), once built. */}
            {renewal && (
              <Button asChild variant="outline" colorPalette="brand" data-testid="renew-certificate">
                <Link to={servicePath(renewal.start, startParams(c.holder.publicId, c.id))}>{t('requests:renewal.start')}</Link>
              </Button>
            )}
            {/* A renewal already open is linked instead of offered again. */}
            {c.openRenewal && <OpenRenewalLink request={c.openRenewal} look="button" />}
            {/* A mark's package: the horizontal and vertical SVG marks with its number and QR code, and the guidelines. */}
            {mark && (
              <Button asChild colorPalette="brand" variant="outline" data-testid="mark-zip">
                <a href={`/api/certificates/${c.id}/mark.zip`} download>
                  {t('records:marks.download')}
                </a>
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
            <Badge colorPalette={statusPalette(c.status.public)} data-testid="certificate-status" data-status={c.status.public}>
              {c.status.label}
            </Badge>
          </Flex>
          {c.status.note && (
            <Text color="fg.error" data-testid="certificate-status-note">
              {c.status.note}
            </Text>
          )}
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <Field label={t('requests:certificate.holder')} value={party(c.holder)} />
            <Field label={t('records:certificates.issuer')} value={c.issuer ? party(c.issuer) : t('payments:bill.issuer')} testId="certificate-issuer" />
            <Field
              label={t('requests:certificate.request')}
              value={
                c.requestId && c.requestNumber ? (
                  <ChakraLink asChild colorPalette="brand">
                    <Link to="/requests/$requestId" params={{ requestId: c.requestId }}>
                      <Ltr>{c.requestNumber}</Ltr>
                    </Link>
                  </ChakraLink>
                ) : (
                  '—'
                )
              }
            />
            {c.certificate && (
              <Field
                label={t('records:marks.certificate')}
                testId="mark-certificate"
                value={
                  <ChakraLink asChild colorPalette="brand">
                    <Link to="/certificates/$certificateId" params={{ certificateId: c.certificate.id }}>
                      <Ltr>{c.certificate.number}</Ltr>
                    </Link>
                  </ChakraLink>
                }
              />
            )}
            <Field label={t('records:certificate.legacyNumber')} value={c.legacyNumber ? <Ltr>{c.legacyNumber}</Ltr> : '—'} testId="certificate-legacy" />
            <Field label={t('records:certificate.scope')} value={scopeText(t, c.kind, c.scope) ?? '—'} testId="certificate-scope" />
            <Field label={t('requests:certificate.issuedAt')} value={date(c.issuedAt)} />
            {/* A mark may start later than issued; a certificate renewed before its expiry has run since before it. */}
            {(mark || c.validFrom.gregorian !== c.issuedAt.gregorian) && <Field label={t('records:marks.validFrom')} value={date(c.validFrom)} testId="certificate-valid-from" />}
            <Field label={t('requests:certificate.expiresAt')} value={date(c.expiresAt)} />
            <Field
              label={t('requests:certificate.categories')}
              value={c.categories.map((k) => t(`forms:category.${k}`, { defaultValue: k })).join(listSeparator()) || '—'}
              testId="certificate-categories"
            />
            <Field label={t('requests:certificate.code')} value={<Ltr>{c.verificationCode}</Ltr>} />
          </SimpleGrid>
          {/* A CB's designation and a mark hold no products: no empty heading for them. */}
          {c.products.length > 0 && (
            <Box>
              <Text fontWeight="semibold" mb="2">
                {t('requests:certificate.products')}
              </Text>
              <Stack as="ul" ps="5" gap="1" data-testid="certificate-products">
                {c.products.map((p, i) => (
                  <li key={i}>
                    {ar ? `${p.nameAr}${p.brandAr ? ` (${p.brandAr})` : ''}` : `${p.nameEn}${p.brandEn ? ` (${p.brandEn})` : ''}`}
                    {p.deactivated && (
                      <Text as="span" color="fg.error" data-testid="certificate-product-deactivated">
                        {' — '}
                        {t('requests:certificate.productDeactivated')}
                      </Text>
                    )}
                    {p.hsCode && (
                      <Text as="span" color="fg.muted">
                        {' — '}
                        <Ltr>{p.hsCode}</Ltr>
                      </Text>
                    )}
                    {p.productNumber && (
                      <Text as="span" color="fg.muted" data-testid="certificate-product-number">
                        {' — '}
                        {t('requests:certificate.productNumber')} <Ltr>{p.productNumber}</Ltr>
                      </Text>
                    )}
                    {/* Shipment certificates: each line's quantity, net weight and unit, and a slaughter line's slaughterhouse. */}
                    {(p.slaughterFacility || p.quantity !== undefined || p.netWeight !== undefined) && (
                      <Text as="span" color="fg.muted" data-testid="certificate-goods">
                        {[
                          p.slaughterFacility && t('requests:certificate.goods.slaughter', { facility: p.slaughterFacility }),
                          p.quantity !== undefined && t('requests:certificate.goods.quantity', { count: p.quantity }),
                          p.netWeight !== undefined &&
                            t('requests:certificate.goods.netWeight', { weight: p.netWeight, unit: p.unit !== undefined ? t(`forms:unit.${p.unit}`) : '' }),
                        ]
                          .filter(Boolean)
                          .map((x) => ` — ${x}`)
                          .join('')}
                      </Text>
                    )}
                  </li>
                ))}
              </Stack>
            </Box>
          )}
          {Section && <Section certificate={c} />}
          {c.lifecycle && <CertificateLifecycle certificateId={c.id} onChange={() => void cert.refetch()} />}
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

function Field({ label, value, testId }: { label: string; value: React.ReactNode; testId?: string }) {
  return (
    <Box data-testid={testId}>
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text>{value}</Text>
    </Box>
  );
}
