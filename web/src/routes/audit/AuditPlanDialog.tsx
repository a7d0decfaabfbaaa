import { useEffect, useMemo, useState } from 'react';
import { Box, Button, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { WizardSteps } from '../../components/WizardSteps';
import type { TAuditPlan } from '../../../../machines/events';
import { Permissions as P } from '../../../../machines/permissions';
import type { EventFormProps } from '../requests/EventDialog';
import { FormDialog } from '../requests/FormDialog';
import { CheckInput, SelectInput, TextInput } from '../requests/inputs';
import { staffWith, type StaffUser } from '../requests/requests-api';
import { checkStep, emptyDay, formToPlan, planToForm, PLAN_STEPS, type PlanForm } from './plan-form';
import { listSeparator } from '../../i18n';
import { messageText, type FieldMessage } from '../../components/form/validation-messages';

/**
 * The audit plan wizard (issue 5): basic data, visit dates and times, the auditors' timeline per day (every auditor
 * included), attendees, summary. A plan being revised asks for the reason of the change. SAVE_PLAN keeps it,
 * SUBMIT_PLAN sends it to the applicant.
 */
export function AuditPlanDialog({ request, history, action, send, onClose }: EventFormProps) {
  const { t } = useTranslation('requests');
  // Audit goes on from its own saved draft, else from the plan last sent (requests of earlier versions hold no draft).
  const previous = (request.context.auditPlanDraft ?? request.context.auditPlan ?? null) as TAuditPlan | null;
  // A plan the applicant returned is revised: the change needs its reason (spec: "plan changes with reason").
  const lastPlanEvent = [...history].reverse().find((h) => h.event === 'SUBMIT_PLAN' || h.event === 'RETURN_PLAN');
  const revising = previous !== null && action.type === 'SUBMIT_PLAN' && lastPlanEvent?.event === 'RETURN_PLAN';
  const [form, setForm] = useState<PlanForm>(() => planToForm(previous));
  const [step, setStep] = useState(0);
  const [errors, setErrors] = useState<Record<string, FieldMessage>>({});
  const [leaders, setLeaders] = useState<StaffUser[]>([]);
  const [auditors, setAuditors] = useState<StaffUser[]>([]);
  useEffect(() => {
    void staffWith(P.internalRequest.auditAssignToOthers).then(setLeaders);
    void staffWith(P.internalRequest.auditSubmitReport).then(setAuditors);
  }, []);
  const names = useMemo(() => new Map([...leaders, ...auditors].map((u) => [u.id, u.name])), [leaders, auditors]);
  const team = [form.teamLeaderUserId, ...form.technicalAuditorUserIds.filter((id) => id !== form.teamLeaderUserId)].filter(Boolean);
  const current = PLAN_STEPS[step]!;
  const set = (patch: Partial<PlanForm>) => setForm((f) => ({ ...f, ...patch }));
  const setDay = (i: number, patch: Partial<PlanForm['days'][number]>) => set({ days: form.days.map((d, j) => (j === i ? { ...d, ...patch } : d)) });
  const setAttendee = (i: number, patch: Partial<PlanForm['attendees'][number]>) =>
    set({ attendees: form.attendees.map((a, j) => (j === i ? { ...a, ...patch } : a)) });

  const validate = (s: (typeof PLAN_STEPS)[number]) => {
    const e = checkStep(s, form, new Date(), revising);
    setErrors(e);
    return Object.keys(e).length === 0;
  };
  const next = () => {
    if (validate(current)) setStep((s) => s + 1);
  };
  const submit = async () => {
    for (const [i, s] of PLAN_STEPS.entries()) {
      if (!validate(s)) {
        setStep(i);
        throw new Error('invalid');
      }
    }
    let plan;
    try {
      plan = formToPlan(form, previous, revising);
    } catch {
      // The steps passed but the machine's plan schema did not: say so rather than failing silently.
      setErrors({ plan: { key: 'machines:validation.invalid' } });
      throw new Error('invalid');
    }
    await send({ plan });
  };
  const last = step === PLAN_STEPS.length - 1;

  return (
    <FormDialog
      title={action.label}
      size="xl"
      submitLabel={action.label}
      submitDisabled={!last && action.type === 'SUBMIT_PLAN'}
      onClose={onClose}
      onSubmit={submit}
      testId="plan-dialog"
      extraButtons={
        <>
          {step > 0 && (
            <Button variant="outline" onClick={() => setStep((s) => s - 1)} data-testid="plan-back">
              {t('wizard.back')}
            </Button>
          )}
          {!last && (
            <Button variant="subtle" onClick={next} data-testid="plan-next">
              {t('wizard.next')}
            </Button>
          )}
        </>
      }
    >
      <WizardSteps mb="6" steps={PLAN_STEPS.map((s) => ({ key: s, title: t(`plan.steps.${s}`) }))} current={step} />
      {errors.plan && <Text color="fg.error" mb="3">{messageText(t, errors.plan)}</Text>}
      <Box data-testid={`plan-step-${current}`}>
        {current === 'basic' && (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            <TextInput name="visitGoal" label={t('plan.visitGoal')} value={form.visitGoal} onChange={(v) => set({ visitGoal: v })} error={errors.visitGoal} required />
            <SelectInput
              name="language"
              label={t('plan.language')}
              value={form.language}
              onChange={(v) => set({ language: v === 'en' ? 'en' : 'ar' })}
              options={[
                { value: 'ar', label: t('plan.languages.ar') },
                { value: 'en', label: t('plan.languages.en') },
              ]}
            />
            <TextInput name="coordinatorName" label={t('plan.coordinatorName')} value={form.coordinatorName} onChange={(v) => set({ coordinatorName: v })} error={errors.coordinatorName} required />
            <TextInput name="coordinatorPhone" type="tel" label={t('plan.coordinatorPhone')} value={form.coordinatorPhone} onChange={(v) => set({ coordinatorPhone: v })} />
            <TextInput name="islamicAffairsExpert" label={t('plan.islamicAffairsExpert')} value={form.islamicAffairsExpert} onChange={(v) => set({ islamicAffairsExpert: v })} error={errors.islamicAffairsExpert} required />
            <SelectInput
              name="teamLeaderUserId"
              label={t('plan.teamLeader')}
              value={form.teamLeaderUserId}
              onChange={(v) => set({ teamLeaderUserId: v })}
              options={leaders.map((u) => ({ value: u.id, label: u.name }))}
              placeholder={t('assign.choose')}
              error={errors.teamLeaderUserId}
              required
            />
            <Stack gap="2">
              <Text fontWeight="medium">{t('plan.technicalAuditors')}</Text>
              {auditors
                .filter((u) => u.id !== form.teamLeaderUserId)
                .map((u) => (
                  <CheckInput
                    key={u.id}
                    name={`auditor-${u.userName}`}
                    label={u.name}
                    checked={form.technicalAuditorUserIds.includes(u.id)}
                    onChange={(c) =>
                      set({ technicalAuditorUserIds: c ? [...form.technicalAuditorUserIds, u.id] : form.technicalAuditorUserIds.filter((x) => x !== u.id) })
                    }
                  />
                ))}
            </Stack>
            <Box gridColumn={{ md: 'span 2' }}>
              <TextInput name="notesForCommittee" label={t('plan.notesForCommittee')} value={form.notesForCommittee} onChange={(v) => set({ notesForCommittee: v })} multiline />
            </Box>
          </SimpleGrid>
        )}
        {current === 'dates' && (
          <Stack gap="4">
            {errors.days && <Text color="fg.error">{messageText(t, errors.days)}</Text>}
            {form.days.map((d, i) => (
              <SimpleGrid key={i} columns={{ base: 2, md: 5 }} gap="3" alignItems="end" data-testid="plan-day">
                <TextInput name={`days.${i}.date`} type="date" label={t('plan.date')} value={d.date} onChange={(v) => setDay(i, { date: v })} error={errors[`days.${i}.date`]} required />
                <TextInput name={`days.${i}.hour`} type="number" label={t('plan.hour')} value={d.hour} onChange={(v) => setDay(i, { hour: v })} error={errors[`days.${i}.hour`]} required />
                <TextInput name={`days.${i}.minute`} type="number" label={t('plan.minute')} value={d.minute} onChange={(v) => setDay(i, { minute: v })} error={errors[`days.${i}.minute`]} required />
                <SelectInput
                  name={`days.${i}.period`}
                  label={t('plan.period')}
                  value={d.period}
                  onChange={(v) => setDay(i, { period: v === 'pm' ? 'pm' : 'am' })}
                  options={[
                    { value: 'am', label: t('plan.am') },
                    { value: 'pm', label: t('plan.pm') },
                  ]}
                />
                <Button variant="ghost" colorPalette="red" onClick={() => set({ days: form.days.filter((_, j) => j !== i) })}>
                  {t('wizard.remove')}
                </Button>
              </SimpleGrid>
            ))}
            <Button alignSelf="start" variant="outline" onClick={() => set({ days: [...form.days, emptyDay()] })} data-testid="plan-add-day">
              {t('plan.addDate')}
            </Button>
          </Stack>
        )}
        {current === 'timeline' && (
          <Stack gap="5">
            {errors.timeline && <Text color="fg.error" data-testid="plan-timeline-error">{messageText(t, errors.timeline)}</Text>}
            {form.days.map((d, i) => (
              <Box key={i} borderWidth="1px" borderRadius="md" p="3">
                <Heading as="h4" size="sm" mb="2">
                  {d.date} — {d.hour}:{d.minute.padStart(2, '0')} {t(`plan.${d.period}`)}
                </Heading>
                <TextInput name={`days.${i}.activity`} label={t('plan.activity')} value={d.activity} onChange={(v) => setDay(i, { activity: v })} error={errors[`days.${i}.activity`]} required />
                <Flex gap="4" mt="2" wrap="wrap">
                  {team.map((id) => (
                    <CheckInput
                      key={id}
                      name={`day-${i}-auditor-${id}`}
                      label={names.get(id) ?? id}
                      checked={d.auditorUserIds.includes(id)}
                      onChange={(c) => setDay(i, { auditorUserIds: c ? [...d.auditorUserIds, id] : d.auditorUserIds.filter((x) => x !== id) })}
                    />
                  ))}
                </Flex>
              </Box>
            ))}
          </Stack>
        )}
        {current === 'attendees' && (
          <Stack gap="4">
            {form.attendees.map((a, i) => (
              <SimpleGrid key={i} columns={{ base: 1, md: 5 }} gap="3" alignItems="end">
                <TextInput name={`attendees.${i}.firstName`} label={t('plan.firstName')} value={a.firstName} onChange={(v) => setAttendee(i, { firstName: v })} error={errors[`attendees.${i}.firstName`]} required />
                <TextInput name={`attendees.${i}.lastName`} label={t('plan.lastName')} value={a.lastName} onChange={(v) => setAttendee(i, { lastName: v })} error={errors[`attendees.${i}.lastName`]} required />
                <TextInput name={`attendees.${i}.jobRole`} label={t('plan.jobRole')} value={a.jobRole} onChange={(v) => setAttendee(i, { jobRole: v })} error={errors[`attendees.${i}.jobRole`]} required />
                <TextInput name={`attendees.${i}.phone`} type="tel" label={t('plan.phone')} value={a.phone} onChange={(v) => setAttendee(i, { phone: v })} />
                <Button variant="ghost" colorPalette="red" onClick={() => set({ attendees: form.attendees.filter((_, j) => j !== i) })}>
                  {t('wizard.remove')}
                </Button>
              </SimpleGrid>
            ))}
            <Button
              alignSelf="start"
              variant="outline"
              onClick={() => set({ attendees: [...form.attendees, { firstName: '', lastName: '', jobRole: '', phone: '' }] })}
              data-testid="plan-add-attendee"
            >
              {t('plan.addAttendee')}
            </Button>
          </Stack>
        )}
        {current === 'summary' && (
          <Stack gap="3" data-testid="plan-summary">
            <Text>
              <b>{t('plan.visitGoal')}:</b> {form.visitGoal}
            </Text>
            <Text>
              <b>{t('plan.teamLeader')}:</b> {names.get(form.teamLeaderUserId)}
            </Text>
            <Text>
              <b>{t('plan.technicalAuditors')}:</b> {form.technicalAuditorUserIds.map((id) => names.get(id)).join(listSeparator())}
            </Text>
            {form.days.map((d, i) => (
              <Text key={i}>
                {d.date} {d.hour}:{d.minute.padStart(2, '0')} {t(`plan.${d.period}`)} — {d.activity}
                {d.auditorUserIds.length > 0 && ` (${d.auditorUserIds.map((id) => names.get(id)).join(listSeparator())})`}
              </Text>
            ))}
            <Text>
              <b>{t('plan.attendees')}:</b> {form.attendees.map((a) => `${a.firstName} ${a.lastName}`).join(listSeparator()) || '—'}
            </Text>
            {revising && (
              <Stack gap="3" mt="3">
                <TextInput name="changeReason" label={t('plan.changeReason')} value={form.changeReason} onChange={(v) => set({ changeReason: v })} error={errors.changeReason} required />
                <TextInput name="changeDescription" label={t('plan.changeDescription')} value={form.changeDescription} onChange={(v) => set({ changeDescription: v })} error={errors.changeDescription} required multiline />
              </Stack>
            )}
          </Stack>
        )}
      </Box>
    </FormDialog>
  );
}
