import { useState } from 'react';
import { Alert, Box, Button, Card, Checkbox, DataList, Flex, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data as answer } from '../../api/client';
import { ApiError, saysOf } from '../../api/errors';
import { FactsList } from '../../components/FactsList';
import { WizardSteps } from '../../components/WizardSteps';
import { dropRecaptchaToken, recaptchaToken } from '../../components/chat/recaptcha-token';
import { FormField } from '../../components/form/FormField';
import { fieldMessages, type FieldMessage, messageText, type Said } from '../../components/form/validation-messages';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { facilityProfilePath, selectFacility } from '../../session/selected-facility';
import { formatUnifiedNumber, isCrNumber } from '../../../../machines/forms/facilities/formats';
import { ZInternalExtras } from '../../../../machines/forms/facilities/schemas';
import type { Attachment, CrData, CrValidation, PostBody } from './facilities-api';
import { AttachmentInput, CountriesInput } from './form-parts';
import { CrStatusBadge } from './labels';
import { listSeparator } from '../../i18n';

const STEPS = ['registration', 'data', 'attachments', 'summary'] as const;
const CR_REFUSAL = { Suspended: 'CrSuspended', Deleted: 'CrDeleted', Expired: 'CrExpired' } as const;

/**
 * add-facility/internal: adds a Saudi factory from its commercial registration. The registry (GetCrData, with a
 * reCAPTCHA token reused for under 110 s) fills the data and shows the registration's status; only an active,
 * not yet registered one can be added. The applicant adds what the registry does not know and, when they are not
 * one of its parties (or it has none), the owner's letter. Adding is immediate; the applicant becomes main user.
 */
export function AddInternalFacilityPage() {
  const { t, i18n } = useTranslation('facilities');
  const navigate = useNavigate();
  const [step, setStep] = useState(0);
  const [crNumber, setCrNumber] = useState('');
  const [cr, setCr] = useState<CrData | null>(null);
  const [rules, setRules] = useState<CrValidation | null>(null);
  const [extras, setExtras] = useState({ fullTimeEmployeeCount: '', annualShipmentCount: '', annualHalalCertificateCount: '', totalAnnualRevenue: '' });
  const [exportingCountries, setExportingCountries] = useState<string[]>([]);
  const [files, setFiles] = useState<Record<string, Attachment | null>>({});
  const [agreed, setAgreed] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, FieldMessage | string>>({});
  const [failure, setFailure] = useState<Said[] | null>(null);
  const [pending, setPending] = useState(false);

  /** A call whose refusal is shown on the page; the reCAPTCHA token is renewed once if it was refused. */
  async function withToken<T>(fn: (token: string) => Promise<T>): Promise<T | undefined> {
    setPending(true);
    setFailure(null);
    try {
      try {
        return await fn(await recaptchaToken());
      } catch (e) {
        if (!(e instanceof ApiError) || e.code !== 'RecaptchaInvalid') throw e;
        dropRecaptchaToken();
        return await fn(await recaptchaToken());
      }
    } catch (e) {
      if (e instanceof ApiError) setFailure(saysOf(e));
      return undefined;
    } finally {
      setPending(false);
    }
  }

  const lookUp = async () => {
    const v = crNumber.trim();
    setCr(null);
    setRules(null);
    if (!isCrNumber(v)) {
      setFieldErrors({ crNumber: t('errors:CrNumberInvalid') });
      return;
    }
    setFieldErrors({});
    const data = await withToken((token) =>
      answer(api.GET('/api/Facility/GetCrData', { params: { query: { crEntityNumber: v, recaptchaToken: token } }, handleErrors: [400, 404, 502] })),
    );
    if (data) setCr(data);
  };

  const proceed = async () => {
    const validation = await withToken((token) =>
      answer(api.POST('/api/Facility/GetCrDataWithRelatedValidation', { body: { crEntityNumber: crNumber.trim(), recaptchaToken: token }, handleErrors: [400, 404, 409, 502] })),
    );
    if (validation) {
      setRules(validation);
      setStep(1);
    }
  };

  const extrasBody = () => ({
    fullTimeEmployeeCount: extras.fullTimeEmployeeCount,
    annualShipmentCount: extras.annualShipmentCount || undefined,
    annualHalalCertificateCount: extras.annualHalalCertificateCount || undefined,
    totalAnnualRevenue: extras.totalAnnualRevenue || undefined,
    exportingCountries,
  });
  const checkData = () => {
    const parsed = ZInternalExtras.safeParse(extrasBody());
    setFieldErrors(parsed.success ? {} : fieldMessages(parsed.error.issues));
    if (parsed.success) setStep(2);
  };

  const required = [...(rules?.delegationLetterRequired ? ['delegationLetter'] : []), ...(rules?.commercialRegistrationRequired ? ['commercialRegistration'] : [])];
  const optional = ['qualityManual', ...(rules?.commercialRegistrationRequired ? [] : ['commercialRegistration'])];
  const missing = required.filter((c) => !files[c]);

  const submit = async () => {
    const attachments = Object.values(files)
      .filter((a): a is Attachment => !!a)
      .map((a) => ({ id: a.id }));
    const created = await withToken((token) => {
      // The counts are the form's text; the server's schema reads them as numbers (ZInternalExtras coerces them).
      const body = { crEntityNumber: crNumber.trim(), recaptchaToken: token, ...extrasBody(), attachments } as unknown as PostBody<'/api/Facility/CreateInternal'>;
      const handleErrors = [400, 404, 409, 502];
      return answer(
        rules?.variant === 'noParty'
          ? api.POST('/api/Facility/CreateInternalFacilityWithNoPartyFromWatheq', { body, handleErrors })
          : api.POST('/api/Facility/CreateInternal', { body, handleErrors }),
      );
    });
    if (!created) return;
    const selected = { facilityType: created.facilityType, id: created.id, publicId: created.publicId };
    selectFacility(selected);
    void navigate({ to: facilityProfilePath(selected) });
  };

  const statusRefusal = cr && cr.status !== 'Active' ? t(`errors:${CR_REFUSAL[cr.status]}`) : null;
  const field = (key: keyof typeof extras, label: string, isRequired = false) => (
    <FormField label={label} required={isRequired} error={fieldErrors[key]}>
      <Input name={key} dir="ltr" inputMode="decimal" value={extras[key]} onChange={(e) => setExtras({ ...extras, [key]: e.target.value })} />
    </FormField>
  );

  return (
    <PageContainer>
      <PageHeader title={t('addInternal.title')} description={t('addInternal.description')} breadcrumbs={[{ label: t('associated.title'), to: '/associated-facilities' }, { label: t('addInternal.title') }]} />
      <Stack gap="6">
        <WizardSteps steps={STEPS.map((s) => ({ key: s, title: t(`addInternal.steps.${s}`) }))} current={step} />
        {failure && (
          <Alert.Root status="error" data-testid="wizard-error">
            <Alert.Indicator />
            <Alert.Description>{failure.map((m) => messageText(t, m)).join(' ')}</Alert.Description>
          </Alert.Root>
        )}
        <Card.Root>
          <Card.Body>
            {step === 0 && (
              <Stack gap="4">
                <Flex gap="3" align="flex-end" wrap="wrap" maxW="xl">
                  <Box flex="1" minW="60">
                    <FormField label={t('fields.crNumber')} required error={fieldErrors.crNumber}>
                      <Input name="crNumber" dir="ltr" inputMode="numeric" maxLength={10} value={crNumber} onChange={(e) => setCrNumber(e.target.value)} />
                    </FormField>
                  </Box>
                  <Button variant="outline" onClick={() => void lookUp()} loading={pending} data-testid="cr-lookup">
                    {t('addInternal.lookUp')}
                  </Button>
                </Flex>
                {cr && (
                  <Card.Root variant="subtle" data-testid="cr-data">
                    <Card.Body>
                      <Flex justify="space-between" align="center" mb="3" gap="3" wrap="wrap">
                        <Heading as="h2" size="md">
                          {i18n.language === 'ar' ? cr.nameAr : cr.nameEn}
                        </Heading>
                        <CrStatusBadge status={cr.status} />
                      </Flex>
                      <FactsList>
                        <DataList.Item>
                          <DataList.ItemLabel>{t('fields.unifiedNumber')}</DataList.ItemLabel>
                          <DataList.ItemValue dir="ltr">{cr.unifiedNumber ? formatUnifiedNumber(cr.unifiedNumber) : '—'}</DataList.ItemValue>
                        </DataList.Item>
                        <DataList.Item>
                          <DataList.ItemLabel>{t('fields.activity')}</DataList.ItemLabel>
                          <DataList.ItemValue>{i18n.language === 'ar' ? cr.activityName : cr.activityNameEn}</DataList.ItemValue>
                        </DataList.Item>
                        <DataList.Item>
                          <DataList.ItemLabel>{t('fields.crIssueDate')}</DataList.ItemLabel>
                          <DataList.ItemValue>{cr.issueDate}</DataList.ItemValue>
                        </DataList.Item>
                        <DataList.Item>
                          <DataList.ItemLabel>{t('fields.crExpiryDate')}</DataList.ItemLabel>
                          <DataList.ItemValue>{cr.expiryDate}</DataList.ItemValue>
                        </DataList.Item>
                        <DataList.Item>
                          <DataList.ItemLabel>{t('fields.address')}</DataList.ItemLabel>
                          <DataList.ItemValue>{[cr.address.city, cr.address.district, cr.address.streetName, cr.address.buildingNumber].filter(Boolean).join(listSeparator(i18n.language))}</DataList.ItemValue>
                        </DataList.Item>
                        <DataList.Item>
                          <DataList.ItemLabel>{t('fields.parties')}</DataList.ItemLabel>
                          <DataList.ItemValue>{cr.parties.length ? cr.parties.map((p) => `${p.name} (${p.relation})`).join(listSeparator(i18n.language)) : t('addInternal.noParty')}</DataList.ItemValue>
                        </DataList.Item>
                      </FactsList>
                    </Card.Body>
                  </Card.Root>
                )}
                {statusRefusal && (
                  <Alert.Root status="warning" data-testid="cr-refusal">
                    <Alert.Indicator />
                    <Alert.Description>{statusRefusal}</Alert.Description>
                  </Alert.Root>
                )}
                {cr && cr.status === 'Active' && cr.alreadyRegistered && (
                  <Alert.Root status="warning" data-testid="cr-refusal">
                    <Alert.Indicator />
                    <Alert.Description>{t('errors:CrNumberDuplicate')}</Alert.Description>
                  </Alert.Root>
                )}
                <Flex justify="flex-end">
                  <Button colorPalette="brand" disabled={!cr || !!statusRefusal || cr.alreadyRegistered} loading={pending} onClick={() => void proceed()} data-testid="wizard-next">
                    {t('common:actions.next')}
                  </Button>
                </Flex>
              </Stack>
            )}

            {step === 1 && (
              <Stack gap="4" maxW="2xl">
                {field('fullTimeEmployeeCount', t('fields.fullTimeEmployeeCount'), true)}
                {field('annualShipmentCount', t('fields.annualShipmentCount'))}
                {field('annualHalalCertificateCount', t('fields.annualHalalCertificateCount'))}
                {field('totalAnnualRevenue', t('fields.totalAnnualRevenue'))}
                <FormField label={t('fields.exportingCountries')}>
                  <CountriesInput value={exportingCountries} onChange={setExportingCountries} />
                </FormField>
                <Flex justify="space-between">
                  <Button variant="outline" onClick={() => setStep(0)}>
                    {t('common:actions.previous')}
                  </Button>
                  <Button colorPalette="brand" onClick={checkData} data-testid="wizard-next">
                    {t('common:actions.next')}
                  </Button>
                </Flex>
              </Stack>
            )}

            {step === 2 && (
              <Stack gap="3">
                {rules?.delegationLetterRequired && <Text color="fg.muted">{t('addInternal.letterNeeded')}</Text>}
                {required.map((c) => (
                  <AttachmentInput key={c} category={c} required value={files[c] ?? null} onChange={(a) => setFiles({ ...files, [c]: a })} />
                ))}
                {optional.map((c) => (
                  <AttachmentInput key={c} category={c} value={files[c] ?? null} onChange={(a) => setFiles({ ...files, [c]: a })} />
                ))}
                <Flex justify="space-between" mt="2">
                  <Button variant="outline" onClick={() => setStep(1)}>
                    {t('common:actions.previous')}
                  </Button>
                  <Button colorPalette="brand" disabled={missing.length > 0} onClick={() => setStep(3)} data-testid="wizard-next">
                    {t('common:actions.next')}
                  </Button>
                </Flex>
              </Stack>
            )}

            {step === 3 && cr && (
              <Stack gap="4">
                <FactsList data-testid="summary">
                  <DataList.Item>
                    <DataList.ItemLabel>{t('fields.name')}</DataList.ItemLabel>
                    <DataList.ItemValue>{i18n.language === 'ar' ? cr.nameAr : cr.nameEn}</DataList.ItemValue>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.ItemLabel>{t('fields.crNumber')}</DataList.ItemLabel>
                    <DataList.ItemValue dir="ltr">{cr.crNumber}</DataList.ItemValue>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.ItemLabel>{t('fields.fullTimeEmployeeCount')}</DataList.ItemLabel>
                    <DataList.ItemValue>{extras.fullTimeEmployeeCount}</DataList.ItemValue>
                  </DataList.Item>
                  <DataList.Item>
                    <DataList.ItemLabel>{t('profile.tabs.attachments')}</DataList.ItemLabel>
                    <DataList.ItemValue>
                      {Object.entries(files)
                        .filter(([, a]) => a)
                        .map(([c]) => t(`attachmentCategory.${c}`))
                        .join(listSeparator(i18n.language)) || '—'}
                    </DataList.ItemValue>
                  </DataList.Item>
                </FactsList>
                <Checkbox.Root checked={agreed} onCheckedChange={(e) => setAgreed(!!e.checked)} data-testid="agree">
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{t('addInternal.declaration')}</Checkbox.Label>
                </Checkbox.Root>
                <Flex justify="space-between">
                  <Button variant="outline" onClick={() => setStep(2)}>
                    {t('common:actions.previous')}
                  </Button>
                  <Button colorPalette="brand" disabled={!agreed} loading={pending} onClick={() => void submit()} data-testid="submit-facility">
                    {t('addInternal.submit')}
                  </Button>
                </Flex>
              </Stack>
            )}
          </Card.Body>
        </Card.Root>
      </Stack>
    </PageContainer>
  );
}
