import { useMemo, useState } from 'react';
import { Box, Button, Checkbox, Flex, Input, NativeSelect, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../components/form/FormField';
import type { FieldNode } from '../../components/form/schema-fields';
import { apiQuery, useApi } from '../../api/query';
import { Ltr, ltr } from '../../components/Bidi';
import { countryChoices, countryName, isCountryField } from '../../lib/countries';
import type { FacilityType } from '../../session/selected-facility';
import { nameIn } from '../facilities/labels';
import { FieldErrorText } from '../../components/form/FieldErrorText';
import { CheckList } from '../internal-request/StepFields';
import type { Errors } from '../../components/form/wizard-errors';
import { AttachmentUpload } from '../internal-request/AttachmentUpload';


type Row = Record<string, unknown>;

/** What a generated step needs besides its value: where uploads go and which facilities may be chosen. */
export interface FieldContext {
  /** The section (step) the fields belong to. */
  section: string;
  facilityPublicId: string;
  requestId: string;
  /** Names of the request's files by id. */
  fileName: (id: string) => string | undefined;
  /** The facility type a `factory.facilityPublicId` is chosen among. */
  factoryType: FacilityType;
  readOnly: boolean;
  errors: Errors;
}

const asText = (v: unknown): string => (v === undefined || v === null ? '' : Array.isArray(v) ? v.join('\n') : String(v));
const blank = (v: string) => (v.trim() === '' ? undefined : v);

/** The attachment category an upload field files under (machines/forms/attachment-categories.ts). */
function uploadCategory(path: string, name: string): string {
  if (name === 'planAttachmentId') return 'operationPlan';
  if (/invoices/.test(path)) return 'requestNote';
  return 'testCertificate';
}


/** One generated input: by the node's kind, with the special fields (files, facility, country) by name. */
function Leaf(p: { node: FieldNode; name: string; path: string; value: unknown; onChange: (v: unknown) => void; required: boolean; ctx: FieldContext }) {
  const { t, i18n } = useTranslation(['requests', 'forms', 'validation']);
  const { node, name, path, value, ctx } = p;
  const error = ctx.errors[path];
  // The name of a file uploaded here, shown before the request's file list is read again.
  const [uploaded, setUploaded] = useState<{ id: string; name: string } | null>(null);
  const label = t(`requests:fields.${name}`);
  const field = (input: React.ReactNode) => (
    <FormField label={label} required={p.required} error={error} readOnly={ctx.readOnly}>
      {input}
    </FormField>
  );
  if (name === 'attachmentId' || name === 'planAttachmentId') {
    const id = typeof value === 'string' ? value : '';
    return (
      <Box data-testid={`file-${path}`}>
        {ctx.readOnly ? (
          <Text fontWeight="medium">{label}</Text>
        ) : (
          <AttachmentUpload
            facilityPublicId={ctx.facilityPublicId}
            requestId={ctx.requestId}
            category={uploadCategory(path, name)}
            label={`${label}${p.required ? ' *' : ''}`}
            onUploaded={(a) => {
              setUploaded({ id: a.id, name: a.name });
              p.onChange(a.id);
            }}
            testId={`upload-${path}`}
            showUploaded={false}
          />
        )}
        {id && (
          <a href={`/api/attachments/${id}/download`} data-testid="attachment-name">
            <bdi>{ctx.fileName(id) ?? (uploaded?.id === id ? uploaded.name : undefined) ?? t('requests:wizard.attached')}</bdi>
          </a>
        )}
        {error && <FieldErrorText fontSize="sm" message={error} />}
      </Box>
    );
  }
  if (name === 'facilityPublicId' && ctx.section === 'factory') return field(<FacilityChoice name={path} value={asText(value)} onChange={p.onChange} type={ctx.factoryType} readOnly={ctx.readOnly} requestId={ctx.requestId} />);
  if (name === 'exportingCbPublicId') return field(<ConformityBodyChoice name={path} value={asText(value)} onChange={p.onChange} readOnly={ctx.readOnly} applicant={ctx.facilityPublicId} />);
  if (isCountryField(name)) {
    const sorted = countryChoices(i18n.language);
    return field(
      <NativeSelect.Root disabled={ctx.readOnly}>
        <NativeSelect.Field name={path} value={asText(value)} onChange={(e) => p.onChange(blank(e.target.value))}>
          <option value="">{t('requests:wizard.choose')}</option>
          {sorted.map(([code, n]) => (
            <option key={code} value={code}>
              {n}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>,
    );
  }
  switch (node.kind) {
    case 'select': {
      const labelOf = (o: string) => (node.catalogue ? t(`forms:${node.catalogue}.${o}`) : t(`requests:options.${name}.${o}`, { defaultValue: o }));
      return field(
        <NativeSelect.Root disabled={ctx.readOnly}>
          <NativeSelect.Field name={path} value={asText(value)} onChange={(e) => p.onChange(blank(e.target.value))}>
            <option value="">{t('requests:wizard.choose')}</option>
            {node.options.map((o) => (
              <option key={o} value={o}>
                {labelOf(o)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>,
      );
    }
    case 'checklist':
      // Not inside a Field: the tick boxes would all take the field's one input id.
      return (
        <Stack gap="2" gridColumn="1 / -1" role="group" aria-label={label}>
          <Text fontWeight="medium" fontSize="sm">
            {label}
            {p.required ? ' *' : ''}
          </Text>
          <CheckList
            name={path}
            readOnly={ctx.readOnly}
            options={node.options.map((o) => ({ value: o, label: node.catalogue ? t(`forms:${node.catalogue}.${o}`) : t(`requests:options.${name}.${o}`, { defaultValue: o }) }))}
            value={Array.isArray(value) ? (value as string[]) : []}
            onChange={p.onChange}
          />
          {error && <FieldErrorText fontSize="sm" message={error} />}
        </Stack>
      );
    case 'checkbox':
      return (
        <Checkbox.Root checked={value === true} disabled={ctx.readOnly} onCheckedChange={(e) => p.onChange(!!e.checked)} data-testid={`check-${path}`}>
          <Checkbox.HiddenInput name={path} />
          <Checkbox.Control />
          <Checkbox.Label>{label}</Checkbox.Label>
        </Checkbox.Root>
      );
    case 'lines':
      return field(
        <Textarea
          name={path}
          rows={3}
          value={asText(value)}
          readOnly={ctx.readOnly}
          onChange={(e) => p.onChange(e.target.value.split('\n'))}
          onBlur={(e) => p.onChange(e.target.value.split('\n').map((s) => s.trim()).filter(Boolean))}
        />,
      );
    case 'date':
      return field(<Input type="date" dir="ltr" name={path} value={asText(value)} readOnly={ctx.readOnly} onChange={(e) => p.onChange(blank(e.target.value))} />);
    case 'number':
      return field(<Input name={path} inputMode="decimal" dir="ltr" value={asText(value)} readOnly={ctx.readOnly} onChange={(e) => p.onChange(blank(e.target.value))} />);
    default:
      return field(<Input name={path} dir={/En$/.test(name) ? 'ltr' : /Ar$/.test(name) ? 'rtl' : undefined} value={asText(value)} readOnly={ctx.readOnly} onChange={(e) => p.onChange(blank(e.target.value) ?? '')} />);
  }
}

/** A step's value generated from its schema node: objects as fields, lists with add and remove, leaves as inputs. */
export function SchemaFields(p: { node: FieldNode; path: string; value: unknown; onChange: (v: unknown) => void; ctx: FieldContext; name?: string; required?: boolean }) {
  const { t } = useTranslation(['requests', 'validation']);
  const { node, path, value, ctx } = p;
  const listError = ctx.errors[path];
  if (node.kind === 'object') {
    const obj = (value && typeof value === 'object' && !Array.isArray(value) ? value : {}) as Row;
    const leaves = node.fields.filter((f) => f.node.kind !== 'object' && f.node.kind !== 'list');
    const groups = node.fields.filter((f) => f.node.kind === 'object' || f.node.kind === 'list');
    const set = (name: string, v: unknown) => p.onChange({ ...obj, [name]: v });
    return (
      <Stack gap="4">
        {listError && !path.includes('.') && <FieldErrorText message={listError} />}
        {leaves.length > 0 && (
          <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
            {leaves.map((f) => (
              <Leaf key={f.name} node={f.node} name={f.name} path={`${path}.${f.name}`} value={obj[f.name]} onChange={(v) => set(f.name, v)} required={f.required} ctx={ctx} />
            ))}
          </SimpleGrid>
        )}
        {groups.map((f) => (
          <Box key={f.name} borderWidth="1px" borderRadius="md" p="4" data-testid={`group-${path}.${f.name}`}>
            <Text fontWeight="semibold" mb="3">
              {t(`requests:fields.${f.name}`)}
              {f.required ? ' *' : ''}
            </Text>
            <SchemaFields node={f.node} path={`${path}.${f.name}`} value={obj[f.name]} onChange={(v) => set(f.name, v)} ctx={ctx} name={f.name} required={f.required} />
          </Box>
        ))}
      </Stack>
    );
  }
  if (node.kind === 'list') {
    const rows = Array.isArray(value) ? (value as unknown[]) : [];
    return (
      <Stack gap="4">
        {listError && <FieldErrorText message={listError} />}
        {rows.map((row, i) => (
          <Box key={i} borderWidth="1px" borderRadius="md" p="4" data-testid={`${path}-row`}>
            <Flex justify="space-between" mb="2">
              <Text fontWeight="semibold">{t('requests:wizard.item', { n: i + 1 })}</Text>
              {!ctx.readOnly && (
                <Button size="xs" variant="ghost" colorPalette="red" onClick={() => p.onChange(rows.filter((_, j) => j !== i))} data-testid={`${path}-remove`}>
                  {t('requests:wizard.remove')}
                </Button>
              )}
            </Flex>
            <SchemaFields node={node.item} path={`${path}.${i}`} value={row} onChange={(v) => p.onChange(rows.map((r, j) => (j === i ? v : r)))} ctx={ctx} />
          </Box>
        ))}
        {!ctx.readOnly && (
          <Button alignSelf="start" variant="outline" onClick={() => p.onChange([...rows, {}])} data-testid={`${path}-add`}>
            {t('requests:wizard.addItem')}
          </Button>
        )}
      </Stack>
    );
  }
  return <Leaf node={node} name={p.name ?? path.split('.').pop()!} path={path} value={value} onChange={p.onChange} required={p.required ?? true} ctx={ctx} />;
}

/**
 * An accredited conformity body chosen by its name (the public list of spec 01 section 2), not typed as an id: those whose
 * designation is valid now. One chosen earlier that is no longer listed stays shown by its id.
 */
/**
 * The exporting conformity body: one whose designation is valid now; a CB's own shipment is exported under its own
 * designation (server-checks.ts exporterIssues), so a CB applicant is offered only itself.
 */
function ConformityBodyChoice(p: { name: string; value: string; onChange: (v: unknown) => void; readOnly: boolean; applicant: string }) {
  const { i18n } = useTranslation(['requests']);
  const list = useApi(apiQuery('/api/public/conformity-bodies', { params: { query: { pageNumber: 1, pageSize: 100 } } }));
  const designated = (list.data?.items ?? []).filter((cb) => cb.certificate.status === 'active' || cb.certificate.status === 'expiringSoon');
  const valid = designated.some((cb) => cb.publicId === p.applicant) ? designated.filter((cb) => cb.publicId === p.applicant) : designated;
  const sorted = [...valid].sort((a, b) => nameIn(a, i18n.language).localeCompare(nameIn(b, i18n.language), i18n.language));
  return <NamedChoice {...p} loaded={!!list.data} items={sorted.map((cb) => ({ id: cb.publicId, label: nameIn(cb, i18n.language) }))} />;
}

/**
 * A select of named records (a factory, a conformity body) storing the record's id: "choose" first, each record by the
 * name the reader reads, and, once the list is loaded, a stored id it does not hold shown as it is (a record no
 * longer listed, e.g. a body whose designation lapsed), so the draft never silently reads as unchosen.
 */
function NamedChoice(p: { name: string; value: string; onChange: (v: unknown) => void; readOnly: boolean; loaded: boolean; items: { id: string; label: string }[] }) {
  const { t } = useTranslation(['requests']);
  return (
    <Stack gap="2">
      <NativeSelect.Root disabled={p.readOnly}>
        <NativeSelect.Field name={p.name} value={p.value} onChange={(e) => p.onChange(blank(e.target.value))}>
          <option value="">{t('requests:wizard.choose')}</option>
          {p.items.map((item) => (
            <option key={item.id} value={item.id}>
              {item.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      {p.value && p.loaded && !p.items.some((item) => item.id === p.value) && (
        <Text fontSize="sm" color="fg.muted">
          <Ltr>{p.value}</Ltr>
        </Text>
      )}
    </Stack>
  );
}

/** The orders the factory list can be read in (spec 02 section 2); `all` keeps the server's order (oldest first). */
const FACILITY_SORTS = ['all', 'name', 'registrationNumber', 'city', 'country'] as const;
type FacilitySort = (typeof FACILITY_SORTS)[number];

/** A facility of the user's (of one type), searched by name, registration number or city and sorted by one of FACILITY_SORTS. */
function FacilityChoice(p: { name: string; value: string; onChange: (v: unknown) => void; type: FacilityType; readOnly: boolean; requestId: string }) {
  const { t, i18n } = useTranslation(['requests']);
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<FacilitySort>('all');
  // Only the factories this request may name (the save's own rule, asked by the server): a CB's shipment offers the
  // factories it certified.
  const list = useApi(apiQuery('/api/Facility/GetUserFacilities', { params: { query: { pageNumber: 1, pageSize: 100, forRequest: p.requestId } } }));
  const all = useMemo(() => (list.data?.items ?? []).filter((f) => f.facilityType === p.type), [list.data, p.type]);
  const needle = q.trim().toLowerCase();
  const found = all.filter(
    (f) => !needle || [f.nameAr, f.nameEn, f.registrationNumber ?? '', f.city ?? ''].some((s) => s.toLowerCase().includes(needle)) || f.publicId === p.value,
  );
  // Sorted as the reader reads them: names in the page's language, countries by their shown name.
  const key = (f: (typeof all)[number]): string =>
    sort === 'name' ? nameIn(f, i18n.language) : sort === 'registrationNumber' ? (f.registrationNumber ?? '') : sort === 'city' ? (f.city ?? '') : countryName(f.countryCode, i18n.language);
  const shown = sort === 'all' ? found : [...found].sort((a, b) => key(a).localeCompare(key(b), i18n.language, { numeric: true }));
  return (
    <Stack gap="2">
      {!p.readOnly && (
        <Flex gap="2" wrap="wrap">
          <Input size="sm" flex="1" minW="12rem" placeholder={t('requests:wizard.facilitySearch')} value={q} onChange={(e) => setQ(e.target.value)} data-testid="facility-search" />
          <NativeSelect.Root size="sm" width="auto">
            <NativeSelect.Field aria-label={t('requests:wizard.facilitySort')} value={sort} onChange={(e) => setSort(e.target.value as FacilitySort)} data-testid="facility-sort">
              {FACILITY_SORTS.map((s) => (
                <option key={s} value={s}>
                  {t(`requests:wizard.facilitySorts.${s}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Flex>
      )}
      <NamedChoice
        {...p}
        loaded={!!list.data}
        items={shown.map((f) => ({
          id: f.publicId,
          label: [nameIn(f, i18n.language), f.registrationNumber && ltr(f.registrationNumber), f.city, countryName(f.countryCode, i18n.language)].filter(Boolean).join(' — '),
        }))}
      />
    </Stack>
  );
}
