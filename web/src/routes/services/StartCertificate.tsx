import { Box, DataList, Heading } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { ApiResponse } from '../../api/query';
import { Ltr } from '../../components/Bidi';
import { formatDate } from '../../lib/dates';

export type SubjectCertificate = ApiResponse<'/api/certificates/{id}'>;

/** The certificate a service's start is about: number, kind, expiry. */
export function StartCertificate({ certificate: c }: { certificate: SubjectCertificate }) {
  const { t, i18n } = useTranslation(['requests', 'records']);
  return (
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
  );
}
