import { useState } from 'react';
import { Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { EventFormProps } from '../requests/EventDialog';
import { FormDialog } from '../requests/FormDialog';
import { TextInput } from '../requests/inputs';

/** The audit report for the decision committee: a summary (required) and notes for the committee. */
export function ReportDialog({ action, send, onClose }: EventFormProps) {
  const { t } = useTranslation('requests');
  const [summary, setSummary] = useState('');
  const [notes, setNotes] = useState('');
  return (
    <FormDialog
      title={action.label}
      submitLabel={action.label}
      onClose={onClose}
      submitDisabled={!summary.trim()}
      onSubmit={() => send({ summary: summary.trim(), ...(notes.trim() ? { notesForCommittee: notes.trim() } : {}) })}
      testId="report-dialog"
    >
      <Stack gap="4">
        <TextInput name="summary" label={t('report.summary')} value={summary} onChange={setSummary} required multiline />
        <TextInput name="notesForCommittee" label={t('report.notesForCommittee')} value={notes} onChange={setNotes} multiline />
      </Stack>
    </FormDialog>
  );
}
