import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Box, Button, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { INTERNAL_REQUEST_STEPS, internalRequestForm, type InternalRequestStep } from '../../../../machines/forms';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { messageText, validationSaid, type Said } from '../../components/form/validation-messages';
import { apiQuery, useApi } from '../../api/query';
import { useRouteParams } from '../../route-params';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { notify } from '../../components/toaster';
import { sectionsOf } from '../../../../machines/sections';
import { RequestDataView } from '../requests/RequestDataView';
import { requestQueries, sendEvent, useReadAgainOnNewVersion, type RequestDetail } from '../requests/requests-api';
import { AttachmentNames, useRequestAttachments } from '../requests/attachment-names';
import { ltr } from '../../components/Bidi';
import { CHAT_CLEARANCE } from '../../components/chat/clearance';
import { WizardSteps } from '../../components/WizardSteps';
import { facilityRequestsPath } from '../services/links';
import { issuesToErrors, refusalMessages, serverErrors, type Errors } from '../../components/form/wizard-errors';
import { WizardStep } from './WizardStep';
import { listSeparator } from '../../i18n';

const STEPS = [...INTERNAL_REQUEST_STEPS, 'summary'] as const;
// The wizard's steps are the request's sections (machines/services); the agreement is ticked on submission only.
const formToSections = ({ agreement: _agreement, ...sections }: Record<string, unknown>) => sections;
const sectionsToForm = (data: Record<string, unknown>) => ({ ...data });
const sectionOfStep = (step: string) => step;
type Step = (typeof STEPS)[number];

/**
 * A step left empty reports itself as one issue ("required"); each field it needs is named instead, so every
 * missing input is highlighted, not only a message above them.
 */
function stepIssues(step: InternalRequestStep, form: Record<string, unknown>): { path: string; message: string }[] {
  const issues = internalRequestForm.validateStep(step, form);
  const whole = issues.length === 1 && issues[0]!.path === step;
  if (!whole || (form[step] !== undefined && (typeof form[step] !== 'object' || Array.isArray(form[step])))) return issues;
  const fields = internalRequestForm.validateStep(step, { ...form, [step]: { ...((form[step] as object | undefined) ?? {}) } });
  return fields.length && fields.every((i) => i.path.startsWith(`${step}.`)) ? [...issues, ...fields] : issues;
}

/**
 * The internal facility Halal certificate request wizard (issue 5): a step per part of the form, saved as a draft at
 * any step (the draft shows the days left before its automatic deletion; deleting asks first), a summary, and
 * submission. A returned request opens with only the returned sections editable.
 */
export function InternalRequestWizard() {
  const { requestId } = useRouteParams('internal-halal-request/$requestId');
  const search = useSearch({ strict: false }) as { step?: string };
  const navigate = useNavigate();
  const { t } = useTranslation(['requests', 'shell', 'validation']);
  const queries = requestQueries(requestId);
  const deletionQuery = apiQuery('/api/internal-requests/{id}/deletion', { params: { path: { id: requestId } } });
  const request = useApi(queries.request);
  const actions = useApi(queries.actions);
  const deletion = useApi(deletionQuery);
  const [form, setForm] = useState<Record<string, unknown> | null>(null);
  const [stepIndex, setStepIndex] = useState(() => Math.max(0, STEPS.indexOf((search.step ?? 'factory') as Step)));
  const [openedAtReturn, setOpenedAtReturn] = useState(!!search.step);
  const files = useRequestAttachments(request.data?.facilityId, request.data?.id);
  const history = useApi(queries.history, { enabled: (request.data?.context.returnedSections?.length ?? 0) > 0 });
  useReadAgainOnNewVersion(request.data?.version, [queries.actions, queries.history, deletionQuery]);
  // The version the next save expects: uploads and removals save at once, faster than the page re-renders.
  const versionRef = useRef<number | null>(null);
  if (request.data && (versionRef.current === null || request.data.version > versionRef.current)) versionRef.current = request.data.version;
  const [errors, setErrors] = useState<Errors>({});
  const [dirty, setDirty] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [serverMessages, setServerMessages] = useState<Said[]>([]);

  const r = request.data;
  useEffect(() => {
    if (r && form === null) setForm({ branches: { hasBranches: false, items: [] }, ...sectionsToForm(r.data) });
  }, [r, form]);

  // A returned request opens at the first section the registration returned (spec 02: only those are editable).
  const firstReturned = r?.context.returnedSections?.length ? STEPS.findIndex((s) => r.context.returnedSections!.includes(s) || (s === 'products' && r.context.returnedSections!.includes('productUpload'))) : -1;
  useEffect(() => {
    if (!openedAtReturn && firstReturned >= 0) {
      setStepIndex(firstReturned);
      setOpenedAtReturn(true);
    }
  }, [firstReturned, openedAtReturn]);

  const lastReturn = [...(history.data?.items ?? [])].reverse().find((h) => h.event === 'RETURN');
  const returnNote = lastReturn ? (lastReturn.note ?? (typeof lastReturn.payload.reason === 'string' ? lastReturn.payload.reason : null)) : null;

  const allowed = new Set((actions.data?.actions ?? []).map((a) => a.type));
  const canEdit = allowed.has('EDIT');
  const returned = r?.context.returnedSections ?? [];
  const editableStep = (s: InternalRequestStep) =>
    canEdit && (returned.length === 0 || returned.includes(sectionOfStep(s)) || (s === 'products' && returned.includes('productUpload')) || s === 'agreement');
  const step = STEPS[stepIndex]!;
  const editableSteps = INTERNAL_REQUEST_STEPS.filter((s) => s !== 'agreement' && editableStep(s));

  if (!r || !form) return <PageContainer>{null}</PageContainer>;

  const save = async (override: Record<string, unknown> = {}): Promise<RequestDetail | null> => {
    if (!canEdit || editableSteps.length === 0) return r;
    const current = { ...form, ...override };
    const part = Object.fromEntries(editableSteps.filter((s) => current[s] !== undefined).map((s) => [s, current[s]]));
    if (Object.keys(part).length === 0) return r;
    try {
      const saved = await data(
        api.PUT('/api/internal-requests/{id}/draft', { params: { path: { id: r.id } }, body: { expectedVersion: versionRef.current ?? r.version, form: part }, handleErrors: [400] }),
      );
      versionRef.current = saved.version;
      setDirty(false);
      await request.refetch();
      return saved;
    } catch (e) {
      const fields = serverErrors(e);
      setErrors(fields);
      if (e instanceof ApiError) setServerMessages(e.validationErrors.map(validationSaid));
      return null;
    }
  };

  const goTo = async (index: number) => {
    if (index > stepIndex && step !== 'summary' && editableStep(step)) {
      const issues = stepIssues(step, form);
      if (issues.length) {
        setErrors(issuesToErrors(issues));
        return;
      }
      if (dirty && step !== 'agreement' && !(await save())) return;
    }
    setErrors({});
    setServerMessages([]);
    setStepIndex(index);
  };

  const submit = async () => {
    const agreement = form.agreement as { accepted?: boolean } | undefined;
    const check = internalRequestForm.validateSubmit(form);
    if (!check.success) {
      setErrors(issuesToErrors(check.issues));
      const first = STEPS.findIndex((s) => check.issues.some((i) => i.path === s || i.path.startsWith(`${s}.`)));
      if (first >= 0) setStepIndex(first);
      return;
    }
    if (dirty && !(await save())) return;
    const latest = await data(api.GET('/api/requests/{id}', { params: { path: { id: r.id } } }));
    try {
      await api.POST('/api/internal-requests/{id}/submit', {
        params: { path: { id: r.id } },
        body: { expectedVersion: latest.version, agreementAccepted: agreement?.accepted === true },
        handleErrors: [400],
      });
    } catch (e) {
      setErrors(serverErrors(e));
      setServerMessages(refusalMessages(e));
      return;
    }
    notify.success(t('requests:wizard.submitted'));
    await navigate({ to: '/requests/$requestId', params: { requestId: r.id } });
  };

  const remove = async () => {
    await sendEvent(r.id, 'DELETE', r.version, { confirmed: true });
    notify.success(t('requests:wizard.deleted'));
    await navigate({ to: facilityRequestsPath(r.facilityId) });
  };

  const canSubmit = allowed.has('SUBMIT') || allowed.has('RESUBMIT');
  /** Stores a step's new value at once (uploads and removals), then refreshes the file list. */
  const persist = async (value: unknown) => {
    setForm((f) => ({ ...f, [step]: value }));
    await save({ [step]: value });
    await files.reload();
  };
  return (
    <PageContainer>
      <PageHeader
        title={t('requests:wizard.title', { number: ltr(r.number) })}
        breadcrumbs={[{ label: t('requests:list.facilityTitle'), to: facilityRequestsPath(r.facilityId) }, { label: ltr(r.number) }]}
        description={
          <Flex gap="3" mt="2" align="center" wrap="wrap">
            <Badge colorPalette="brand" data-testid="request-status">{r.status.label}</Badge>
            {deletion.data?.daysLeft !== null && deletion.data?.daysLeft !== undefined && (
              <Badge colorPalette="orange" data-testid="days-left">
                {t('requests:wizard.daysLeft', { count: deletion.data.daysLeft })}
              </Badge>
            )}
            {returned.length > 0 && (
              <Text color="orange.fg" data-testid="returned-sections">
                {t('requests:page.returnedSections', { sections: returned.map((s) => t(`requests:sections.${s}`)).join(listSeparator()) })}
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
        steps={STEPS.map((s) => ({ key: s, title: t(`requests:steps.${s}`), returned: returned.includes(s) }))}
        current={stepIndex}
        onGo={(i) => void goTo(i)}
      />
      <Box borderWidth="1px" borderRadius="lg" p={{ base: '4', md: '6' }} data-testid={`wizard-step-${step}`}>
        <Heading as="h2" size="lg" mb="4">
          {t(`requests:steps.${step}`)}
          {step !== 'summary' && !editableStep(step) && (
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
            {Object.keys(errors).length > 0 && <Text color="fg.error">{t('requests:wizard.fixErrors')}</Text>}
            <AttachmentNames.Provider value={files.map}>
              <RequestDataView data={formToSections(form)} baseline={null} order={sectionsOf('internalCertificate')} />
            </AttachmentNames.Provider>
          </Stack>
        ) : (
          <WizardStep
            step={step}
            form={form}
            setStep={(v) => {
              setForm((f) => ({ ...f, [step]: v }));
              setDirty(true);
            }}
            errors={errors}
            readOnly={!editableStep(step)}
            facilityPublicId={r.facilityId}
            requestId={r.id}
            files={files.map}
            persist={persist}
          />
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
