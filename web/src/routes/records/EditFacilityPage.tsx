import { useEffect, useState } from 'react';
import { Alert, Button, Card, Flex, Input, SimpleGrid, Stack } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { ZUpdateConformityBody, ZUpdateExternal } from '../../../../machines/forms/facilities/schemas';
import { api, data } from '../../api/client';
import { ApiError, saysOf } from '../../api/errors';
import { useApi } from '../../api/query';
import { FormField } from '../../components/form/FormField';
import { fieldMessages, serverFieldMessages, type FieldMessage, messageText, type Said } from '../../components/form/validation-messages';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { useRouteParams } from '../../route-params';
import { facilityProfilePath } from '../../session/selected-facility';
import { facilityDetailsQuery, type Attachment, type Facility } from '../facilities/facilities-api';
import { nameIn } from '../facilities/labels';
import { AttachmentInput, CountrySelect } from '../facilities/form-parts';

type Kind = 'cb' | 'external';

/** The fields each edit screen shows; everything else of the profile is sent back as it is. */
const FIELDS: Record<Kind, { key: string; dir?: 'ltr'; type?: string; required?: boolean }[]> = {
  cb: [
    { key: 'nameAr', required: true },
    { key: 'nameEn', dir: 'ltr', required: true },
    { key: 'registrationNumber', dir: 'ltr', required: true },
    { key: 'city', required: true },
    { key: 'address', required: true },
    { key: 'acceptanceNumber', dir: 'ltr', required: true },
    { key: 'notificationNumber', dir: 'ltr' },
    { key: 'certificateIssueDate', dir: 'ltr', type: 'date', required: true },
    { key: 'certificateExpiryDate', dir: 'ltr', type: 'date', required: true },
    { key: 'iban', dir: 'ltr' },
  ],
  external: [
    { key: 'nameAr', required: true },
    { key: 'nameEn', dir: 'ltr', required: true },
    { key: 'registrationNumber', dir: 'ltr', required: true },
    { key: 'city', required: true },
    { key: 'district' },
    { key: 'streetName' },
    { key: 'zipCode', dir: 'ltr' },
    { key: 'address', required: true },
    { key: 'productionLinesCount', dir: 'ltr', required: true },
    { key: 'criticalPointsCount', dir: 'ltr', required: true },
    { key: 'permanentEmployeeCount', dir: 'ltr', required: true },
    { key: 'shiftsCount', dir: 'ltr', required: true },
    { key: 'productionArea', dir: 'ltr', required: true },
    { key: 'annualShipmentCount', dir: 'ltr' },
  ],
};

/** The attachment categories of each profile (the required ones first), as the add screens ask for them. */
const ATTACHMENTS: Record<Kind, { category: string; required: boolean }[]> = {
  cb: [],
  external: [
    { category: 'commercialRegistration', required: true },
    { category: 'accreditationCertificate', required: true },
    { category: 'qualityManual', required: false },
  ],
};

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const day = (v: unknown): string => str(v).slice(0, 10);

/** The profile as the update call takes it: the stored data, with the form's values over it. */
function bodyOf(kind: Kind, f: Facility, form: Record<string, string>, files: Record<string, Attachment | null>): Record<string, unknown> {
  const d = f.details;
  const base: Record<string, unknown> =
    kind === 'cb'
      ? {
          nameAr: f.nameAr,
          nameEn: f.nameEn,
          countryCode: f.countryCode,
          city: f.city,
          address: d.address,
          registrationNumber: f.registrationNumber,
          acceptanceNumber: f.acceptanceNumber,
          notificationNumber: f.notificationNumber ?? undefined,
          certificateIssueDate: day(f.certificateIssueDate),
          certificateExpiryDate: day(f.certificateExpiryDate),
          iban: f.iban ?? undefined,
          categories: d.categories ?? [],
        }
      : { ...d, nameAr: f.nameAr, nameEn: f.nameEn, registrationNumber: f.registrationNumber, countryCode: f.countryCode, city: f.city };
  const edited = Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v.trim() === '' ? undefined : v.trim()]));
  const merged = { ...base, ...edited, publicId: f.publicId, attachments: attachmentsOf(f, files).map((a) => ({ id: a.id })) };
  return Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== null && v !== undefined));
}

/** The profile's attachments, with the ones chosen on this screen in place of those of the same category. */
function attachmentsOf(f: Facility, files: Record<string, Attachment | null>): Attachment[] {
  const kept = f.attachments.filter((a) => !(a.category in files));
  return [...kept, ...Object.values(files).filter((a): a is Attachment => !!a)];
}

function formOf(kind: Kind, f: Facility): Record<string, string> {
  const source: Record<string, unknown> = { ...f.details, ...f, certificateIssueDate: day(f.certificateIssueDate), certificateExpiryDate: day(f.certificateExpiryDate) };
  return Object.fromEntries([...FIELDS[kind].map((x) => x.key), 'countryCode'].map((k) => [k, str(source[k])]));
}

/**
 * Edit screens of a conformity body (facility-profile/cb/{cbPublicId}/edit) and of an external factory
 * (facility-profile/external/{facilityPublicId}/edit): the profile's data prefilled, checked with the same schema
 * as the server's update call (ConformityBody/update, Facility/UpdateExternal), which also enforces who may edit.
 */
function EditFacilityPage({ kind, publicId }: { kind: Kind; publicId: string }) {
  const { t, i18n } = useTranslation(['facilities', 'records']);
  const navigate = useNavigate();
  const facility = useApi(facilityDetailsQuery(kind, publicId));
  const f = facility.data;
  const [form, setForm] = useState<Record<string, string> | null>(null);
  const [errors, setErrors] = useState<Record<string, FieldMessage | string>>({});
  const [failure, setFailure] = useState<Said[] | null>(null);
  const [pending, setPending] = useState(false);
  const [files, setFiles] = useState<Record<string, Attachment | null>>({});
  useEffect(() => {
    if (f && !form) setForm(formOf(kind, f));
  }, [f, form, kind]);
  if (!f || !form) return <PageContainer>{null}</PageContainer>;
  const profile = facilityProfilePath({ facilityType: f.facilityType, id: f.id, publicId: f.publicId });

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const body = bodyOf(kind, f, form, files);
    const parsed = (kind === 'cb' ? ZUpdateConformityBody : ZUpdateExternal).safeParse(body);
    const errs = parsed.success ? {} : fieldMessages(parsed.error.issues);
    setErrors(errs);
    if (Object.keys(errs).length) {
      setFailure(null);
      return;
    }
    setPending(true);
    setFailure(null);
    try {
      // The body passed the update call's own schema just above.
      const handleErrors = [400, 403, 409];
      await data(
        kind === 'cb'
          ? api.PUT('/api/ConformityBody/update', { body: body as never, handleErrors })
          : api.PUT('/api/Facility/UpdateExternal', { body: body as never, handleErrors }),
      );
      void navigate({ to: profile, search: { saved: 1 } as never });
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(serverFieldMessages(err.validationErrors));
        setFailure(saysOf(err));
      }
    } finally {
      setPending(false);
    }
  };

  const title = t(kind === 'cb' ? 'records:edit.cbTitle' : 'records:edit.externalTitle');
  return (
    <PageContainer>
      <PageHeader title={`${title} — ${nameIn(f, i18n.language)}`} breadcrumbs={[{ label: nameIn(f, i18n.language), to: profile }, { label: title }]} />
      <form onSubmit={(e) => void submit(e)} noValidate data-testid="edit-facility-form">
        <Stack gap="6">
          {failure && (
            <Alert.Root status="error" data-testid="form-error">
              <Alert.Indicator />
              <Alert.Description>{failure.map((m) => messageText(t, m)).join(' ')}</Alert.Description>
            </Alert.Root>
          )}
          <Card.Root>
            <Card.Body>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                {FIELDS[kind].map((x) => (
                  <FormField key={x.key} label={t(`facilities:fields.${x.key}`)} required={x.required} error={errors[x.key]}>
                    <Input name={x.key} dir={x.dir} type={x.type} value={form[x.key]} onChange={(e) => setForm({ ...form, [x.key]: e.target.value })} />
                  </FormField>
                ))}
                <FormField label={t('facilities:fields.country')} required error={errors.countryCode}>
                  <CountrySelect name="countryCode" value={form.countryCode} exclude={kind === 'external' ? ['SA'] : []} onChange={(countryCode) => setForm({ ...form, countryCode })} />
                </FormField>
              </SimpleGrid>
            </Card.Body>
          </Card.Root>
          {ATTACHMENTS[kind].length > 0 && (
            <Card.Root>
              <Card.Body>
                <Stack gap="3">
                  {ATTACHMENTS[kind].map(({ category, required }) => (
                    <AttachmentInput
                      key={category}
                      category={category}
                      required={required}
                      value={category in files ? files[category] : (f.attachments.find((a) => a.category === category) ?? null)}
                      onChange={(a) => setFiles({ ...files, [category]: a })}
                    />
                  ))}
                </Stack>
              </Card.Body>
            </Card.Root>
          )}
          {/* Room below the actions so the chat button (fixed at the bottom corner) never covers Save. */}
          <Flex justify="flex-end" gap="3" mb="24">
            <Button variant="outline" onClick={() => void navigate({ to: profile })}>
              {t('records:edit.cancel')}
            </Button>
            <Button type="submit" colorPalette="brand" loading={pending} data-testid="save-facility">
              {t('records:edit.save')}
            </Button>
          </Flex>
        </Stack>
      </form>
    </PageContainer>
  );
}

export const EditConformityBodyPage = () => <EditFacilityPage kind="cb" publicId={useRouteParams('facility-profile/cb/$cbPublicId/edit').cbPublicId} />;
export const EditExternalFacilityPage = () => <EditFacilityPage kind="external" publicId={useRouteParams('facility-profile/external/$facilityPublicId/edit').facilityPublicId} />;
