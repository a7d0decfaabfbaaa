import { useEffect, useState } from 'react';
import { Checkbox, Fieldset, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { sectionsOf } from '../../../../machines/sections';
import { MACHINE_KINDS, type MachineKind } from '../../../../machines/types';
import { Permissions as P } from '../../../../machines/permissions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { notify } from '../../components/toaster';
import { FormField } from '../../components/form/FormField';
import { AuditPlanDialog } from '../audit/AuditPlanDialog';
import { AuditResultDialog } from '../audit/AuditResultDialog';
import { CorrectiveDecisionsDialog } from '../audit/CorrectiveDecisionsDialog';
import { ReportDialog } from '../audit/ReportDialog';
import { CorrectiveActionsDialog } from '../corrective-actions/CorrectiveActionsDialog';
import { PaymentOptionDialog } from '../payments/PaymentOptionDialog';
import { FormDialog } from './FormDialog';
import { sendEvent, staffWith, type AllowedActionView, type HistoryItem, type RequestDetail, type StaffUser } from './requests-api';

export interface EventFormProps {
  request: RequestDetail;
  history: readonly HistoryItem[];
  action: AllowedActionView;
  /** Sends the event with this payload (with the request's version); resolves once the request moved. */
  send: (payload: Record<string, unknown>) => Promise<void>;
  onClose: () => void;
}

/** Events answered with a written reason only (spec: "reason or note is required"). */
const REASON_ONLY = new Set(['RETURN_TO_REGISTRATION', 'RETURN_PLAN', 'APPROVE', 'RETURN_TO_AUDIT', 'REJECT', 'ADD_NOTE', 'SUSPEND', 'REINSTATE']);

/**
 * The dialog of one allowed action, chosen by its event type (never by status or role). Once the event is accepted it
 * says so ("done: <action>") and hands the moved request to `onDone`.
 */
export function EventDialog(props: { request: RequestDetail; history: readonly HistoryItem[]; action: AllowedActionView; onDone: (r: RequestDetail) => void; onClose: () => void }) {
  const { request, action, onDone } = props;
  const { t } = useTranslation('requests');
  const send = async (payload: Record<string, unknown>) => {
    const moved = await sendEvent(request.id, action.type, request.version, payload);
    notify.success(t('requests:page.done', { action: action.label }));
    onDone(moved);
  };
  const p: EventFormProps = { ...props, send };
  switch (action.type) {
    case 'RETURN':
      return <ReturnDialog {...p} />;
    case 'ASSIGN_TO_EMPLOYEE':
      return <AssignDialog {...p} />;
    case 'SAVE_PLAN':
    case 'SUBMIT_PLAN':
      return <AuditPlanDialog {...p} />;
    case 'SUBMIT_AUDIT_RESULT':
      return <AuditResultDialog {...p} />;
    case 'DECIDE_CORRECTIVE_ACTIONS':
      return <CorrectiveDecisionsDialog {...p} />;
    case 'SUBMIT_CORRECTIVE_ACTIONS':
      return <CorrectiveActionsDialog {...p} />;
    case 'SUBMIT_REPORT':
      return <ReportDialog {...p} />;
    case 'CHOOSE_PAYMENT_OPTION':
      return <PaymentOptionDialog {...p} />;
    case 'GRANT_DISCOUNT':
      return <DiscountDialog {...p} />;
    case 'DELETE':
      return <SimpleConfirm {...p} payload={{ confirmed: true }} danger />;
    case 'CANCEL':
      // The server says whether this lifecycle needs the reason (a Halal mark's cancellation does).
      return <SimpleConfirm {...p} payload={{}} danger reason={action.requiresReason ? 'required' : 'optional'} />;
    default:
      if (REASON_ONLY.has(action.type) || action.requiresReason) return <SimpleConfirm {...p} payload={{}} reason="required" danger={action.type === 'REJECT'} />;
      return <SimpleConfirm {...p} payload={{}} />;
  }
}

function SimpleConfirm({ request, action, send, onClose, payload, danger, reason }: EventFormProps & { payload: Record<string, unknown>; danger?: boolean; reason?: 'required' | 'optional' }) {
  const { t } = useTranslation('requests');
  const field = action.type === 'ADD_NOTE' ? 'note' : 'reason';
  return (
    <ConfirmDialog
      open
      testId="event-dialog"
      title={action.label}
      message={t([`confirmFor.${request.kind}.${action.type}`, `confirm.${action.type}`], { defaultValue: t('confirm.generic', { action: action.label }) })}
      confirmLabel={action.label}
      tone={danger ? 'danger' : 'primary'}
      reason={reason ? { label: t(field === 'note' ? 'fields.note' : 'fields.reason'), required: reason === 'required', maxLength: 2000 } : undefined}
      onConfirm={(text) => send(reason && text ? { ...payload, [field]: text } : payload)}
      onCancel={onClose}
    />
  );
}

/** Registration returns the whole request (no section ticked) or the chosen sections, with a required note. */
function ReturnDialog({ request, action, send, onClose }: EventFormProps) {
  const { t } = useTranslation('requests');
  const [reason, setReason] = useState('');
  const [sections, setSections] = useState<string[]>([]);
  const all = (MACHINE_KINDS as readonly string[]).includes(request.kind) ? sectionsOf(request.kind as MachineKind) : [];
  return (
    <FormDialog title={action.label} submitLabel={action.label} onClose={onClose} submitDisabled={!reason.trim()} onSubmit={() => send({ reason: reason.trim(), sections })}>
      <Stack gap="4">
        <Fieldset.Root>
          <Fieldset.Legend>{t('return.sections')}</Fieldset.Legend>
          <Fieldset.HelperText>{t('return.sectionsHelp')}</Fieldset.HelperText>
          <Stack gap="2" mt="2">
            {all.map((s) => (
              <Checkbox.Root
                key={s}
                checked={sections.includes(s)}
                onCheckedChange={(e) => setSections((v) => (e.checked ? [...v, s] : v.filter((x) => x !== s)))}
                data-testid={`return-section-${s}`}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{t(`sections.${s}`)}</Checkbox.Label>
              </Checkbox.Root>
            ))}
          </Stack>
        </Fieldset.Root>
        <FormField label={t('fields.reason')} required>
          <Textarea name="reason" value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={2000} />
        </FormField>
      </Stack>
    </FormDialog>
  );
}

/**
 * A discount: a whole percentage and the required reason. While a bill awaits payment the actions answer says only a
 * full waiver is taken (fullWaiverOnly): the percentage is then 100, fixed, and the dialog says why.
 */
function DiscountDialog({ action, send, onClose }: EventFormProps) {
  const { t } = useTranslation('requests');
  const fixed = action.fullWaiverOnly === true;
  const [percent, setPercent] = useState(fixed ? '100' : '');
  const [reason, setReason] = useState('');
  const value = Number(percent);
  const valid = Number.isInteger(value) && value >= 1 && value <= 100;
  return (
    <FormDialog
      title={action.label}
      submitLabel={action.label}
      onClose={onClose}
      submitDisabled={!valid || !reason.trim()}
      onSubmit={() => send({ percent: value, reason: reason.trim() })}
    >
      <Stack gap="4">
        <FormField label={t('discount.percent')} required readOnly={fixed} helper={fixed ? t('discount.fullWaiverOnly') : t('discount.range')}>
          <Input name="percent" type="number" inputMode="numeric" min={1} max={100} step={1} value={percent} onChange={(e) => setPercent(e.target.value)} />
        </FormField>
        <FormField label={t('fields.reason')} required>
          <Textarea name="reason" value={reason} onChange={(e) => setReason(e.target.value)} rows={3} maxLength={2000} />
        </FormField>
      </Stack>
    </FormDialog>
  );
}

const QUEUE_PERMISSION: Record<string, string> = {
  registration: P.internalRequest.registrationReview,
  audit: P.internalRequest.auditSubmitReport,
  committee: P.internalRequest.committeeReview,
};

/** Assign to an employee of the queue (also how an assignment is edited). */
function AssignDialog({ request, action, send, onClose }: EventFormProps) {
  const { t } = useTranslation('requests');
  const [staff, setStaff] = useState<StaffUser[]>([]);
  const [assignee, setAssignee] = useState('');
  useEffect(() => {
    const permission = QUEUE_PERMISSION[request.queue ?? ''] ?? P.portals.halalCenter;
    void staffWith(permission).then(setStaff);
  }, [request.queue]);
  return (
    <FormDialog title={action.label} submitLabel={action.label} onClose={onClose} submitDisabled={!assignee} onSubmit={() => send({ assigneeUserId: assignee })}>
      <FormField label={t('assign.employee')} required>
        <NativeSelect.Root>
          <NativeSelect.Field name="assignee" value={assignee} onChange={(e) => setAssignee(e.target.value)}>
            <option value="">{t('assign.choose')}</option>
            {staff.map((u) => (
              <option key={u.id} value={u.id}>
                {u.name}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </FormField>
      {request.assigneeUserId && <Text mt="3" fontSize="sm" color="fg.muted">{t('assign.replaces')}</Text>}
    </FormDialog>
  );
}
