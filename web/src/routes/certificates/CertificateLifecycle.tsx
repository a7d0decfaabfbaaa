import { useState } from 'react';
import { Box, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/query';
import { ActionBar } from '../requests/ActionBar';
import { EventDialog, preloadEventDialog } from '../requests/LazyEventDialog';
import { HistoryTimeline } from '../requests/HistoryTimeline';
import { requestQueries, useReadAgainOnNewVersion, type AllowedActionView } from '../requests/requests-api';

/**
 * A certificate's or a mark's own lifecycle on its page: the action bar (a mark's cancel, a certificate's suspend and
 * reinstate, each with its required reason, for whoever the machine allows) and the history of its status changes,
 * both read from its workflow (whose id is the certificate's), as a request page reads them.
 */
export function CertificateLifecycle({ certificateId, onChange }: { certificateId: string; onChange: () => void }) {
  const { t } = useTranslation('requests');
  const queries = requestQueries(certificateId);
  const request = useApi(queries.request);
  const actions = useApi(queries.actions);
  const history = useApi(queries.history);
  useReadAgainOnNewVersion(request.data?.version, [queries.actions, queries.history]);
  const [open, setOpen] = useState<AllowedActionView | null>(null);
  const r = request.data;
  if (!r) return null;
  const items = history.data?.items ?? [];
  return (
    <Stack gap="4" data-testid="certificate-lifecycle">
      <ActionBar requestId={r.id} kind={r.kind} actions={actions.data?.actions ?? []} onAction={setOpen} onIntent={preloadEventDialog} />
      <Box>
        <HistoryTimeline items={items} startLabel={t('requests:history.recorded')} />
      </Box>
      {open && (
        <EventDialog
          request={r}
          history={items}
          action={open}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            void request.refetch();
            onChange();
          }}
        />
      )}
    </Stack>
  );
}
