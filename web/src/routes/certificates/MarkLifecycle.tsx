import { useState } from 'react';
import { Box, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/hooks';
import { notify } from '../../components/toaster';
import { ActionBar } from '../requests/ActionBar';
import { EventDialog } from '../requests/EventDialog';
import { HistoryTimeline } from '../requests/HistoryTimeline';
import type { ActionsView, AllowedActionView, HistoryItem, RequestDetail } from '../requests/requests-api';

/**
 * A Halal mark's own lifecycle on its page: the action bar (cancel, with its required reason, for whoever the machine
 * allows) and the history of its status changes, both read from the mark's workflow (its id is the mark's id), as a
 * request page reads them.
 */
export function MarkLifecycle({ markId, onChange }: { markId: string; onChange: () => void }) {
  const { t } = useTranslation('requests');
  const request = useApiQuery<RequestDetail>(`/api/requests/${markId}`);
  const version = request.data?.version ?? 0;
  const actions = useApiQuery<ActionsView>(request.data ? `/api/requests/${markId}/actions?v=${version}` : null);
  const history = useApiQuery<{ items: HistoryItem[] }>(request.data ? `/api/requests/${markId}/history?v=${version}` : null);
  const [open, setOpen] = useState<AllowedActionView | null>(null);
  const r = request.data;
  if (!r) return null;
  const items = history.data?.items ?? [];
  return (
    <Stack gap="4" data-testid="mark-lifecycle">
      <ActionBar requestId={r.id} kind={r.kind} actions={actions.data?.actions ?? []} onAction={setOpen} />
      <Box>
        <HistoryTimeline items={items} />
      </Box>
      {open && (
        <EventDialog
          request={r}
          history={items}
          action={open}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            notify.success(t('requests:page.done', { action: open.label }));
            void request.reload();
            onChange();
          }}
        />
      )}
    </Stack>
  );
}
