import { useState } from 'react';
import { Box, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { latestCorrectiveActions, latestNonConformities, rejectionReasons } from '../audit/nonconformities';
import type { EventFormProps } from '../requests/EventDialog';
import { FormDialog } from '../requests/FormDialog';
import { TextInput } from '../requests/inputs';
import { AttachmentUpload } from '../internal-request/AttachmentUpload';
import { checkCorrectiveActions } from '../audit/dialog-checks';
import type { FieldMessage } from '../../components/form/validation-messages';

interface Row {
  description: string;
  implementationDate: string;
  completionDate: string;
  documentId?: string;
  customerSignatureFileId?: string;
}

/**
 * The applicant's corrective action for each open non-conformity (description, dates, optional document); after a
 * rejection only the rejected ones are open, shown with the auditor's reason and the previous answer to fix.
 */
export function CorrectiveActionsDialog({ request, history, action, send, onClose }: EventFormProps) {
  const { t } = useTranslation('requests');
  const open = request.context.openNonConformities ?? [];
  const ncs = new Map(latestNonConformities(history).map((n) => [n.id, n]));
  const previous = latestCorrectiveActions(history);
  const reasons = rejectionReasons(history);
  const [rows, setRows] = useState<Record<string, Row>>(() =>
    Object.fromEntries(
      open.map((id) => {
        const p = previous.get(id);
        return [id, { description: p?.description ?? '', implementationDate: p?.implementationDate ?? '', completionDate: p?.completionDate ?? '', documentId: p?.documentId, customerSignatureFileId: p?.customerSignatureFileId }];
      }),
    ),
  );
  const [errors, setErrors] = useState<Record<string, FieldMessage>>({});
  const set = (id: string, patch: Partial<Row>) => setRows((r) => ({ ...r, [id]: { ...r[id]!, ...patch } }));
  const submit = async () => {
    const e = checkCorrectiveActions(open, rows);
    setErrors(e);
    if (Object.keys(e).length) throw new Error('invalid');
    await send({
      actions: open.map((id) => {
        const r = rows[id]!;
        return {
          nonConformityId: id,
          description: r.description.trim(),
          implementationDate: r.implementationDate,
          ...(r.completionDate ? { completionDate: r.completionDate } : {}),
          ...(r.documentId ? { documentId: r.documentId } : {}),
          ...(r.customerSignatureFileId ? { customerSignatureFileId: r.customerSignatureFileId } : {}),
        };
      }),
    });
  };
  return (
    <FormDialog title={action.label} size="xl" submitLabel={action.label} onClose={onClose} onSubmit={submit} testId="corrective-dialog">
      <Stack gap="5">
        {open.map((id, i) => {
          const nc = ncs.get(id);
          const r = rows[id]!;
          return (
            <Box key={id} borderWidth="1px" borderRadius="md" p="3" data-testid="corrective-row">
              <Heading as="h4" size="sm">
                {nc ? `${nc.specification} — ${nc.clauseNumber}` : id}
              </Heading>
              {nc && <Text>{nc.description}</Text>}
              {nc && <Text color="fg.muted">{t('result.observedCase')}: {nc.observedCase}</Text>}
              {reasons.get(id) && (
                <Text color="fg.error" data-testid="rejection-reason">
                  {t('corrective.rejectedBecause', { reason: reasons.get(id) })}
                </Text>
              )}
              <SimpleGrid columns={{ base: 1, md: 3 }} gap="3" mt="3">
                <TextInput name={`ca.${i}.description`} label={t('corrective.description')} value={r.description} onChange={(v) => set(id, { description: v })} error={errors[`${id}.description`]} required multiline />
                <TextInput name={`ca.${i}.implementationDate`} type="date" label={t('corrective.implementationDate')} value={r.implementationDate} onChange={(v) => set(id, { implementationDate: v })} error={errors[`${id}.implementationDate`]} required />
                <TextInput name={`ca.${i}.completionDate`} type="date" label={t('corrective.completionDate')} value={r.completionDate} onChange={(v) => set(id, { completionDate: v })} />
              </SimpleGrid>
              <Box mt="3">
                <AttachmentUpload
                  facilityPublicId={request.facilityId}
                  requestId={request.id}
                  category="report"
                  label={t('corrective.document')}
                  onUploaded={(a) => set(id, { documentId: a.id })}
                  testId={`ca-${i}-document`}
                />
              </Box>
              <Box mt="3">
                <AttachmentUpload
                  facilityPublicId={request.facilityId}
                  requestId={request.id}
                  category="report"
                  label={t('corrective.customerSignature')}
                  onUploaded={(a) => set(id, { customerSignatureFileId: a.id })}
                  testId={`ca-${i}-signature`}
                />
              </Box>
            </Box>
          );
        })}
      </Stack>
    </FormDialog>
  );
}
