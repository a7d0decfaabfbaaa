import { Box, Heading, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/hooks';
import { Ltr } from '../../components/Bidi';

/** GET /api/requests/:id/fees: the bills the request would create, priced by the same rules its bills will be. */
interface FeePreviewView {
  display: 'excludingVat' | 'includingVat';
  items: { feeKind: { code: string; label: string }; charge: { amount: string; vat: string; total: string } | null }[];
}

/**
 * What submitting will cost, before the applicant submits (issue 13: the fee is previewed before payment). Spec 02
 * section 9: some services show their fees excluding VAT, renewals including it; a fee that depends on a later step
 * (the audit plan's size) says so instead of a number.
 */
export function FeePreview({ requestId, version }: { requestId: string; version: number }) {
  const { t } = useTranslation('requests');
  const preview = useApiQuery<FeePreviewView>(`/api/requests/${requestId}/fees?v=${version}`);
  const items = preview.data?.items ?? [];
  if (!items.length) return null;
  const includingVat = preview.data!.display === 'includingVat';
  return (
    <Box borderWidth="1px" borderRadius="md" p="4" data-testid="fee-preview">
      <Heading as="h3" size="md" mb="1">
        {t('fees.title')}
      </Heading>
      <Text fontSize="sm" color="fg.muted" mb="3">
        {t(includingVat ? 'fees.includingVat' : 'fees.excludingVat')}
      </Text>
      <Box overflowX="auto">
        <Table.Root size="sm" variant="outline">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('fees.fee')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('fees.amount')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('fees.vat')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('fees.total')}</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {items.map((i) => (
              <Table.Row key={i.feeKind.code} data-fee={i.feeKind.code}>
                <Table.Cell>{i.feeKind.label}</Table.Cell>
                {i.charge ? (
                  <>
                    <Table.Cell data-testid="fee-amount">
                      <Ltr>{i.charge.amount}</Ltr>
                    </Table.Cell>
                    <Table.Cell>
                      <Ltr>{i.charge.vat}</Ltr>
                    </Table.Cell>
                    <Table.Cell fontWeight={includingVat ? 'semibold' : undefined}>
                      <Ltr>{i.charge.total}</Ltr>
                    </Table.Cell>
                  </>
                ) : (
                  <Table.Cell colSpan={3} color="fg.muted">
                    {t('fees.later')}
                  </Table.Cell>
                )}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
    </Box>
  );
}
