import { Badge, Box, Field, Flex, Link as ChakraLink, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi, type ApiResponse, type GetInit } from '../../api/query';
import { Isolated, Ltr, ltr } from '../../components/Bidi';
import { DataTable, type Column } from '../../components/DataTable';
import { ListSearch } from '../../components/ListSearch';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { useSession } from '../../session';
import { useUrlFilters } from './url-filters';
import { formatDate } from '../../lib/dates';
import { moneyFormat } from '../../lib/numbers';

const FILTERS = ['any', 'issued', 'bulk'] as const;
const PAGE_SIZE = 10;

type BillJson = ApiResponse<'/api/bills'>['items'][number];
type BillsQuery = NonNullable<NonNullable<GetInit<'/api/bills'>['params']>['query']>;

/** Bill status 1 is open (awaiting payment); 2 paid, 3 expired, 4 cancelled. */
const billPalette = (code: number) => (code === 1 ? 'orange' : code === 2 ? 'green' : 'gray');

/**
 * invoices: the single and month-end bulk bills of the user's facilities (staff: every facility's), issued at the
 * payment portal or not yet, with the amount without VAT, the VAT and the total as the server stored them, and the
 * bill file. Filters live in the URL.
 */
export function InvoicesPage() {
  const { t, i18n } = useTranslation(['records', 'shell', 'payments']);
  const session = useSession();
  const { values, page, set } = useUrlFilters(FILTERS);
  const ar = i18n.language === 'ar';
  const query = { ...Object.fromEntries(FILTERS.filter((k) => values[k]).map((k) => [k, values[k]])), pageNumber: page, pageSize: PAGE_SIZE };
  const list = useApi(apiQuery('/api/bills', { params: { query: query as BillsQuery } }));
  const money = moneyFormat(i18n.language);
  const sar = (s: string, testId: string) => (
    <Text as="span" whiteSpace="nowrap" data-testid={testId}>
      <Ltr>{money.format(Number(s))}</Ltr>
    </Text>
  );
  const columns: Column<BillJson>[] = [
    {
      key: 'name',
      header: t('records:invoices.name'),
      render: (b) => (
        <Stack gap="0">
          <Text fontWeight="semibold" data-testid="invoice-name">
            {b.name}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {/* Each number whole and left to right; a narrow card breaks the line between them, never inside one. */}
            <Isolated text={b.requestNumber ? `${ltr(b.number)} · ${ltr(b.requestNumber)}` : ltr(b.number)} />
          </Text>
        </Stack>
      ),
    },
    ...(session?.isStaff || (session?.facilityIds.length ?? 0) > 1
      ? [{ key: 'facility', header: t('records:invoices.facility'), render: (b: BillJson) => (ar ? b.facility.nameAr : b.facility.nameEn) }]
      : []),
    { key: 'date', header: t('records:invoices.date'), render: (b) => formatDate(b.date, i18n.language) },
    { key: 'amount', header: t('records:invoices.amount'), align: 'end', render: (b) => sar(b.amount, 'invoice-amount') },
    { key: 'vat', header: t('records:invoices.vat'), align: 'end', render: (b) => sar(b.vat, 'invoice-vat') },
    { key: 'total', header: t('records:invoices.total'), align: 'end', render: (b) => <Box fontWeight="bold">{sar(b.total, 'invoice-total')}</Box> },
    {
      key: 'status',
      header: t('records:invoices.status'),
      render: (b) => (
        <Flex gap="1" wrap="wrap">
          <Badge colorPalette={billPalette(b.status.code)}>{b.status.label}</Badge>
          <Badge variant="outline">{t(b.issued ? 'records:invoices.issuedYes' : 'records:invoices.issuedNo')}</Badge>
          {b.refunds.map((r) => (
            <Text key={`${r.reference}-${r.refundedOn}`} fontSize="sm" color="blue.fg" w="full" data-testid="invoice-refund">
              <Badge colorPalette="blue" me="1">{t('payments:bill.refunded')}</Badge>
              {t('payments:bill.refundLine', { amount: ltr(money.format(Number(r.amount))), date: formatDate(r.refundedOn, i18n.language), reference: ltr(r.reference) })}
            </Text>
          ))}
        </Flex>
      ),
    },
    {
      key: 'file',
      header: t('records:invoices.file'),
      render: (b) => (
        <ChakraLink href={`/api/bills/${b.id}/file`} download colorPalette="brand" data-testid="invoice-file" aria-label={`${t('records:invoices.file')} ${b.number}`}>
          {t('records:invoices.download')}
        </ChakraLink>
      ),
    },
  ];
  const select = (key: 'issued' | 'bulk', options: [string, string][]) => (
    <Field.Root minW="36" w="auto">
      <Field.Label>{t(`records:invoices.${key}`)}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field value={values[key]} onChange={(e) => set({ [key]: e.target.value })} data-testid={`filter-${key}`}>
          {options.map(([v, label]) => (
            <option key={v} value={v}>
              {t(`records:invoices.${label}`)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
  return (
    <PageContainer>
      <PageHeader
        title={t('records:invoices.title')}
        description={t(session?.isStaff ? 'records:invoices.staffDescription' : 'records:invoices.description')}
        breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t('records:invoices.title') }]}
      />
      <Stack gap="4">
        <Flex gap="3" wrap="wrap" align="end">
          <ListSearch filters={{ values, set }} param="any" label={t('records:invoices.searchLabel')} testId="filter-any" flex="1" minW="56" />
          {select('issued', [['', 'issuedAny'], ['true', 'issuedYes'], ['false', 'issuedNo']])}
          {select('bulk', [['', 'bulkAny'], ['false', 'bulkNo'], ['true', 'bulkYes']])}
        </Flex>
        <DataTable
          caption={t('records:invoices.title')}
          columns={columns}
          rows={list.data?.items ?? []}
          rowKey={(b) => b.id}
          loading={list.isFetching && !list.data}
          emptyText={t('records:invoices.empty')}
          paging={{ page, pageSize: PAGE_SIZE, total: list.data?.totalCount ?? 0, onPageChange: (p) => set({ page: p }) }}
        />
      </Stack>
    </PageContainer>
  );
}
