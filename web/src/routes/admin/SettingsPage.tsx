import { useEffect, useState } from 'react';
import { Box, Button, Card, Heading, Input, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ZPortalSettings, type PortalSettings } from '../../../../machines/admin-settings';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { showProblem } from '../../components/problem-handler';
import { apiQuery, useApi } from '../../api/query';
import { FormField, PageContainer, PageHeader, fieldMessages, notify, type FieldMessage } from '../../components';
import { AdminLinks } from './AdminLinks';
import { formatDate } from '../../lib/dates';

/** The form's fields, by group; `percent` fields are edited in % (vatRate 0.15 is shown as 15). */
const GROUPS: { key: string; fields: { path: string; percent?: boolean }[] }[] = [
  {
    key: 'billing',
    fields: [{ path: 'vatRate', percent: true }, { path: 'paymentWindowHours' }],
  },
  {
    key: 'fees',
    fields: [
      'application',
      'auditPerAuditorDay',
      'internalCertificateYear',
      'externalCertificateYear',
      'cbAppointmentRequest',
      'cbDesignation',
      'cbRenewal',
      'shipmentPer27Tons',
      'markPerProductYear',
    ].map((k) => ({ path: `fees.${k}` })),
  },
  {
    key: 'time',
    fields: [
      { path: 'sessionTimeMinutes' },
      { path: 'sessionWarningCountdown' },
      { path: 'draftRetentionDays' },
      { path: 'expiringSoonDays' },
      { path: 'cbRenewalPromptDays' },
      { path: 'auditLogRetentionDays' },
    ],
  },
  {
    key: 'markPackages',
    fields: ['minTags', 'maxTags', 'step', 'baseProductsPerYear'].map((k) => ({ path: `markPackages.${k}` })),
  },
];
const FIELDS = GROUPS.flatMap((g) => g.fields);

const get = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((n, k) => (n as Record<string, unknown> | undefined)?.[k], o);
function set(o: Record<string, unknown>, path: string, v: unknown) {
  const keys = path.split('.');
  let node = o;
  for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Record<string, unknown>;
  node[keys.at(-1)!] = v;
}
/** Shown without float noise: 0.15 * 100 is 15, not 15.000000000000002. */
const shown = (n: number, percent?: boolean) => String(percent ? Math.round(n * 100 * 1e6) / 1e6 : n);

/** Holidays are edited one date (YYYY-MM-DD) per line or separated by commas. */
const HOLIDAYS = 'holidays';
function toForm(value: PortalSettings): Record<string, string> {
  return { ...Object.fromEntries(FIELDS.map((f) => [f.path, shown(Number(get(value, f.path)), f.percent)])), [HOLIDAYS]: (value.holidays ?? []).join('\n') };
}
function fromForm(form: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const raw = form[f.path].trim();
    const n = raw === '' ? Number.NaN : Number(raw);
    set(out, f.path, f.percent ? Math.round((n / 100) * 1e8) / 1e8 : n);
  }
  out[HOLIDAYS] = [...new Set((form[HOLIDAYS] ?? '').split(/[\s,]+/).filter(Boolean))].sort();
  return out;
}

/** setting-management: the business constants, validated here with the server's own schema, saved with a version. */
export function SettingsPage() {
  const { t, i18n } = useTranslation(['admin', 'shell']);
  const q = useApi(apiQuery('/api/admin/settings'));
  const [form, setForm] = useState<Record<string, string> | null>(null);
  const [errors, setErrors] = useState<Record<string, FieldMessage | string>>({});
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (q.data) setForm(toForm(q.data.value));
  }, [q.data]);

  const save = async () => {
    if (!form || !q.data) return;
    const value = fromForm(form);
    const parsed = ZPortalSettings.safeParse(value);
    if (!parsed.success) {
      // The schema's own keys (settings.maxBelowMin) are in the admin namespace; the rest are validation keys.
      const messages = fieldMessages(parsed.error.issues);
      setErrors(Object.fromEntries(Object.entries(messages).map(([k, m]) => [k, m.key.startsWith('settings.') ? t(`admin:${m.key}`) : m])));
      return;
    }
    setErrors({});
    setPending(true);
    try {
      const res = await data(api.PUT('/api/admin/settings', { body: { value: parsed.data, expectedVersion: q.data.version }, handleErrors: [400, 409] }));
      notify.success(t('admin:settings.saved', { count: res.changes.length }));
      await q.refetch();
    } catch (e) {
      if (e instanceof ApiError) {
        const byField: Record<string, string> = {};
        for (const v of e.validationErrors) for (const m of v.members) byField[m] = v.message;
        setErrors(byField);
        showProblem(e);
      }
    } finally {
      setPending(false);
    }
  };

  const title = t('shell:screens.settingManagement');
  return (
    <PageContainer>
      <PageHeader title={title} description={t('admin:settings.description')} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: title }]} />
      <AdminLinks />
      {form && q.data && (
        <form
          data-testid="settings-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <Stack gap="5">
            {q.data.updatedAt && (
              <Text fontSize="sm" color="fg.muted" data-testid="settings-version">
                {t('admin:settings.version', { version: q.data.version, at: formatDate(q.data.updatedAt, i18n.language, 'stamp') })}
              </Text>
            )}
            {GROUPS.map((g) => (
              <Card.Root key={g.key}>
                <Card.Body>
                  <Heading as="h2" size="md" mb="4">
                    {t(`admin:settings.groups.${g.key}`)}
                  </Heading>
                  <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4">
                    {g.fields.map((f) => (
                      <FormField
                        key={f.path}
                        label={t(`admin:settings.fields.${f.path}`)}
                        required
                        error={errors[f.path] ?? null}
                        helper={t('admin:settings.default', { value: shown(Number(get(q.data!.defaults, f.path)), f.percent) })}
                      >
                        <Input
                          name={f.path}
                          inputMode="decimal"
                          dir="ltr"
                          value={form[f.path]}
                          onChange={(e) => setForm({ ...form, [f.path]: e.target.value })}
                        />
                      </FormField>
                    ))}
                  </SimpleGrid>
                </Card.Body>
              </Card.Root>
            ))}
            <Card.Root>
              <Card.Body>
                <Heading as="h2" size="md" mb="4">
                  {t('admin:settings.groups.holidays')}
                </Heading>
                <FormField
                  label={t('admin:settings.fields.holidays')}
                  error={Object.entries(errors).find(([k]) => k === HOLIDAYS || k.startsWith(`${HOLIDAYS}.`))?.[1] ?? null}
                  helper={t('admin:settings.holidaysHelp')}
                >
                  <Textarea name={HOLIDAYS} dir="ltr" rows={4} value={form[HOLIDAYS]} onChange={(e) => setForm({ ...form, [HOLIDAYS]: e.target.value })} />
                </FormField>
              </Card.Body>
            </Card.Root>
            <Box>
              <Button type="submit" colorPalette="brand" loading={pending} data-testid="settings-save">
                {t('admin:settings.save')}
              </Button>
            </Box>
          </Stack>
        </form>
      )}
    </PageContainer>
  );
}
