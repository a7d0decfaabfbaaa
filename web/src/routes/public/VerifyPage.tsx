import { Alert, Badge, Box, Card, Grid, Heading, Stack, Table, Text, Wrap } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';
import { useRouteParams } from '../../route-params';
import { CardCell, CardHeader, cardBody, type CardColumn, cardRow, cardTable } from '../../components/CardTable';
import { CertificateStatusBadge } from '../../components/public/CertificateStatusBadge';
import { DualDateText } from '../../components/public/DualDateText';
import { PublicPage } from '../../components/public/PublicPage';
import { VerifyForm } from '../../components/public/VerifyForm';
import { useLocalized } from '../../components/public/localized';
import { formatDate } from '../../lib/dates';
import { verifyProductColumns, type VerifyProductColumn } from './verify-products';
import { scopeText } from '../../lib/mark-scope';

type VerifiedCertificate = NonNullable<ApiResponse<'/api/public/verify/{code}'>['certificate']>;
type PublicStatus = VerifiedCertificate['status'];
type Party = VerifiedCertificate['holder'];

/** The codes the server accepts (server/modules/public/verification.ts); anything else cannot exist. */
const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9\-_/.]{2,63}$/;

const ALERT_STATUS: Record<PublicStatus, 'success' | 'warning' | 'error' | 'info'> = {
  active: 'success',
  expiringSoon: 'warning',
  expired: 'error',
  suspended: 'error',
  validSoon: 'info',
  cancelled: 'error',
  withdrawn: 'error',
};

function PartyText({ party }: { party: Party }) {
  const l = useLocalized();
  return (
    <Stack gap="0">
      <Text fontWeight="semibold">{l(party.nameAr, party.nameEn)}</Text>
      <Text fontSize="sm" color="fg.muted">
        {[party.city, l(party.countryNameAr, party.countryNameEn)].filter(Boolean).join(l('، ', ', '))}
      </Text>
    </Stack>
  );
}

/** One row of the details: the label (dt) beside its value (dd), stacked on small screens. */
function Detail({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <>
      <Box as="dt" color="fg.muted" fontWeight="medium" pt={{ base: '2', md: '0' }}>
        {label}
      </Box>
      <Box as="dd" data-testid={testId}>
        {children}
      </Box>
    </>
  );
}

function CertificateDetails({ c }: { c: VerifiedCertificate }) {
  const { t, i18n } = useTranslation('public');
  const l = useLocalized();
  const productColumns = verifyProductColumns(c.products).map((key) => ({ key, label: t(`verify.${key}`) })) satisfies readonly CardColumn[];
  const label = (key: VerifyProductColumn) => productColumns.find((col) => col.key === key)?.label ?? '';
  const scope = scopeText(t, c.kind, c.scope);
  // A mark read from the certificate it rests on says why, naming that certificate (the server's sentence).
  const statusText = c.note ?? t(`statusText.${c.status}`, {
    count: Math.max(0, c.daysRemaining),
    date: formatDate(c.validFrom.gregorian, i18n.language, 'long'),
  });
  return (
    <Stack gap="6" data-testid="verify-result" data-status={c.status}>
      <Alert.Root status={ALERT_STATUS[c.status]} variant="surface" alignItems="center">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title display="flex" gap="3" alignItems="center" flexWrap="wrap">
            <CertificateStatusBadge status={c.status} size="lg" />
            <Text as="span" fontFamily="mono" dir="ltr" data-testid="verify-number">
              {c.number}
            </Text>
          </Alert.Title>
          <Alert.Description mt="1" data-testid="verify-status-text">
            {statusText}
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>

      <Card.Root>
        <Card.Body>
          <Grid as="dl" templateColumns={{ base: '1fr', md: '14rem 1fr' }} columnGap="6" rowGap={{ base: '1', md: '4' }}>
            <Detail label={t('verify.kind')}>{t(`kind.${c.kind}`, { defaultValue: c.kind })}</Detail>
            {c.legacyNumber && (
              <Detail label={t('verify.legacyNumber')}>
                <Text as="span" fontFamily="mono" dir="ltr">
                  {c.legacyNumber}
                </Text>
              </Detail>
            )}
            <Detail label={t('verify.holder')} testId="verify-holder">
              <PartyText party={c.holder} />
            </Detail>
            <Detail label={t('verify.issuer')}>{c.issuer ? <PartyText party={c.issuer} /> : t('verify.issuerCenter')}</Detail>
            {scope && (
              <Detail label={t('verify.scope')}>
                <Text as="span" lang={c.kind === 'halalMark' ? undefined : 'en'}>
                  {scope}
                </Text>
              </Detail>
            )}
            {c.categories.length > 0 && (
              <Detail label={t('verify.categories')}>
                <Wrap gap="1">
                  {c.categories.map((k) => (
                    <Badge key={k} variant="subtle">
                      {t(`cbCategory.${k}`, { defaultValue: k })}
                    </Badge>
                  ))}
                </Wrap>
              </Detail>
            )}
            <Detail label={t('verify.issuedAt')}>
              <DualDateText date={c.issuedAt} testId="verify-issued" />
            </Detail>
            {c.validFrom.gregorian !== c.issuedAt.gregorian && (
              <Detail label={t('verify.validFrom')}>
                <DualDateText date={c.validFrom} testId="verify-valid-from" />
              </Detail>
            )}
            <Detail label={t('verify.expiresAt')}>
              <DualDateText date={c.expiresAt} testId="verify-expires" />
            </Detail>
          </Grid>
        </Card.Body>
      </Card.Root>

      {c.products.length > 0 && (
        <Box>
          <Heading as="h2" size="lg" mb="3">
            {t('verify.products')}
          </Heading>
          <Box borderWidth="1px" borderRadius="md" bg="bg" overflowX="auto">
            <Table.Root size="sm" data-testid="verify-products" {...cardTable}>
              <CardHeader bg="bg.muted" columns={productColumns} />
              <Table.Body {...cardBody}>
                {c.products.map((p, i) => (
                  <Table.Row key={i} {...cardRow}>
                    <CardCell label={label('product')}>{l(p.nameAr, p.nameEn)}</CardCell>
                    <CardCell label={label('brand')}>{l(p.brandAr ?? '', p.brandEn ?? '')}</CardCell>
                    {productColumns.length > 2 && (
                      <CardCell label={label('hsCode')}>
                        <Text as="span" fontFamily="mono" dir="ltr">
                          {p.hsCode ?? ''}
                        </Text>
                      </CardCell>
                    )}
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        </Box>
      )}
      <Text fontSize="sm" color="fg.muted">
        {t('verify.checkedAt', { date: formatDate(new Date(), i18n.language, 'long') })}
      </Text>
    </Stack>
  );
}

function NotFound({ code }: { code: string }) {
  const { t } = useTranslation('public');
  return (
    <Alert.Root status="error" variant="surface" data-testid="verify-not-found">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title fontSize="lg">{t('verify.notFoundTitle')}</Alert.Title>
        <Alert.Description>{t('verify.notFoundText', { code })}</Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/**
 * The page a certificate's or Halal mark's QR code opens (verify/$code), also reachable by typing a number
 * (verify): the certificate's data and status, or a plain statement that no such certificate exists.
 */
export function VerifyPage({ code = '' }: { code?: string }) {
  const { t } = useTranslation('public');
  const wellFormed = CODE_PATTERN.test(code);
  const { data } = useApi(apiQuery('/api/public/verify/{code}', { params: { path: { code } } }), { enabled: wellFormed });
  return (
    <PublicPage pageKey="verify" fallbackTitle={t('nav.verify')}>
      <Stack gap="8">
        <Box maxW="xl" key={code}>
          <VerifyForm initial={code} />
        </Box>
        {code && !wellFormed && <NotFound code={code} />}
        {data && (data.certificate ? <CertificateDetails c={data.certificate} /> : <NotFound code={code} />)}
      </Stack>
    </PublicPage>
  );
}

/** verify/$code: the same page for the code in the address. */
export const VerifyCodePage = () => <VerifyPage code={useRouteParams('verify/$code').code} />;
