import { useState } from 'react';
import { Box, Button, RadioGroup, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { EventFormProps } from '../requests/EventDialog';
import { FormDialog } from '../requests/FormDialog';
import { SelectInput, TextInput } from '../requests/inputs';
import { checkAuditResult } from './dialog-checks';
import { messageText, type FieldMessage } from '../../components/form/validation-messages';
import { AttachmentUpload } from '../internal-request/AttachmentUpload';

interface NcRow {
  kind: 'certificate' | 'specification';
  reference: string;
  clauseNumber: string;
  description: string;
  observedCase: string;
  impactAnalysis: string;
  /** Optional supporting document of the observed case (spec 02 section 3). */
  supportingDocumentId?: string;
}
const emptyRow = (): NcRow => ({ kind: 'specification', reference: '', clauseNumber: '', description: '', observedCase: '', impactAnalysis: '' });

/**
 * The inspection result: compliant (then the audit report goes to the committee), or the non-conformities found,
 * each against a certificate or a specification with its clause number; sending them asks CONFMSG66 first.
 */
export function AuditResultDialog({ request, action, send, onClose }: EventFormProps) {
  const { t } = useTranslation('requests');
  const [compliant, setCompliant] = useState<'yes' | 'no' | ''>('');
  const [note, setNote] = useState('');
  const [rows, setRows] = useState<NcRow[]>([emptyRow()]);
  const [errors, setErrors] = useState<Record<string, FieldMessage>>({});
  const [confirming, setConfirming] = useState(false);
  const setRow = (i: number, patch: Partial<NcRow>) => setRows((r) => r.map((x, j) => (j === i ? { ...x, ...patch } : x)));

  const payload = () =>
    compliant === 'yes'
      ? { compliant: true, ...(note.trim() ? { note: note.trim() } : {}) }
      : {
          compliant: false,
          nonConformities: rows.map((r, i) => ({
            id: `nc-${Date.now().toString(36)}-${i + 1}`,
            specification: `${t(`result.kinds.${r.kind}`)}: ${r.reference.trim()}`,
            clauseNumber: r.clauseNumber.trim(),
            description: r.description.trim(),
            observedCase: r.observedCase.trim(),
            ...(r.impactAnalysis.trim() ? { impactAnalysis: r.impactAnalysis.trim() } : {}),
            ...(r.supportingDocumentId ? { supportingDocumentId: r.supportingDocumentId } : {}),
          })),
        };

  const validate = () => {
    const e = checkAuditResult(compliant, rows);
    setErrors(e);
    return Object.keys(e).length === 0;
  };

  const submit = async () => {
    if (!validate()) throw new Error('invalid');
    if (compliant === 'no') {
      setConfirming(true);
      return;
    }
    await send(payload());
  };

  return (
    <>
      <FormDialog title={action.label} size="xl" submitLabel={action.label} onClose={onClose} onSubmit={submit} testId="result-dialog">
        <Stack gap="4">
          <RadioGroup.Root value={compliant} onValueChange={(e) => setCompliant(e.value === 'yes' ? 'yes' : 'no')} name="compliant">
            <Stack direction="row" gap="6">
              {(['yes', 'no'] as const).map((v) => (
                <RadioGroup.Item key={v} value={v} data-testid={`compliant-${v}`}>
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>{t(`result.compliant.${v}`)}</RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}
            </Stack>
          </RadioGroup.Root>
          {errors.compliant && <Text color="fg.error">{messageText(t, errors.compliant)}</Text>}
          {compliant === 'yes' && <TextInput name="note" label={t('fields.note')} value={note} onChange={setNote} multiline />}
          {compliant === 'no' && (
            <Stack gap="4">
              {errors.rows && <Text color="fg.error">{messageText(t, errors.rows)}</Text>}
              {rows.map((r, i) => (
                <Box key={i} borderWidth="1px" borderRadius="md" p="3" data-testid="nc-row">
                  <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
                    <SelectInput
                      name={`nc.${i}.kind`}
                      label={t('result.kind')}
                      value={r.kind}
                      onChange={(v) => setRow(i, { kind: v === 'certificate' ? 'certificate' : 'specification' })}
                      options={[
                        { value: 'specification', label: t('result.kinds.specification') },
                        { value: 'certificate', label: t('result.kinds.certificate') },
                      ]}
                    />
                    <TextInput name={`nc.${i}.reference`} label={t('result.reference')} value={r.reference} onChange={(v) => setRow(i, { reference: v })} error={errors[`${i}.reference`]} required />
                    <TextInput name={`nc.${i}.clauseNumber`} label={t('result.clauseNumber')} value={r.clauseNumber} onChange={(v) => setRow(i, { clauseNumber: v })} error={errors[`${i}.clauseNumber`]} required />
                  </SimpleGrid>
                  <SimpleGrid columns={{ base: 1, md: 3 }} gap="3" mt="3">
                    <TextInput name={`nc.${i}.description`} label={t('result.description')} value={r.description} onChange={(v) => setRow(i, { description: v })} error={errors[`${i}.description`]} required multiline />
                    <TextInput name={`nc.${i}.observedCase`} label={t('result.observedCase')} value={r.observedCase} onChange={(v) => setRow(i, { observedCase: v })} error={errors[`${i}.observedCase`]} required multiline />
                    <TextInput name={`nc.${i}.impactAnalysis`} label={t('result.impactAnalysis')} value={r.impactAnalysis} onChange={(v) => setRow(i, { impactAnalysis: v })} multiline />
                  </SimpleGrid>
                  <Box mt="3">
                    <AttachmentUpload
                      facilityPublicId={request.facilityId}
                      requestId={request.id}
                      category="report"
                      label={t('result.supportingDocument')}
                      onUploaded={(a) => setRow(i, { supportingDocumentId: a.id })}
                      testId={`nc-${i}-document`}
                    />
                  </Box>
                  {rows.length > 1 && (
                    <Button mt="2" size="sm" variant="ghost" colorPalette="red" onClick={() => setRows((x) => x.filter((_, j) => j !== i))}>
                      {t('wizard.remove')}
                    </Button>
                  )}
                </Box>
              ))}
              <Button alignSelf="start" variant="outline" onClick={() => setRows((x) => [...x, emptyRow()])} data-testid="nc-add">
                {t('result.addNonConformity')}
              </Button>
            </Stack>
          )}
        </Stack>
      </FormDialog>
      <ConfirmDialog
        open={confirming}
        testId="confmsg66"
        title={t('result.confirmTitle')}
        message={t('confirm.CONFMSG66')}
        onConfirm={() => send(payload())}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
