import { useState } from 'react';
import { Box, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { EventFormProps } from '../requests/EventDialog';
import { FormDialog } from '../requests/FormDialog';
import { TextInput } from '../requests/inputs';
import { latestCorrectiveActions, latestNonConformities } from './nonconformities';
import { checkCorrectiveDecisions } from './dialog-checks';
import { messageText, type FieldMessage } from '../../components/form/validation-messages';

/**
 * The auditor accepts or rejects each open corrective action; a rejection needs its reason, and sending any
 * rejection asks CONFMSG28 first (the rejected ones go back to the applicant with the notes).
 */
export function CorrectiveDecisionsDialog({ request, history, action, send, onClose }: EventFormProps) {
  const { t } = useTranslation('requests');
  const open = request.context.openNonConformities ?? [];
  const ncs = new Map(latestNonConformities(history).map((n) => [n.id, n]));
  const actions = latestCorrectiveActions(history);
  const [decisions, setDecisions] = useState<Record<string, { accepted?: boolean; reason: string }>>({});
  const [errors, setErrors] = useState<Record<string, FieldMessage>>({});
  const [confirming, setConfirming] = useState(false);
  const payload = () => ({
    decisions: open.map((id) => {
      const d = decisions[id]!;
      return d.accepted ? { nonConformityId: id, accepted: true } : { nonConformityId: id, accepted: false, reason: d.reason.trim() };
    }),
  });
  const submit = async () => {
    const e = checkCorrectiveDecisions(open, decisions);
    setErrors(e);
    if (Object.keys(e).length) throw new Error('invalid');
    if (open.some((id) => decisions[id]?.accepted === false)) {
      setConfirming(true);
      return;
    }
    await send(payload());
  };
  return (
    <>
      <FormDialog title={action.label} size="xl" submitLabel={action.label} onClose={onClose} onSubmit={submit} testId="decisions-dialog">
        <Stack gap="4">
          {open.map((id, i) => {
            const nc = ncs.get(id);
            const ca = actions.get(id);
            const d = decisions[id] ?? { reason: '' };
            return (
              <Box key={id} borderWidth="1px" borderRadius="md" p="3" data-testid="decision-row">
                <Text fontWeight="semibold">
                  {nc ? `${nc.specification} — ${nc.clauseNumber}: ${nc.description}` : id}
                </Text>
                <Text mt="1">
                  {t('corrective.action')}: {ca?.description ?? '—'} ({ca?.implementationDate ?? '—'})
                </Text>
                <RadioGroup.Root
                  mt="2"
                  name={`decision-${i}`}
                  value={d.accepted === undefined ? '' : d.accepted ? 'accept' : 'reject'}
                  onValueChange={(e) => setDecisions((x) => ({ ...x, [id]: { ...d, accepted: e.value === 'accept' } }))}
                >
                  <Stack direction="row" gap="6">
                    {(['accept', 'reject'] as const).map((v) => (
                      <RadioGroup.Item key={v} value={v} data-testid={`decision-${i}-${v}`}>
                        <RadioGroup.ItemHiddenInput />
                        <RadioGroup.ItemIndicator />
                        <RadioGroup.ItemText>{t(`corrective.${v}`)}</RadioGroup.ItemText>
                      </RadioGroup.Item>
                    ))}
                  </Stack>
                </RadioGroup.Root>
                {d.accepted === false && (
                  <Box mt="2">
                    <TextInput name={`decision-${i}-reason`} label={t('fields.reason')} value={d.reason} onChange={(v) => setDecisions((x) => ({ ...x, [id]: { ...d, reason: v } }))} required multiline />
                  </Box>
                )}
                {errors[id] && <Text color="fg.error">{messageText(t, errors[id])}</Text>}
              </Box>
            );
          })}
        </Stack>
      </FormDialog>
      <ConfirmDialog open={confirming} testId="confmsg28" title={action.label} message={t('confirm.CONFMSG28')} tone="danger" onConfirm={() => send(payload())} onCancel={() => setConfirming(false)} />
    </>
  );
}
