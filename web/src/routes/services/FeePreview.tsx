import { Box, DataList, Heading, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';
import { useReadAgainOnNewVersion } from '../requests/requests-api';
import { Ltr } from '../../components/Bidi';

/** GET /api/requests/{id}/fees: the bills the request would create, priced by the same rules its bills will be. */
type FeePreviewView = ApiResponse<'/api/requests/{id}/fees'>;

/**
 * Spec 02 section 2 "Internal Halal mark requests: package and payment summary, VAT amount, remaining balance": the
 * package, the credit carried over from the certificate's earlier packages, what remains to pay, and the credit left.
 */
function PackageSummary({ p }: { p: NonNullable<FeePreviewView['items'][number]['markPackage']> }) {
  const { t } = useTranslation('requests');
  const rows: [string, string, React.ReactNode][] = [
    ['products', t('fees.package.products'), p.products],
    ['tags', t('fees.package.tags'), p.tags],
    ['balanceTags', t('fees.package.balanceTags'), Math.max(0, p.tags - p.products)],
    ['price', t('fees.package.price'), <Ltr key="price">{p.price}</Ltr>],
    ['credit', t('fees.package.credit'), <Ltr key="credit">{p.credit}</Ltr>],
    ['creditLeft', t('fees.package.creditLeft'), <Ltr key="left">{p.creditLeft}</Ltr>],
  ];
  return (
    <Box mb="3" data-testid="mark-package-summary">
      <Heading as="h4" size="sm" mb="2">
        {t('fees.package.title')}
      </Heading>
      <DataList.Root orientation="horizontal" size="sm">
        {rows.map(([key, label, value]) => (
          <DataList.Item key={key} data-row={key}>
            <DataList.ItemLabel minW="56">{label}</DataList.ItemLabel>
            <DataList.ItemValue>{value}</DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
    </Box>
  );
}

/**
 * What submitting will cost, before the applicant submits (issue 13: the fee is previewed before payment). Spec 02
 * section 9: some services show their fees excluding VAT, renewals including it; a fee that depends on a later step
 * (the audit plan's size) says so instead of a number.
 */
export function FeePreview({ requestId, version }: { requestId: string; version: number }) {
  const { t } = useTranslation('requests');
  const query = apiQuery('/api/requests/{id}/fees', { params: { path: { id: requestId } } });
  const preview = useApi(query);
  useReadAgainOnNewVersion(version, [query]);
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
      {items.map((i) => (i.markPackage ? <PackageSummary key={`pkg-${i.feeKind.code}`} p={i.markPackage} /> : null))}
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
