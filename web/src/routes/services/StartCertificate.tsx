import { Alert, Box, DataList, Heading } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { SERVICES, type RequestKind } from '../../../../machines/services';
import type { ApiResponse } from '../../api/query';
import { Ltr } from '../../components/Bidi';
import { formatDate } from '../../lib/dates';

/** The refusal's id: the disabled Start button is described by it. */
export const START_REFUSED_ID = 'start-refused';

export type SubjectCertificate = ApiResponse<'/api/certificates/{id}'>;
export interface StartRefusal {
  code: string;
  params: Record<string, string | number>;
}

/**
 * Why the start of this service from this certificate would be refused, known before the click: a renewal the
 * server's `renewal` of the certificate does not name (its window is not open, the certificate is suspended...), in
 * the words the start call would answer with (`renewalRefusal`). Null when the start may go ahead; the server still
 * checks it all when it is sent.
 */
export function startRefusal(kind: RequestKind, c: Pick<SubjectCertificate, 'number' | 'renewal' | 'renewalRefusal'>): StartRefusal | null {
  if (!SERVICES[kind].preconditions.some((p) => p.type === 'renewalWindow') || c.renewal?.kind === kind) return null;
  return c.renewalRefusal ?? { code: 'CertificateNotValid', params: { number: c.number } };
}

/** The certificate a service's start is about (number, kind, expiry), and why its start would be refused, if it would. */
export function StartCertificate({ certificate: c, refusal }: { certificate: SubjectCertificate; refusal: StartRefusal | null }) {
  const { t, i18n } = useTranslation(['requests', 'records', 'errors']);
  return (
    <>
      <Box as="section" aria-labelledby="start-certificate-title" data-testid="start-certificate">
        <Heading as="h2" size="md" mb="2" id="start-certificate-title">
          {t('requests:start.certificateTitle')}
        </Heading>
        <DataList.Root orientation="horizontal" size="sm">
          <DataList.Item data-row="number">
            <DataList.ItemLabel minW="40">{t('requests:list.certificateNumber')}</DataList.ItemLabel>
            <DataList.ItemValue data-testid="start-certificate-number">
              <Ltr>{c.number}</Ltr>
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item data-row="kind">
            <DataList.ItemLabel minW="40">{t('records:certificates.kind')}</DataList.ItemLabel>
            <DataList.ItemValue>{c.kindLabel}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item data-row="expires">
            <DataList.ItemLabel minW="40">{t('records:certificates.expiresAt')}</DataList.ItemLabel>
            <DataList.ItemValue>{formatDate(c.expiresAt.iso, i18n.language)}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      </Box>
      {refusal && (
        <Alert.Root status="warning" id={START_REFUSED_ID} data-testid="start-refused" data-code={refusal.code}>
          <Alert.Indicator />
          <Alert.Title>{t(`errors:${refusal.code}`, refusal.params)}</Alert.Title>
        </Alert.Root>
      )}
    </>
  );
}
