import { useState } from 'react';
import { Button, Flex } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { DataTable, type Column } from '../../components/DataTable';
import { notify } from '../../components/toaster';
import { EventDialog } from './EventDialog';
import { ClockBadge } from './ClockBadge';
import type { AllowedActionView, HistoryItem, RequestDetail, RequestSummary } from './requests-api';
import { requestColumns } from './request-columns';

/** Events a list row offers directly (the queue's assignment); everything else is on the request page. */
const ROW_EVENTS = new Set(['ASSIGN_TO_ME', 'ASSIGN_TO_EMPLOYEE', 'CANCEL_ASSIGNMENT']);

/** A page of requests with a link to each, and (for staff queues) the row's assignment actions. */
export function RequestsTable(p: {
  rows: RequestSummary[];
  total: number;
  /** The total is a floor: the list has more rows (QueuePage.totalCapped). */
  totalCapped?: boolean;
  page: number;
  pageSize: number;
  loading: boolean;
  onPageChange: (page: number) => void;
  rowActions?: boolean;
  onChanged?: () => void;
}) {
  const { t, i18n } = useTranslation('requests');
  const shared = requestColumns(t, i18n.language);
  const columns: Column<RequestSummary>[] = [
    shared.number,
    { key: 'kind', header: t('list.kind'), render: (r) => t(`machines:kinds.${r.kind}`, { defaultValue: r.kind }) },
    shared.status,
    { key: 'creator', header: t('list.creator'), render: (r) => r.creatorName },
    shared.updated,
  ];
  // The working-day clock, for the kinds that have a time limit (issue 15 item 7).
  if (p.rows.some((r) => r.clock)) {
    columns.splice(3, 0, { key: 'clock', header: t('admin:clock.label'), render: (r) => (r.clock ? <ClockBadge clock={r.clock} compact /> : null) });
  }
  if (p.rowActions) columns.push({ key: 'actions', header: t('list.actions'), render: (r) => <RowActions row={r} onChanged={p.onChanged} /> });
  return (
    <DataTable
      columns={columns}
      rows={p.rows}
      rowKey={(r) => r.id}
      loading={p.loading}
      emptyText={t('list.empty')}
      paging={{ page: p.page, pageSize: p.pageSize, total: p.total, totalCapped: p.totalCapped, onPageChange: p.onPageChange }}
    />
  );
}

function RowActions({ row, onChanged }: { row: RequestSummary; onChanged?: () => void }) {
  const { t } = useTranslation('requests');
  const [actions, setActions] = useState<AllowedActionView[] | null>(null);
  const [open, setOpen] = useState<{ action: AllowedActionView; request: RequestDetail; history: HistoryItem[] } | null>(null);
  const path = { params: { path: { id: row.id } } };
  const load = async () => setActions((await data(api.GET('/api/requests/{id}/actions', path))).actions.filter((a) => ROW_EVENTS.has(a.type)));
  const start = async (action: AllowedActionView) => {
    const [request, history] = await Promise.all([data(api.GET('/api/requests/{id}', path)), data(api.GET('/api/requests/{id}/history', path))]);
    setOpen({ action, request, history: history.items });
  };
  return (
    <Flex gap="1" wrap="wrap">
      {actions === null ? (
        <Button size="xs" variant="outline" onClick={() => void load()} data-testid="row-assignment">
          {t('list.assignment')}
        </Button>
      ) : actions.length === 0 ? (
        <span>—</span>
      ) : (
        actions.map((a) => (
          <Button key={a.type} size="xs" colorPalette="brand" variant="subtle" onClick={() => void start(a)} data-testid={`row-action-${a.type}`}>
            {a.label}
          </Button>
        ))
      )}
      {open && (
        <EventDialog
          request={open.request}
          history={open.history}
          action={open.action}
          onClose={() => setOpen(null)}
          onDone={() => {
            notify.success(t('page.done', { action: open.action.label }));
            setOpen(null);
            setActions(null);
            onChanged?.();
          }}
        />
      )}
    </Flex>
  );
}
