import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Flex, Heading, Input, SimpleGrid, Stack, Switch, Textarea } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { ApiError, saysOf } from '../../api/errors';
import { FormField } from '../../components/form/FormField';
import { fieldMessages, serverFieldMessages, type FieldMessage, messageText, type Said } from '../../components/form/validation-messages';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { facilityProfilePath, selectFacility } from '../../session/selected-facility';
import { ZExternalFacilityFields } from '../../../../machines/forms/facilities/schemas';
import type { Attachment, PostBody } from './facilities-api';
import { AttachmentInput, CountriesInput, CountrySelect } from './form-parts';

/** Operations a foreign factory may perform (spec 02: external factory operations), labelled in facilities.json. */
export const OPERATIONS = ['slaughtering', 'cutting', 'processing', 'packaging', 'storage', 'distribution'] as const;
const NUMBERS = ['productionLinesCount', 'criticalPointsCount', 'permanentEmployeeCount', 'shiftsCount', 'productionArea', 'annualShipmentCount', 'totalAnnualRevenue'] as const;
const TEXTS = ['nameAr', 'nameEn', 'registrationNumber', 'city', 'district', 'streetName', 'zipCode', 'address'] as const;

type Form = Record<(typeof TEXTS)[number] | (typeof NUMBERS)[number] | 'countryCode' | 'extraBranches' | 'branchesInKingdom', string>;
const EMPTY = Object.fromEntries([...TEXTS, ...NUMBERS, 'countryCode', 'extraBranches', 'branchesInKingdom'].map((k) => [k, ''])) as Form;

/**
 * add-facility/external: adds a foreign factory (spec 02 section 3, External factory) with its commercial
 * registration and accreditation certificates. Immediate; the applicant becomes its main user.
 */
export function AddExternalFacilityPage() {
  const { t } = useTranslation('facilities');
  const navigate = useNavigate();
  const [form, setForm] = useState<Form>(EMPTY);
  const [operations, setOperations] = useState<string[]>([]);
  const [exportingCountries, setExportingCountries] = useState<string[]>([]);
  const [hasExtraBranches, setHasExtraBranches] = useState(false);
  const [files, setFiles] = useState<Record<string, Attachment | null>>({});
  const [errors, setErrors] = useState<Record<string, FieldMessage | string>>({});
  const [failure, setFailure] = useState<Said[] | null>(null);
  const [pending, setPending] = useState(false);

  const body = () => ({
    ...Object.fromEntries(Object.entries(form).filter(([, v]) => v.trim() !== '')),
    operations,
    exportingCountries,
    hasExtraBranches,
  });
  const missingFiles = ['commercialRegistration', 'accreditationCertificate'].filter((c) => !files[c]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = ZExternalFacilityFields.safeParse(body());
    const errs: Record<string, FieldMessage | string> = parsed.success ? {} : fieldMessages(parsed.error.issues);
    if (form.countryCode === 'SA') errs.countryCode = t('errors:ExternalFacilityCountryInvalid');
    setErrors(errs);
    if (Object.keys(errs).length || missingFiles.length) {
      setFailure(missingFiles.length ? [{ key: 'facilities:form.attachRequired' }] : null);
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const attachments = Object.values(files)
        .filter((a): a is Attachment => !!a)
        .map((a) => ({ id: a.id }));
      const created = await data(api.POST('/api/Facility/CreateExternal', { body: { ...body(), attachments } as PostBody<'/api/Facility/CreateExternal'>, handleErrors: [400, 409] }));
      const selected = { facilityType: created.facilityType, id: created.id, publicId: created.publicId };
      selectFacility(selected);
      void navigate({ to: facilityProfilePath(selected) });
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(serverFieldMessages(err.validationErrors));
        setFailure(saysOf(err));
      }
    } finally {
      setPending(false);
    }
  };

  const text = (key: keyof Form, opts: { required?: boolean; dir?: 'ltr' } = {}) => (
    <FormField key={key} label={t(`fields.${key}`)} required={opts.required} error={errors[key]}>
      <Input name={key} dir={opts.dir} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
    </FormField>
  );

  return (
    <PageContainer>
      <PageHeader title={t('addExternal.title')} description={t('addExternal.description')} breadcrumbs={[{ label: t('associated.title'), to: '/associated-facilities' }, { label: t('addExternal.title') }]} />
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="6">
          {failure && (
            <Alert.Root status="error" data-testid="form-error">
              <Alert.Indicator />
              <Alert.Description>{failure.map((m) => messageText(t, m)).join(' ')}</Alert.Description>
            </Alert.Root>
          )}
          <Card.Root>
            <Card.Body>
              <Heading as="h2" size="md" mb="4">
                {t('addExternal.factory')}
              </Heading>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                {text('nameAr', { required: true })}
                {text('nameEn', { required: true, dir: 'ltr' })}
                {text('registrationNumber', { required: true, dir: 'ltr' })}
                <FormField label={t('fields.country')} required error={errors.countryCode}>
                  <CountrySelect name="countryCode" value={form.countryCode} exclude={['SA']} onChange={(countryCode) => setForm({ ...form, countryCode })} />
                </FormField>
                {text('city', { required: true })}
                {text('district')}
                {text('streetName')}
                {text('zipCode', { dir: 'ltr' })}
              </SimpleGrid>
              <Stack mt="4">{text('address', { required: true })}</Stack>
            </Card.Body>
          </Card.Root>
          <Card.Root>
            <Card.Body>
              <Heading as="h2" size="md" mb="4">
                {t('addExternal.production')}
              </Heading>
              <FormField label={t('fields.operations')} required error={errors.operations}>
                <Flex gap="4" wrap="wrap">
                  {OPERATIONS.map((op) => (
                    <Checkbox.Root key={op} checked={operations.includes(op)} onCheckedChange={(e) => setOperations(e.checked ? [...operations, op] : operations.filter((o) => o !== op))}>
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                      <Checkbox.Label>{t(`operation.${op}`)}</Checkbox.Label>
                    </Checkbox.Root>
                  ))}
                </Flex>
              </FormField>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" mt="4">
                {NUMBERS.map((k) => text(k, { required: !['annualShipmentCount', 'totalAnnualRevenue'].includes(k), dir: 'ltr' }))}
              </SimpleGrid>
              <Stack mt="4" gap="4">
                <FormField label={t('fields.exportingCountries')}>
                  <CountriesInput value={exportingCountries} onChange={setExportingCountries} />
                </FormField>
                <Switch.Root checked={hasExtraBranches} onCheckedChange={(e) => setHasExtraBranches(e.checked)}>
                  <Switch.HiddenInput />
                  <Switch.Control />
                  <Switch.Label>{t('fields.hasExtraBranches')}</Switch.Label>
                </Switch.Root>
                {hasExtraBranches && (
                  <FormField label={t('fields.extraBranches')} error={errors.extraBranches}>
                    <Textarea name="extraBranches" value={form.extraBranches} onChange={(e) => setForm({ ...form, extraBranches: e.target.value })} />
                  </FormField>
                )}
                <FormField label={t('fields.branchesInKingdom')} error={errors.branchesInKingdom}>
                  <Textarea name="branchesInKingdom" value={form.branchesInKingdom} onChange={(e) => setForm({ ...form, branchesInKingdom: e.target.value })} />
                </FormField>
              </Stack>
            </Card.Body>
          </Card.Root>
          <Card.Root>
            <Card.Body>
              <Heading as="h2" size="md" mb="4">
                {t('profile.tabs.attachments')}
              </Heading>
              <Stack gap="3">
                {['commercialRegistration', 'accreditationCertificate', 'qualityManual'].map((c) => (
                  <AttachmentInput key={c} category={c} required={c !== 'qualityManual'} value={files[c] ?? null} onChange={(a) => setFiles({ ...files, [c]: a })} />
                ))}
              </Stack>
            </Card.Body>
          </Card.Root>
          <Flex justify="flex-end">
            <Button type="submit" colorPalette="brand" loading={pending} data-testid="submit-facility">
              {t('addExternal.submit')}
            </Button>
          </Flex>
        </Stack>
      </form>
    </PageContainer>
  );
}
