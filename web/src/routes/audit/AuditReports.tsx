import { useState } from 'react';
import { Box, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { HistoryItem } from '../requests/requests-api';
import { formatDate } from '../../lib/dates';

/**
 * The audit reports written so far (one per round), which the decision committee may show or hide while deciding.
 * Read from the history: each SUBMIT_REPORT carries its summary and notes for the committee.
 */
export function AuditReports({ history }: { history: readonly HistoryItem[] }) {
  const { t, i18n } = useTranslation('requests');
  const [shown, setShown] = useState(false);
  const reports = history.filter((h) => h.event === 'SUBMIT_REPORT');
  if (reports.length === 0) return null;
  return (
    <Box as="section" borderWidth="1px" borderRadius="md" p="4" data-testid="audit-reports">
      <Heading as="h2" size="md" display="flex" alignItems="center" gap="3">
        {t('report.previous', { count: reports.length })}
        <Button size="xs" variant="outline" onClick={() => setShown((s) => !s)} aria-expanded={shown} data-testid="toggle-reports">
          {shown ? t('report.hide') : t('report.show')}
        </Button>
      </Heading>
      {shown && (
        <Stack gap="3" mt="3">
          {reports.map((r) => (
            <Box key={r.seq} borderInlineStartWidth="3px" borderColor="brand.solid" ps="3" data-testid="audit-report">
              <Text fontSize="sm" color="fg.muted">
                {t('history.by', { name: r.actor.name, at: formatDate(r.at, i18n.language) })}
              </Text>
              <Text>{String(r.payload.summary ?? '')}</Text>
              {typeof r.payload.notesForCommittee === 'string' && <Text color="fg.muted">{r.payload.notesForCommittee}</Text>}
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}
