import { useRef, useState } from 'react';
import { Alert, Box, Button, Card, Checkbox, Flex, Heading, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { ApiError, saysOf } from '../../api/errors';
import { apiQuery, useApi } from '../../api/query';
import { FormField } from '../../components/form/FormField';
import { fieldMessages, messageText, serverFieldMessages, type FieldMessage, type Said } from '../../components/form/validation-messages';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { facilityProfilePath, selectFacility } from '../../session/selected-facility';
import { isAcceptanceNumber, isNotificationNumber, normalizeIban } from '../../../../machines/forms/facilities/formats';
import { ZConformityBodyFields } from '../../../../machines/forms/facilities/schemas';
import type { Attachment, PostBody } from './facilities-api';
import { AttachmentInput, CountrySelect } from './form-parts';

const FIELDS = ['nameAr', 'nameEn', 'countryCode', 'city', 'address', 'registrationNumber', 'acceptanceNumber', 'notificationNumber', 'certificateIssueDate', 'certificateExpiryDate', 'iban'] as const;
type Form = Record<(typeof FIELDS)[number], string>;
const EMPTY = Object.fromEntries(FIELDS.map((k) => [k, ''])) as Form;
const ATTACHMENTS = ['commercialRegistration', 'accreditationCertificate', 'acceptanceCertificate', 'qualityManual'] as const;

/**
 * add-facility/conformity-body: adds a CB (spec 02 section 3): acceptance number `#-####H-CB`, notification number
 * `H-CB####-#`, certificate dates with an expiry after today (CB-00006), IBAN (pending until confirmed),
 * categories and sub-categories, and the attachments. Immediate; the applicant becomes its main user.
 */
export function AddConformityBodyPage() {
  const { t } = useTranslation('facilities');
  const navigate = useNavigate();
  const catalogue = useApi(apiQuery('/api/facility-catalogue'));
  const [form, setForm] = useState<Form>(EMPTY);
  const [categories, setCategories] = useState<string[]>([]);
  const [files, setFiles] = useState<Record<string, Attachment | null>>({});
  const [errors, setErrors] = useState<Record<string, FieldMessage | string>>({});
  const [failure, setFailure] = useState<Said[] | null>(null);
  const [pending, setPending] = useState(false);

  const body = () => ({ ...Object.fromEntries(Object.entries(form).filter(([, v]) => v.trim() !== '')), categories });
  const missingFiles = ATTACHMENTS.filter((c) => c !== 'qualityManual' && !files[c]);

  const check = (): Record<string, FieldMessage | string> => {
    const parsed = ZConformityBodyFields.safeParse(body());
    const errs: Record<string, FieldMessage | string> = parsed.success ? {} : fieldMessages(parsed.error.issues);
    if (form.acceptanceNumber && !isAcceptanceNumber(form.acceptanceNumber)) errs.acceptanceNumber = t('errors:AcceptanceNumberInvalid');
    if (form.notificationNumber && !isNotificationNumber(form.notificationNumber)) errs.notificationNumber = t('errors:NotificationNumberInvalid');
    if (form.iban && !normalizeIban(form.iban)) errs.iban = t('errors:IbanInvalid');
    if (form.certificateExpiryDate && form.certificateExpiryDate <= new Date().toISOString().slice(0, 10)) errs.certificateExpiryDate = t('errors:CB-00006');
    if (!categories.length) errs.categories = t('errors:CategoryInvalid');
    return errs;
  };

  // The first problem is brought into view and focused (its message is read out with it); the summary above the
  // form is an alert, so screen readers announce it too.
  const formRef = useRef<HTMLFormElement>(null);
  const showFirstError = () =>
    requestAnimationFrame(() => {
      const root = formRef.current;
      const first = root?.querySelector<HTMLElement>('[aria-invalid="true"], [data-invalid] input, [data-testid="categories-error"], [data-testid="form-error"]');
      first?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      if (first && 'focus' in first) first.focus({ preventScroll: true });
    });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const errs = check();
    setErrors(errs);
    if (Object.keys(errs).length || missingFiles.length) {
      const count = Object.keys(errs).length;
      setFailure([...(count ? [{ key: 'facilities:form.fixFields', params: { count } }] : []), ...(missingFiles.length ? [{ key: 'facilities:form.attachRequired' }] : [])]);
      showFirstError();
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      const attachments = Object.values(files)
        .filter((a): a is Attachment => !!a)
        .map((a) => ({ id: a.id }));
      const created = await data(api.POST('/api/ConformityBody/create', { body: { ...body(), attachments } as PostBody<'/api/ConformityBody/create'>, handleErrors: [400, 409] }));
      const selected = { facilityType: created.facilityType, id: created.id, publicId: created.publicId };
      selectFacility(selected);
      void navigate({ to: facilityProfilePath(selected) });
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(serverFieldMessages(err.validationErrors));
        setFailure(saysOf(err));
        showFirstError();
      }
    } finally {
      setPending(false);
    }
  };

  const input = (key: keyof Form, opts: { required?: boolean; dir?: 'ltr'; type?: string; placeholder?: string } = {}) => (
    <FormField key={key} label={t(`fields.${key}`)} required={opts.required} error={errors[key]}>
      <Input name={key} dir={opts.dir} type={opts.type} placeholder={opts.placeholder} value={form[key]} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
    </FormField>
  );
  const toggleMain = (subs: string[], on: boolean) => setCategories(on ? [...new Set([...categories, ...subs])] : categories.filter((c) => !subs.includes(c)));

  return (
    <PageContainer>
      <PageHeader title={t('addCb.title')} description={t('addCb.description')} breadcrumbs={[{ label: t('associated.title'), to: '/associated-facilities' }, { label: t('addCb.title') }]} />
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="6">
          {failure && (
            <Alert.Root status="error" data-testid="form-error" role="alert" tabIndex={-1}>
              <Alert.Indicator />
              <Alert.Description>{failure.map((m) => messageText(t, m)).join(' ')}</Alert.Description>
            </Alert.Root>
          )}
          <Card.Root>
            <Card.Body>
              <Heading as="h2" size="md" mb="4">
                {t('addCb.body')}
              </Heading>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                {input('nameAr', { required: true })}
                {input('nameEn', { required: true, dir: 'ltr' })}
                <FormField label={t('fields.country')} required error={errors.countryCode}>
                  <CountrySelect name="countryCode" value={form.countryCode} onChange={(countryCode) => setForm({ ...form, countryCode })} />
                </FormField>
                {input('city', { required: true })}
                {input('address', { required: true })}
                {input('registrationNumber', { required: true, dir: 'ltr' })}
              </SimpleGrid>
            </Card.Body>
          </Card.Root>
          <Card.Root>
            <Card.Body>
              <Heading as="h2" size="md" mb="4">
                {t('addCb.certificate')}
              </Heading>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                {input('acceptanceNumber', { required: true, dir: 'ltr', placeholder: '1-2345H-CB' })}
                {input('notificationNumber', { dir: 'ltr', placeholder: 'H-CB1234-5' })}
                {input('certificateIssueDate', { required: true, dir: 'ltr', type: 'date' })}
                {input('certificateExpiryDate', { required: true, dir: 'ltr', type: 'date' })}
                {input('iban', { dir: 'ltr', placeholder: 'SA03 8000 0000 6080 1016 7519' })}
              </SimpleGrid>
              <Text mt="2" fontSize="sm" color="fg.muted">
                {t('addCb.ibanPending')}
              </Text>
            </Card.Body>
          </Card.Root>
          <Card.Root>
            <Card.Body>
              <Heading as="h2" size="md" mb="2">
                {t('fields.categories')}
              </Heading>
              {errors.categories && (
                <Text color="fg.error" fontSize="sm" mb="2" data-testid="categories-error" tabIndex={-1}>
                  {messageText(t, errors.categories)}
                </Text>
              )}
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                {(catalogue.data?.categories ?? []).map((main) => {
                  const all = main.subCategories.every((c) => categories.includes(c));
                  const some = main.subCategories.some((c) => categories.includes(c));
                  return (
                    <Box key={main.code} borderWidth="1px" borderRadius="md" p="3">
                      <Checkbox.Root checked={all ? true : some ? 'indeterminate' : false} onCheckedChange={(e) => toggleMain(main.subCategories, !!e.checked)}>
                        <Checkbox.HiddenInput />
                        <Checkbox.Control />
                        <Checkbox.Label fontWeight="semibold">{t(`mainCategory.${main.code}`)}</Checkbox.Label>
                      </Checkbox.Root>
                      <Stack ps="6" mt="2" gap="1">
                        {main.subCategories.map((c) => (
                          <Checkbox.Root key={c} size="sm" checked={categories.includes(c)} onCheckedChange={(e) => setCategories(e.checked ? [...categories, c] : categories.filter((x) => x !== c))}>
                            <Checkbox.HiddenInput />
                            <Checkbox.Control />
                            <Checkbox.Label>{t(`public:cbCategory.${c}`, { defaultValue: c })}</Checkbox.Label>
                          </Checkbox.Root>
                        ))}
                      </Stack>
                    </Box>
                  );
                })}
              </SimpleGrid>
            </Card.Body>
          </Card.Root>
          <Card.Root>
            <Card.Body>
              <Heading as="h2" size="md" mb="4">
                {t('profile.tabs.attachments')}
              </Heading>
              <Stack gap="3">
                {ATTACHMENTS.map((c) => (
                  <AttachmentInput key={c} category={c} required={c !== 'qualityManual'} value={files[c] ?? null} onChange={(a) => setFiles({ ...files, [c]: a })} />
                ))}
              </Stack>
            </Card.Body>
          </Card.Root>
          <Flex justify="flex-end">
            <Button type="submit" colorPalette="brand" loading={pending} data-testid="submit-facility">
              {t('addCb.submit')}
            </Button>
          </Flex>
        </Stack>
      </form>
    </PageContainer>
  );
}
