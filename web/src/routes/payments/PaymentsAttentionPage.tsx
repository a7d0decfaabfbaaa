import { useState } from 'react';
import { Badge, Box, Button, Field, Flex, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link } from '@tanstack/react-router';
import { Permissions } from '../../../../machines/permissions';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { apiQuery, useApi, type ApiResponse, type GetInit } from '../../api/query';
import { Isolated, Ltr, ltr } from '../../components/Bidi';
import { DataTable, type Column } from '../../components/DataTable';
import { ListSearch } from '../../components/ListSearch';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { showProblem } from '../../components/problem-handler';
import { notify } from '../../components/toaster';
import { can, useSession } from '../../session';
import { useUrlFilters } from '../records/url-filters';
import { formatDate } from '../../lib/dates';
import { RecordRefundDialog } from './RecordRefundDialog';
import { moneyFormat } from '../../lib/numbers';

const FILTERS = ['any', 'reason'] as const;
const PAGE_SIZE = 10;
const REASONS = ['billNotPayable', 'refusedByRequest', 'certificateEnded', 'requestNotTold', 'inquiryFailing', 'inquiryWindowOver', 'stillPending'] as const;

type Item = ApiResponse<'/api/payments/attention'>['items'][number];
type AttentionQuery = NonNullable<NonNullable<GetInit<'/api/payments/attention'>['params']>['query']>;

/** Refunds owed are red; a paid request not told orange; payments the sweep could not settle yellow. */
const palette = (reason: string) =>
  ['billNotPayable', 'refusedByRequest', 'certificateEnded'].includes(reason) ? 'red' : reason === 'requestNotTold' ? 'orange' : 'yellow';

/**
 * payments-attention: the payments a person must act on (GET /api/payments/attention): refunds owed, paid bills whose
 * request has not heard, and payments the reconciliation sweep could not settle, with the portal's last answer. Staff
 * who handle payments may ask the portal about a pending one now (the sweep's own inquiry: only the portal's answer
 * settles it, never a hand) and record a refund owed as made (it then leaves the list). Filters live in the URL.
 */
export function PaymentsAttentionPage() {
  const { t, i18n } = useTranslation(['payments', 'shell']);
  const session = useSession();
  const mayAsk = can(session, [Permissions.payments.grantDiscount]);
  const { values, page, set } = useUrlFilters(FILTERS);
  const [asking, setAsking] = useState<string | null>(null);
  const [refunding, setRefunding] = useState<Item | null>(null);
  const ar = i18n.language === 'ar';
  const query = { ...Object.fromEntries(FILTERS.filter((k) => values[k]).map((k) => [k, values[k]])), pageNumber: page, pageSize: PAGE_SIZE };
  const list = useApi(apiQuery('/api/payments/attention', { params: { query: query as AttentionQuery } }));
  const money = moneyFormat(i18n.language);
  const sar = (s: string, testId: string) => (
    <Text as="span" whiteSpace="nowrap" data-testid={testId}>
      <Ltr>{money.format(Number(s))}</Ltr>
    </Text>
  );

  const ask = async (item: Item) => {
    setAsking(item.paymentId);
    try {
      const res = await data(api.POST('/api/payments/{id}/inquire', { params: { path: { id: item.paymentId } }, body: {}, handleErrors: [409, 502] }));
      const answer = t(`payments:attention.answer.${res.answer}`);
      if (res.changed) notify.success(t('payments:attention.asked.settled', { bill: ltr(item.billNumber), answer }));
      else notify.info(t('payments:attention.asked.unchanged', { bill: ltr(item.billNumber), answer }));
    } catch (e) {
      if (e instanceof ApiError) showProblem(e);
    } finally {
      setAsking(null);
      await list.refetch();
    }
  };

  const tell = async (item: Item) => {
    setAsking(item.paymentId);
    try {
      const res = await data(api.POST('/api/payments/{id}/tell-request', { params: { path: { id: item.paymentId } }, body: {}, handleErrors: [409] }));
      const says = t(`payments:attention.told.${res.outcome}`, { bill: ltr(item.billNumber) });
      if (res.outcome === 'accepted' || res.outcome === 'noWorkflow') notify.success(says);
      else notify.info(says);
    } catch (e) {
      if (e instanceof ApiError) showProblem(e);
    } finally {
      setAsking(null);
      await list.refetch();
    }
  };

  const columns: Column<Item>[] = [
    {
      key: 'reason',
      header: t('payments:attention.reason'),
      render: (p) => (
        <Stack gap="1" align="start">
          <Badge colorPalette={palette(p.reason)} data-testid="attention-reason">
            {t(`payments:attention.reasons.${p.reason}`)}
          </Badge>
          <Text fontSize="sm" color="fg.muted">
            {t(`payments:attention.hints.${p.reason}`)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'bill',
      header: t('payments:attention.bill'),
      render: (p) => (
        <Stack gap="0">
          <Text fontWeight="semibold" data-testid="attention-bill">
            <Ltr>{p.billNumber}</Ltr>
          </Text>
          {p.requestNumber && p.requestId ? (
            <Link to="/requests/$requestId" params={{ requestId: p.requestId }}>
              <Text as="span" fontSize="sm" color="brand.fg">
                <Isolated text={ltr(p.requestNumber)} />
              </Text>
            </Link>
          ) : null}
        </Stack>
      ),
    },
    { key: 'facility', header: t('payments:attention.facility'), render: (p) => (ar ? p.facility.nameAr : p.facility.nameEn) },
    {
      key: 'amount',
      header: t('payments:attention.amount'),
      align: 'end',
      render: (p) => (
        <Stack gap="0" align="end">
          <Box fontWeight="bold">{sar(p.amount, 'attention-amount')}</Box>
          <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
            {t('payments:attention.amountParts', { amount: ltr(money.format(Number(p.billAmount))), vat: ltr(money.format(Number(p.vat))) })}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'age',
      header: t('payments:attention.age'),
      render: (p) => (
        <Stack gap="0">
          <Text data-testid="attention-age">{t('payments:attention.days', { count: p.ageDays })}</Text>
          <Text fontSize="xs" color="fg.muted">
            {formatDate(p.startedAt, i18n.language, 'dateTime')}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'inquiry',
      header: t('payments:attention.lastInquiry'),
      render: (p) =>
        p.inquiryAnswer ? (
          <Stack gap="0">
            <Text data-testid="attention-answer">{t(`payments:attention.answer.${p.inquiryAnswer}`, { defaultValue: p.inquiryAnswer })}</Text>
            {p.inquiredAt ? (
              <Text fontSize="xs" color="fg.muted">
                {formatDate(p.inquiredAt, i18n.language, 'dateTime')}
                {p.inquiryFailures > 0 ? ` · ${t('payments:attention.failures', { count: p.inquiryFailures })}` : ''}
              </Text>
            ) : null}
          </Stack>
        ) : (
          <Text color="fg.muted" data-testid="attention-answer">
            {t('payments:attention.neverAsked')}
          </Text>
        ),
    },
    ...(mayAsk
      ? [
          {
            key: 'action',
            header: t('payments:attention.action'),
            render: (p: Item) =>
              p.canInquire ? (
                <Button size="sm" variant="outline" colorPalette="brand" loading={asking === p.paymentId} onClick={() => void ask(p)} data-testid="attention-ask">
                  {t('payments:attention.ask')}
                </Button>
              ) : p.canTellRequest ? (
                <Button size="sm" variant="outline" colorPalette="orange" loading={asking === p.paymentId} onClick={() => void tell(p)} data-testid="attention-tell">
                  {t('payments:attention.tell')}
                </Button>
              ) : p.canRecordRefund ? (
                <Button size="sm" variant="outline" colorPalette="red" onClick={() => setRefunding(p)} data-testid="attention-record-refund">
                  {t('payments:attention.recordRefund')}
                </Button>
              ) : (
                <Text fontSize="sm" color="fg.muted">
                  {t(`payments:attention.todo.${['billNotPayable', 'refusedByRequest', 'certificateEnded'].includes(p.reason) ? 'refund' : 'wait'}`)}
                </Text>
              ),
          },
        ]
      : []),
  ];

  return (
    <PageContainer>
      <PageHeader
        title={t('payments:attention.title')}
        description={t('payments:attention.description')}
        breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t('payments:attention.title') }]}
      />
      <Stack gap="4">
        <Flex gap="3" wrap="wrap" align="end">
          <ListSearch filters={{ values, set }} param="any" label={t('payments:attention.searchLabel')} testId="filter-any" flex="1" minW="56" />
          <Field.Root minW="48" w="auto">
            <Field.Label>{t('payments:attention.reason')}</Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field value={values.reason} onChange={(e) => set({ reason: e.target.value })} data-testid="filter-reason">
                <option value="">{t('payments:attention.allReasons')}</option>
                {REASONS.map((r) => (
                  <option key={r} value={r}>
                    {t(`payments:attention.reasons.${r}`)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
        </Flex>
        <DataTable
          caption={t('payments:attention.title')}
          columns={columns}
          rows={list.data?.items ?? []}
          rowKey={(p) => p.paymentId}
          loading={list.isFetching && !list.data}
          emptyText={t(values.any || values.reason ? 'payments:attention.emptyFiltered' : 'payments:attention.empty')}
          paging={{ page, pageSize: PAGE_SIZE, total: list.data?.totalCount ?? 0, onPageChange: (p) => set({ page: p }) }}
        />
      </Stack>
      {refunding && (
        <RecordRefundDialog
          payment={refunding}
          onClose={() => setRefunding(null)}
          onRecorded={() => {
            setRefunding(null);
            void list.refetch();
          }}
        />
      )}
    </PageContainer>
  );
}
