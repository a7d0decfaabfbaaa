import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, Checkbox, DataList, Flex, Heading, Input, NativeSelect, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { ApiError, refusalOf } from '../../api/errors';
import { apiQuery, useApi } from '../../api/query';
import type { operations } from '../../api/schema.gen';
import { useRouteParams } from '../../route-params';
import { FactsList } from '../../components/FactsList';
import { WizardSteps } from '../../components/WizardSteps';
import { FormField } from '../../components/form/FormField';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { isNationalOrResidentId, normalizePhone } from '../../../../machines/forms/facilities/formats';
import type { DelegateLookup, Delegation } from './facilities-api';
import { nameIn, permissionKey } from './labels';
import { listSeparator } from '../../i18n';
import { messageText, validationSaid, type FieldMessage, type Said } from '../../components/form/validation-messages';
import { ltr } from '../../components/Bidi';

type Kind = 'cb' | 'internal';
const GROUP = {
  cb: {
    authority: '/api/ConformityBodyDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/{id}',
    profile: (id: string) => `/facility-profile/cb/${encodeURIComponent(id)}`,
    type: 'ConformityBody' as const,
  },
  internal: {
    authority: '/api/InternalFacilityDelegation/ValidateIfCurrentUserHasAuthorityToAddDelegation/{id}',
    profile: (id: string) => `/facility-profile/internal/${encodeURIComponent(id)}`,
    type: 'InternalFacility' as const,
  },
} as const;

/** What the delegation calls take at each step (the CB and facility calls take the same). */
type DelegationBody = operations['postInternalFacilityDelegationSubmitFacilityDelegationRequest']['requestBody']['content']['application/json'];

export const CbDelegationPage = () => <DelegationWizard kind="cb" publicId={useRouteParams('cb-delegation/$cbPublicId').cbPublicId} />;
export const InternalDelegationPage = () => <DelegationWizard kind="internal" publicId={useRouteParams('internal-delegation/$facilityPublicId').facilityPublicId} />;

interface Details {
  firstName: string;
  lastName: string;
  birthDate: string;
  phone: string;
  preferredLanguage: 'ar' | 'en';
  email: string;
}
const EMPTY: Details = { firstName: '', lastName: '', birthDate: '', phone: '', preferredLanguage: 'ar', email: '' };
const STEPS = ['delegate', 'details', 'permissions', 'confirm', 'acknowledge'] as const;

/** Seconds from now until an ISO time (0 when passed), ticking every second while mounted. */
function useSecondsUntil(iso: string | undefined): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!iso) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [iso]);
  return iso ? Math.max(0, Math.ceil((Date.parse(iso) - now) / 1000)) : 0;
}

/**
 * cb-delegation/{cbPublicId} and internal-delegation/{facilityPublicId} (main users only; the route guard asks the
 * server). Select the delegate by national or resident id, their details and permissions, confirm with the code
 * sent to the delegate's mobile, then acknowledge: only then is the delegation complete. Each step is a state of the
 * delegation's machine on the server (machines/delegation.ts). A facility has one main user, so a delegation is
 * always of a sub delegate (spec 02 section 6: "Sub delegate has all except delegation").
 */
function DelegationWizard({ kind, publicId }: { kind: Kind; publicId: string }) {
  const { t, i18n } = useTranslation('facilities');
  const g = GROUP[kind];
  // Independent reads, started together; the facility is read by the call of its kind.
  const cb = useApi(apiQuery('/api/ConformityBody/get/{id}', { params: { path: { id: publicId } } }), { enabled: kind === 'cb' });
  const internal = useApi(apiQuery('/api/Facility/GetFacilityByPublicId', { params: { query: { publicId } } }), { enabled: kind === 'internal' });
  const facility = kind === 'cb' ? cb : internal;
  const catalogue = useApi(apiQuery('/api/facility-catalogue'));
  // Both authority calls answer `true` or refuse with 400 (shown here).
  const authority = useApi(apiQuery(g.authority as (typeof GROUP)['internal']['authority'], { params: { path: { id: publicId } }, handleErrors: [400] }));

  const [step, setStep] = useState(0);
  const [nationalId, setNationalId] = useState('');
  const [lookup, setLookup] = useState<DelegateLookup | null>(null);
  const [details, setDetails] = useState<Details>(EMPTY);
  const [permissions, setPermissions] = useState<string[] | null>(null);
  const [delegation, setDelegation] = useState<Delegation | null>(null);
  const [code, setCode] = useState('');
  const [acknowledged, setAcknowledged] = useState(false);
  // Messages as keys, drawn in the language of the moment: a language switch redraws them.
  const [errors, setErrors] = useState<Record<string, FieldMessage>>({});
  const [failure, setFailure] = useState<Said | null>(null);
  const [pending, setPending] = useState(false);
  const resendIn = useSecondsUntil(delegation?.otp?.resendAvailableAt);
  const expiresIn = useSecondsUntil(delegation?.otp?.expiresAt);

  const allowed = catalogue.data?.delegablePermissions[g.type] ?? [];
  const chosen = permissions ?? allowed;

  /** Runs a call; a refusal the person can act on (400/409/429) is shown in the wizard, the rest by the shell. */
  async function call<T>(fn: () => Promise<T>): Promise<T | undefined> {
    setPending(true);
    setFailure(null);
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ApiError && [400, 409, 429].includes(e.status)) setFailure(e.validationErrors[0] ? validationSaid(e.validationErrors[0]) : refusalOf(e));
      // The server counted the wrong code: the attempts the wizard's own code check names follow its count.
      if (e instanceof ApiError && (e.code === 'OtpInvalid' || e.code === '1006')) {
        setDelegation((d) => (d?.otp ? { ...d, otp: { ...d.otp, attemptsLeft: e.code === '1006' ? 0 : Math.max(0, d.otp.attemptsLeft - 1) } } : d));
      }
      return undefined;
    } finally {
      setPending(false);
    }
  }
  const submit = (body: DelegationBody) =>
    call(() =>
      data(
        kind === 'cb'
          ? api.POST('/api/ConformityBodyDelegation/SubmitCBDelegationRequest', { body, handleErrors: [400, 409, 429] })
          : api.POST('/api/InternalFacilityDelegation/SubmitFacilityDelegationRequest', { body, handleErrors: [400, 409, 429] }),
      ),
    );

  const checkId = async () => {
    const id = nationalId.trim();
    if (!isNationalOrResidentId(id)) {
      setErrors({ nationalId: { key: 'errors:NationalIdInvalid' } });
      return;
    }
    setErrors({});
    const body = { facilityPublicId: publicId, nationalId: id };
    const found = await call(() =>
      data(
        kind === 'cb'
          ? api.POST('/api/ConformityBodyDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForCB', { body, handleErrors: [400] })
          : api.POST('/api/InternalFacilityDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForFacility', { body, handleErrors: [400] }),
      ),
    );
    if (!found) return;
    setLookup(found);
    if (found.user) setDetails({ ...EMPTY, firstName: found.user.firstName, lastName: found.user.lastName, preferredLanguage: found.user.preferredLanguage === 'en' ? 'en' : 'ar' });
    else setDetails(EMPTY);
  };

  const checkDetails = () => {
    const e: Record<string, FieldMessage> = {};
    const required = { key: 'required' };
    if (!details.firstName.trim()) e.firstName = required;
    if (!details.lastName.trim()) e.lastName = required;
    if (!details.birthDate) e.birthDate = required;
    else if (details.birthDate >= new Date().toISOString().slice(0, 10)) e.birthDate = { key: 'invalid' };
    if (!lookup?.exists) {
      if (!normalizePhone(details.phone)) e.phone = { key: 'errors:PhoneInvalid' };
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(details.email.trim())) e.email = { key: 'email' };
    }
    setErrors(e);
    if (Object.keys(e).length === 0) setStep(2);
  };

  const sendCode = async () => {
    const d = await submit({
      step: 'start',
      facilityPublicId: publicId,
      delegate: {
        nationalId: nationalId.trim(),
        firstName: details.firstName.trim(),
        lastName: details.lastName.trim(),
        birthDate: details.birthDate,
        preferredLanguage: details.preferredLanguage,
        ...(lookup?.exists ? {} : { phone: details.phone.trim(), email: details.email.trim() }),
      },
      delegationType: 1,
      permissions: chosen,
    });
    if (d) {
      setDelegation(d);
      setCode('');
    }
  };
  const resend = async () => {
    const d = delegation && (await submit({ step: 'resendOtp', delegationId: delegation.id }));
    if (d) setDelegation(d);
  };
  const verify = async () => {
    if (!/^\d{6}$/.test(code.trim())) {
      setErrors({ code: { key: 'errors:OtpInvalid', params: { attemptsLeft: delegation?.otp?.attemptsLeft ?? 0 } } });
      return;
    }
    setErrors({});
    const d = delegation && (await submit({ step: 'verifyOtp', delegationId: delegation.id, code: code.trim() }));
    if (d) {
      setDelegation(d);
      setStep(4);
    }
  };
  const complete = async () => {
    const d = delegation && (await submit({ step: 'acknowledge', delegationId: delegation.id, acknowledged }));
    if (d) setDelegation(d);
  };
  const cancel = async () => {
    if (delegation && (delegation.status === 'awaitingOtp' || delegation.status === 'pendingAcknowledgment')) await submit({ step: 'cancel', delegationId: delegation.id });
    setDelegation(null);
    setStep(0);
  };

  const title = t('delegation.title');
  const facilityName = facility.data ? nameIn(facility.data, i18n.language) : '';
  const blocked = authority.error?.status === 400 ? messageText(t, refusalOf(authority.error)) : null;

  if (delegation?.status === 'active') {
    return (
      <PageContainer>
        <PageHeader title={title} />
        <Card.Root data-testid="delegation-completed">
          <Card.Body>
            <Stack gap="4" align="flex-start">
              <Heading as="h2" size="lg">
                {t('delegation.completed')}
              </Heading>
              <Text>{t('delegation.completedText', { name: `${delegation.delegate.firstName} ${delegation.delegate.lastName}`, facility: facilityName })}</Text>
              <Text color="fg.muted" data-testid="delegation-number">
                {t('delegation.number', { number: ltr(delegation.number) })}
              </Text>
              {delegation.accountCreated && <Text color="fg.muted">{t('delegation.accountCreated', { phone: ltr(delegation.delegate.maskedPhone) })}</Text>}
              <Flex gap="3">
                <Button asChild colorPalette="brand">
                  <Link to={g.profile(publicId)}>{t('delegation.backToProfile')}</Link>
                </Button>
                <Button variant="outline" onClick={() => void cancel()}>
                  {t('delegation.another')}
                </Button>
              </Flex>
            </Stack>
          </Card.Body>
        </Card.Root>
      </PageContainer>
    );
  }

  return (
    <PageContainer>
      <PageHeader
        title={title}
        description={facilityName}
        breadcrumbs={[{ label: t('associated.title'), to: '/associated-facilities' }, { label: facilityName, to: g.profile(publicId) }, { label: title }]}
      />
      {blocked ? (
        <Alert.Root status="error" data-testid="delegation-blocked">
          <Alert.Indicator />
          <Alert.Description>{blocked}</Alert.Description>
        </Alert.Root>
      ) : (
        <Stack gap="6">
          <WizardSteps steps={STEPS.map((s) => ({ key: s, title: t(`delegation.steps.${s}`) }))} current={step} />
          {failure && (
            <Alert.Root status="error" data-testid="wizard-error">
              <Alert.Indicator />
              <Alert.Description>{messageText(t, failure)}</Alert.Description>
            </Alert.Root>
          )}
          <Card.Root>
            <Card.Body>
              {step === 0 && (
                <Stack gap="4" maxW="lg">
                  <FormField label={t('fields.nationalId')} required error={errors.nationalId} helper={t('delegation.nationalIdHelp')}>
                    <Input name="nationalId" dir="ltr" inputMode="numeric" maxLength={10} value={nationalId} onChange={(e) => { setNationalId(e.target.value); setLookup(null); }} />
                  </FormField>
                  <Button alignSelf="flex-start" variant="outline" onClick={() => void checkId()} loading={pending} data-testid="check-delegate">
                    {t('delegation.check')}
                  </Button>
                  {lookup && lookup.alreadyMember && (
                    <Alert.Root status="warning">
                      <Alert.Indicator />
                      <Alert.Description>{t('errors:DelegateAlreadyMember')}</Alert.Description>
                    </Alert.Root>
                  )}
                  {lookup && !lookup.alreadyMember && (
                    <Alert.Root status="info" data-testid="lookup-result">
                      <Alert.Indicator />
                      <Alert.Description>
                        {lookup.user ? t('delegation.existingUser', { name: `${lookup.user.firstName} ${lookup.user.lastName}`, email: ltr(lookup.user.email) }) : t('delegation.newUser')}
                      </Alert.Description>
                    </Alert.Root>
                  )}
                  <Flex justify="flex-end">
                    <Button colorPalette="brand" disabled={!lookup || lookup.alreadyMember} onClick={() => setStep(1)} data-testid="wizard-next">
                      {t('common:actions.next')}
                    </Button>
                  </Flex>
                </Stack>
              )}

              {step === 1 && (
                <Stack gap="4" maxW="2xl">
                  <Flex gap="4" direction={{ base: 'column', md: 'row' }}>
                    <FormField label={t('fields.firstName')} required error={errors.firstName} readOnly={!!lookup?.exists}>
                      <Input name="firstName" value={details.firstName} onChange={(e) => setDetails({ ...details, firstName: e.target.value })} />
                    </FormField>
                    <FormField label={t('fields.lastName')} required error={errors.lastName} readOnly={!!lookup?.exists}>
                      <Input name="lastName" value={details.lastName} onChange={(e) => setDetails({ ...details, lastName: e.target.value })} />
                    </FormField>
                  </Flex>
                  <FormField label={t('fields.birthDate')} required error={errors.birthDate}>
                    <Input name="birthDate" type="date" dir="ltr" value={details.birthDate} onChange={(e) => setDetails({ ...details, birthDate: e.target.value })} />
                  </FormField>
                  {lookup?.exists ? (
                    <Text color="fg.muted">{t('delegation.existingContact', { phone: ltr(lookup.user?.maskedPhone ?? '—'), email: ltr(lookup.user?.email ?? '') })}</Text>
                  ) : (
                    <>
                      <FormField label={t('fields.mobile')} required error={errors.phone} helper={t('delegation.mobileHelp')}>
                        <Input name="phone" type="tel" dir="ltr" value={details.phone} onChange={(e) => setDetails({ ...details, phone: e.target.value })} />
                      </FormField>
                      <FormField label={t('fields.email')} required error={errors.email}>
                        <Input name="email" type="email" dir="ltr" value={details.email} onChange={(e) => setDetails({ ...details, email: e.target.value })} />
                      </FormField>
                      <FormField label={t('fields.preferredLanguage')} required>
                        <NativeSelect.Root>
                          <NativeSelect.Field name="preferredLanguage" value={details.preferredLanguage} onChange={(e) => setDetails({ ...details, preferredLanguage: e.target.value === 'en' ? 'en' : 'ar' })}>
                            <option value="ar">{t('language.ar')}</option>
                            <option value="en">{t('language.en')}</option>
                          </NativeSelect.Field>
                          <NativeSelect.Indicator />
                        </NativeSelect.Root>
                      </FormField>
                    </>
                  )}
                  <Flex justify="space-between">
                    <Button variant="outline" onClick={() => setStep(0)}>
                      {t('common:actions.previous')}
                    </Button>
                    <Button colorPalette="brand" onClick={checkDetails} data-testid="wizard-next">
                      {t('common:actions.next')}
                    </Button>
                  </Flex>
                </Stack>
              )}

              {step === 2 && (
                <Stack gap="5">
                  <Text>{t('delegation.typeSub')}</Text>
                  <Box>
                    <Text fontWeight="medium" mb="2">
                      {t('fields.permissions')}
                    </Text>
                    <Stack gap="2">
                      {allowed.map((p) => (
                        <Checkbox.Root
                          key={p}
                          checked={chosen.includes(p)}
                          onCheckedChange={(e) => setPermissions(e.checked ? [...chosen, p] : chosen.filter((x) => x !== p))}
                        >
                          <Checkbox.HiddenInput />
                          <Checkbox.Control />
                          <Checkbox.Label>{t(permissionKey(p))}</Checkbox.Label>
                        </Checkbox.Root>
                      ))}
                    </Stack>
                    {chosen.length === 0 && (
                      <Text color="fg.error" mt="2" fontSize="sm">
                        {t('delegation.permissionRequired')}
                      </Text>
                    )}
                  </Box>
                  <Flex justify="space-between">
                    <Button variant="outline" onClick={() => setStep(1)}>
                      {t('common:actions.previous')}
                    </Button>
                    <Button colorPalette="brand" disabled={chosen.length === 0} onClick={() => setStep(3)} data-testid="wizard-next">
                      {t('common:actions.next')}
                    </Button>
                  </Flex>
                </Stack>
              )}

              {step === 3 && (
                <Stack gap="5">
                  <FactsList data-testid="delegation-summary">
                    <DataList.Item>
                      <DataList.ItemLabel>{t('fields.nationalId')}</DataList.ItemLabel>
                      <DataList.ItemValue dir="ltr">{nationalId}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('fields.name')}</DataList.ItemLabel>
                      <DataList.ItemValue>{`${details.firstName} ${details.lastName}`}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('fields.delegationType')}</DataList.ItemLabel>
                      <DataList.ItemValue>{t('delegation.typeSub')}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('fields.permissions')}</DataList.ItemLabel>
                      <DataList.ItemValue>{chosen.map((p) => t(permissionKey(p))).join(listSeparator(i18n.language))}</DataList.ItemValue>
                    </DataList.Item>
                  </FactsList>
                  {!delegation ? (
                    <Flex justify="space-between">
                      <Button variant="outline" onClick={() => setStep(2)}>
                        {t('common:actions.previous')}
                      </Button>
                      <Button colorPalette="brand" loading={pending} onClick={() => void sendCode()} data-testid="send-otp">
                        {t('delegation.sendCode')}
                      </Button>
                    </Flex>
                  ) : (
                    <Stack gap="4" maxW="md" data-testid="otp-step">
                      <Text>{t('delegation.codeSent', { phone: ltr(delegation.otp?.maskedPhone ?? delegation.delegate.maskedPhone) })}</Text>
                      <Text fontSize="sm" color="fg.muted">
                        {expiresIn > 0 ? t('delegation.expiresIn', { seconds: expiresIn }) : t('errors:1005')}
                      </Text>
                      <FormField label={t('delegation.code')} required error={errors.code}>
                        <Input name="otp" dir="ltr" inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
                      </FormField>
                      <Flex gap="3" wrap="wrap">
                        <Button colorPalette="brand" loading={pending} onClick={() => void verify()} data-testid="verify-otp">
                          {t('delegation.verify')}
                        </Button>
                        <Button variant="outline" disabled={resendIn > 0 || (delegation.otp?.resendsLeft ?? 0) === 0} onClick={() => void resend()}>
                          {resendIn > 0 ? t('delegation.resendIn', { seconds: resendIn }) : t('delegation.resend', { count: delegation.otp?.resendsLeft ?? 0 })}
                        </Button>
                        <Button variant="ghost" onClick={() => void cancel()}>
                          {t('common:actions.cancel')}
                        </Button>
                      </Flex>
                    </Stack>
                  )}
                </Stack>
              )}

              {step === 4 && delegation && (
                <Stack gap="5">
                  <Text>{t('delegation.acknowledgmentIntro', { name: `${delegation.delegate.firstName} ${delegation.delegate.lastName}`, facility: facilityName })}</Text>
                  <Checkbox.Root checked={acknowledged} onCheckedChange={(e) => setAcknowledged(!!e.checked)} data-testid="acknowledge">
                    <Checkbox.HiddenInput />
                    <Checkbox.Control />
                    <Checkbox.Label>{t('delegation.acknowledgment')}</Checkbox.Label>
                  </Checkbox.Root>
                  <Flex justify="space-between">
                    <Button variant="ghost" onClick={() => void cancel()}>
                      {t('common:actions.cancel')}
                    </Button>
                    <Button colorPalette="brand" disabled={!acknowledged} loading={pending} onClick={() => void complete()} data-testid="complete-delegation">
                      {t('delegation.complete')}
                    </Button>
                  </Flex>
                </Stack>
              )}
            </Card.Body>
          </Card.Root>
        </Stack>
      )}
    </PageContainer>
  );
}
