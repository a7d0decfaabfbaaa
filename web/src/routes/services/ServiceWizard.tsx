import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Badge, Box, Button, Checkbox, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { SERVICES, validateStep, validateSubmission, type RequestKind } from '../../../../machines/services';
import { api, data } from '../../api/client';
import { apiQuery, useApi } from '../../api/query';
import { useRouteParams } from '../../route-params';
import { ltr } from '../../components/Bidi';
import { CHAT_CLEARANCE } from '../../components/chat/clearance';
import { WizardSteps } from '../../components/WizardSteps';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormField } from '../../components/form/FormField';
import { describeSchema } from '../../components/form/schema-fields';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { notify } from '../../components/toaster';
import { AttachmentNames, useRequestAttachments } from '../requests/attachment-names';
import { FeePreview } from './FeePreview';
import { FactoryPrefill } from './FactoryPrefill';
import { RequestDataView } from '../requests/RequestDataView';
import { requestQueries, sendEvent, useReadAgainOnNewVersion, type EventBody } from '../requests/requests-api';
import { distinctMessages, generalMessages, issuesToErrors, refusalMessages, serverErrors, type Errors } from '../../components/form/wizard-errors';
import { messageText, type Said } from '../../components/form/validation-messages';
import { runStepChecks, StepCheckPanels } from './step-checks';
import { WizardStep } from '../internal-request/WizardStep';
import { facilityRequestsPath } from './links';
import { SchemaFields } from './SchemaFields';
import { specialStepOf, attachmentRulesOf, factoryTypeOf, sectionPrefillOf, untouchedValueOf } from './wizard-sections';
import { listSeparator } from '../../i18n';
import type { NoticeMessage } from '../requests/notices';

/**
 * requests/{id}/edit: the wizard of every request kind. One step per section of the service definition
 * (machines/services), its inputs generated from the section's schema (or the internal certificate form's component
 * of the same section, wizard-sections.ts), then a summary with the fees and, on first submission, the agreement.
 * Drafts are saved with EDIT, each step is checked with the section's submission rules (and the cross rules it
 * completes) on "Next", and SUBMIT / RESUBMIT send it. A returned request opens at its returned sections, only those
 * editable. Every button comes from the machine's allowed actions.
 */
export function ServiceWizard() {
  const { requestId } = useRouteParams('requests/$requestId/edit');
  // The request page's SUBMIT / RESUBMIT opens the summary (`?step=summary`).
  const search = useSearch({ strict: false }) as { step?: string };
  const navigate = useNavigate();
  const { t } = useTranslation(['requests', 'shell', 'validation', 'services']);
  const queries = requestQueries(requestId);
  const deletionQuery = apiQuery('/api/requests/{id}/deletion', { params: { path: { id: requestId } } });
  const request = useApi(queries.request);
  const r = request.data;
  const def = r ? SERVICES[r.kind as RequestKind] : undefined;
  const actions = useApi(queries.actions);
  const deletion = useApi(deletionQuery);
  const returned = useMemo(() => r?.context.returnedSections ?? [], [r]);
  const history = useApi(queries.history, { enabled: returned.length > 0 });
  useReadAgainOnNewVersion(r?.version, [queries.actions, queries.history, deletionQuery]);
  const files = useRequestAttachments(r?.facilityId, r?.id);
  const sections = useMemo(() => (def ? Object.keys(def.sections) : []), [def]);
  const steps = useMemo(() => [...sections, 'summary'], [sections]);
  const nodes = useMemo(() => (def ? Object.fromEntries(sections.map((s) => [s, describeSchema(def.sections[s]!.complete)])) : {}), [def, sections]);
  const [form, setForm] = useState<Record<string, unknown> | null>(null);
  const [stepIndex, setStepIndex] = useState(0);
  const [openedAtReturn, setOpenedAtReturn] = useState(false);
  const [openedAtStep, setOpenedAtStep] = useState(!search.step);
  const [errors, setErrors] = useState<Errors>({});
  const [dirty, setDirty] = useState(false);
  const [agreement, setAgreement] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [serverMessages, setServerMessages] = useState<Said[]>([]);
  const versionRef = useRef<number | null>(null);
  if (r && (versionRef.current === null || r.version > versionRef.current)) versionRef.current = r.version;

  useEffect(() => {
    if (r && form === null) setForm({ ...r.data });
  }, [r, form]);

  useEffect(() => {
    if (!openedAtStep && steps.length > 1 && steps.includes(search.step!)) {
      setStepIndex(steps.indexOf(search.step!));
      setOpenedAtStep(true);
      setOpenedAtReturn(true);
    }
  }, [openedAtStep, steps, search.step]);

  const firstReturned = returned.length ? steps.findIndex((s) => returned.includes(s)) : -1;
  useEffect(() => {
    if (!openedAtReturn && firstReturned >= 0) {
      setStepIndex(firstReturned);
      setOpenedAtReturn(true);
    }
  }, [firstReturned, openedAtReturn]);

  const allowed = new Set((actions.data?.actions ?? []).map((a) => a.type));
  const canEdit = allowed.has('EDIT');
  const editable = (s: string) => canEdit && s !== 'summary' && (returned.length === 0 || returned.includes(s));
  const editableSections = sections.filter(editable);

  if (!r || !form || !def) return <PageContainer>{null}</PageContainer>;
  const step = steps[stepIndex]!;
  const title = t(def.titleKey);

  const save = async (override: Record<string, unknown> = {}): Promise<boolean> => {
    if (!canEdit) return true;
    const current = { ...form, ...override };
    const part = Object.fromEntries(editableSections.filter((s) => current[s] !== undefined).map((s) => [s, current[s]]));
    if (Object.keys(part).length === 0) return true;
    try {
      const body = { type: 'EDIT', expectedVersion: versionRef.current ?? r.version, payload: { data: part } } as EventBody;
      const saved = await data(api.POST('/api/requests/{id}/events', { params: { path: { id: r.id } }, body, handleErrors: [400] }));
      versionRef.current = saved.version;
      setDirty(false);
      await request.refetch();
      return true;
    } catch (e) {
      setErrors(serverErrors(e));
      setServerMessages(generalMessages(e));
      return false;
    }
  };

  /**
   * The step's problems. A step left empty reports itself as one issue ("required"); each field it needs is named
   * instead, so every missing input is marked, not only a message above them.
   */
  const stepIssues = (section: string) => {
    const issues = validateStep(def, section, form);
    const node = nodes[section];
    if (form[section] !== undefined || node?.kind !== 'object' || !(issues.length === 1 && issues[0]!.path === section)) return issues;
    const fields = validateStep(def, section, { ...form, [section]: {} });
    return fields.length && fields.every((i) => i.path.startsWith(`${section}.`)) ? [...issues, ...fields] : issues;
  };

  const goTo = async (index: number) => {
    if (index > stepIndex && editable(step)) {
      // A step left untouched holds what it shows (attachments none of which is required: an empty list; branches:
      // none), stored as such where its rules accept it, not "required".
      const shown = form[step] === undefined ? untouchedValueOf(def, step) : undefined;
      const untouched = shown !== undefined && validateStep(def, step, { ...form, [step]: shown }).length === 0;
      const issues = untouched ? [] : stepIssues(step);
      if (issues.length) {
        setErrors(issuesToErrors(issues));
        // A rule across sections may name a field of another step ("at least one product or slaughter"): said here.
        const elsewhere = issues.filter((i) => i.path !== step && !i.path.startsWith(`${step}.`));
        setServerMessages(distinctMessages(elsewhere.map((i) => ({ key: i.message, params: i.params }))));
        return;
      }
      // The server checks the section declares for its step (the package within the limits, the importer the
      // registry's): the applicant stays here with each field's message, not only at submission.
      const refused = await runStepChecks(def, step, form);
      if (refused) {
        setErrors(refused.errors);
        setServerMessages(refused.messages);
        return;
      }
      if (untouched) {
        setForm((f) => ({ ...f, [step]: shown }));
        if (!(await save({ [step]: shown }))) return;
      } else if (dirty && !(await save())) return;
    }
    setErrors({});
    setServerMessages([]);
    setStepIndex(index);
  };

  const submit = async () => {
    const check = validateSubmission(def, form);
    if (!check.ok) {
      setErrors(issuesToErrors(check.issues));
      const first = steps.findIndex((s) => check.issues.some((i) => i.path === s || i.path.startsWith(`${s}.`)));
      if (first >= 0) setStepIndex(first);
      return;
    }
    if (dirty && !(await save())) return;
    const type = allowed.has('RESUBMIT') ? 'RESUBMIT' : 'SUBMIT';
    if (type === 'SUBMIT' && !agreement) {
      setErrors({ agreement: { key: 'agreementRequired' } });
      return;
    }
    const latest = await data(api.GET('/api/requests/{id}', { params: { path: { id: r.id } } }));
    let notices: NoticeMessage[] = [];
    try {
      const body = { type, expectedVersion: latest.version, payload: type === 'SUBMIT' ? { agreementAccepted: true } : {} } as EventBody;
      notices = (await data(api.POST('/api/requests/{id}/events', { params: { path: { id: r.id } }, body, handleErrors: [400] }))).noticeMessages ?? [];
    } catch (e) {
      const fields = serverErrors(e);
      setErrors(fields);
      const first = steps.findIndex((s) => Object.keys(fields).some((k) => k === s || k.startsWith(`${s}.`)));
      if (first >= 0 && first !== stepIndex) setStepIndex(first);
      setServerMessages(refusalMessages(e));
      return;
    }
    notify.success(t('requests:wizard.submitted'));
    // The request page opens with the confirmation: the request number, what happens next, and what the server changed
    // on the way (products already on the certificate left out). The notices ride in the history entry as message keys:
    // a reload keeps them, and the page shows them in the language it is read in.
    await navigate({ to: '/requests/$requestId', params: { requestId: r.id }, search: { submitted: 1 } as never, state: (s) => ({ ...s, notices }) });
  };

  const remove = async () => {
    await sendEvent(r.id, 'DELETE', versionRef.current ?? r.version, { confirmed: true });
    notify.success(t('requests:wizard.deleted'));
    await navigate({ to: facilityRequestsPath(r.facilityId) });
  };

  const setSection = (v: unknown) => {
    setForm((f) => ({ ...f, [step]: v }));
    setDirty(true);
  };
  /** Uploads and removals of the reused attachment step are stored at once. */
  const persist = async (value: unknown) => {
    setForm((f) => ({ ...f, [step]: value }));
    await save({ [step]: value });
    await files.reload();
  };
  const lastReturn = [...(history.data?.items ?? [])].reverse().find((h) => h.event === 'RETURN');
  const returnNote = lastReturn ? (lastReturn.note ?? (typeof lastReturn.payload.reason === 'string' ? lastReturn.payload.reason : null)) : null;
  const canSubmit = allowed.has('SUBMIT') || allowed.has('RESUBMIT');
  const readOnly = !editable(step);
  const special = step !== 'summary' ? specialStepOf(def, step) : null;
  const stepTitle = (s: string) => t(`requests:steps.${s}`);

  return (
    <PageContainer>
      <PageHeader
        title={`${title} ${ltr(r.number)}`}
        breadcrumbs={[{ label: t('requests:list.facilityTitle'), to: facilityRequestsPath(r.facilityId) }, { label: ltr(r.number) }]}
        description={
          <Flex gap="3" mt="2" align="center" wrap="wrap">
            <Badge colorPalette="brand" data-testid="request-status" data-code={r.status.code}>
              {r.status.label}
            </Badge>
            {deletion.data?.daysLeft !== null && deletion.data?.daysLeft !== undefined && (
              <Badge colorPalette="orange" data-testid="days-left">
                {t('requests:wizard.daysLeft', { count: deletion.data.daysLeft })}
              </Badge>
            )}
            {returned.length > 0 && (
              <Text color="orange.fg" data-testid="returned-sections">
                {t('requests:page.returnedSections', { sections: returned.map((s) => stepTitle(s)).join(listSeparator()) })}
              </Text>
            )}
          </Flex>
        }
        actions={
          <>
            {canEdit && (
              <Button variant="outline" onClick={() => void save().then((ok) => ok && notify.success(t('requests:wizard.saved')))} data-testid="save-draft">
                {t('requests:wizard.saveDraft')}
              </Button>
            )}
            {allowed.has('DELETE') && (
              <Button variant="outline" colorPalette="red" onClick={() => setConfirmDelete(true)} data-testid="delete-draft">
                {t('requests:wizard.deleteDraft')}
              </Button>
            )}
            <Button variant="ghost" onClick={() => void navigate({ to: '/requests/$requestId', params: { requestId: r.id } })} data-testid="open-request">
              {t('requests:wizard.openRequest')}
            </Button>
          </>
        }
      />
      {returned.length > 0 && returnNote && (
        <Alert.Root status="warning" mb="4" data-testid="return-note">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('requests:wizard.returnNote')}</Alert.Title>
            <Alert.Description whiteSpace="pre-wrap">{returnNote}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <WizardSteps
        mb="6"
        steps={steps.map((s) => ({ key: s, title: stepTitle(s), returned: returned.includes(s) }))}
        current={stepIndex}
        onGo={(i) => void goTo(i)}
      />
      <Box borderWidth="1px" borderRadius="lg" p={{ base: '4', md: '6' }} data-testid={`wizard-step-${step}`}>
        <Heading as="h2" size="lg" mb="4">
          {stepTitle(step)}
          {step !== 'summary' && readOnly && (
            <Badge ms="3" variant="outline">
              {t('requests:wizard.readOnly')}
            </Badge>
          )}
        </Heading>
        {serverMessages.length > 0 && (
          <Stack mb="4" gap="1" data-testid="server-errors">
            {serverMessages.map((m, i) => (
              <Text key={i} color="fg.error">
                {messageText(t, m)}
              </Text>
            ))}
          </Stack>
        )}
        {step === 'summary' ? (
          <Stack gap="4">
            {Object.keys(errors).some((k) => k !== 'agreement') && <Text color="fg.error">{t('requests:wizard.fixErrors')}</Text>}
            <AttachmentNames.Provider value={files.map}>
              <RequestDataView data={form} baseline={null} order={sections} facilityNames={r?.facilityNames} />
            </AttachmentNames.Provider>
            <FeePreview requestId={r.id} version={r.version} />
            {allowed.has('SUBMIT') && (
              <Stack gap="3" borderTopWidth="1px" pt="4">
                <Text>{t('requests:wizard.agreementText')}</Text>
                <FormField label={t('requests:wizard.agreementLabel')} required error={errors.agreement}>
                  <Checkbox.Root checked={agreement} onCheckedChange={(e) => setAgreement(!!e.checked)} data-testid="agreement">
                    <Checkbox.HiddenInput name="agreement.accepted" />
                    <Checkbox.Control />
                    <Checkbox.Label>{t('requests:wizard.agreementLabel')}</Checkbox.Label>
                  </Checkbox.Root>
                </FormField>
              </Stack>
            )}
          </Stack>
        ) : special ? (
          <WizardStep
            step={special}
            form={form}
            setStep={setSection}
            errors={errors}
            readOnly={readOnly}
            facilityPublicId={r.facilityId}
            requestId={r.id}
            files={files.map}
            persist={persist}
            attachmentRules={attachmentRulesOf(def.kind)}
          />
        ) : (
          <>
          {sectionPrefillOf(def, step) === 'facilityRecord' && nodes[step]?.kind === 'object' && (
            <FactoryPrefill value={form[step] as Record<string, unknown> | undefined} fields={nodes[step].fields.map((f) => f.name)} onChange={setSection} readOnly={readOnly} />
          )}
          <StepCheckPanels def={def} section={step} form={form} onChange={setSection} readOnly={readOnly} />
          <SchemaFields
            node={nodes[step]!}
            path={step}
            value={form[step]}
            onChange={setSection}
            name={step}
            ctx={{
              section: step,
              facilityPublicId: r.facilityId,
              requestId: r.id,
              fileName: (id) => files.map.get(id)?.name,
              factoryType: factoryTypeOf(def.kind),
              readOnly,
              errors,
            }}
          />
          </>
        )}
      </Box>
      <Flex justify="space-between" mt="6" gap="3" pe={CHAT_CLEARANCE} data-testid="wizard-nav">
        <Button variant="outline" disabled={stepIndex === 0} onClick={() => void goTo(stepIndex - 1)} data-testid="wizard-back">
          {t('requests:wizard.back')}
        </Button>
        {step === 'summary' ? (
          canSubmit && (
            <Button colorPalette="brand" onClick={() => void submit()} data-testid="wizard-submit">
              {allowed.has('RESUBMIT') ? t('requests:wizard.resubmit') : t('requests:wizard.submit')}
            </Button>
          )
        ) : (
          <Button colorPalette="brand" onClick={() => void goTo(stepIndex + 1)} data-testid="wizard-next">
            {t('requests:wizard.next')}
          </Button>
        )}
      </Flex>
      <ConfirmDialog
        open={confirmDelete}
        testId="delete-dialog"
        tone="danger"
        title={t('requests:wizard.deleteDraft')}
        message={t('requests:wizard.deleteConfirm')}
        confirmLabel={t('requests:wizard.deleteDraft')}
        onConfirm={remove}
        onCancel={() => setConfirmDelete(false)}
      />
    </PageContainer>
  );
}
