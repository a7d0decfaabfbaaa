import { createContext, useContext } from 'react';
import { Box, Heading, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ChangeState, changeOf, listChanges } from './data-changes';
import { useAttachmentNames, type AttachmentInfo } from './attachment-names';
import { CardCell, CardHeader, cardBody, cardRow, cardTable } from '../../components/CardTable';
import { countryName, isCountryField } from '../../lib/countries';
import { currentLanguage, listSeparator } from '../../i18n';

/**
 * The request data by section, read-only. With a `baseline` (the data when the request was returned), changed
 * fields and list items are marked: Modified and Added highlighted, Deleted struck through (spec 01 section 3).
 */
export function RequestDataView({
  data,
  baseline,
  order = [],
  facilityNames = {},
}: {
  data: Record<string, unknown>;
  baseline: Record<string, unknown> | null;
  order?: readonly string[];
  /** Names of the facilities the data names by public id (GET /api/requests/{id} facilityNames). */
  facilityNames?: FacilityNames;
}) {
  const { t } = useTranslation('requests');
  // The wizard's order first (the kind's sections), anything else after it.
  const rank = (s: string) => (order.includes(s) ? order.indexOf(s) : order.length);
  const sections = [...new Set([...Object.keys(data), ...Object.keys(baseline ?? {})])].sort((a, b) => rank(a) - rank(b));
  if (sections.length === 0) return <Text color="fg.muted">{t('data.empty')}</Text>;
  return (
    <FacilityNamesContext.Provider value={facilityNames}>
      <Stack gap="6" data-testid="request-data">
        {sections.map((s) => (
          <Box key={s} as="section" borderWidth="1px" borderRadius="md" p="4" data-section={s}>
            <Heading as="h3" size="md" mb="3">
              {t(`sections.${s}`, { defaultValue: s })}
            </Heading>
            <Value field={s} value={data[s]} before={baseline ? (baseline[s] ?? undefined) : undefined} compare={!!baseline} />
          </Box>
        ))}
      </Stack>
    </FacilityNamesContext.Provider>
  );
}

export type FacilityNames = Readonly<Record<string, { nameAr: string; nameEn: string }>>;
const FacilityNamesContext = createContext<FacilityNames>({});

const STYLE: Record<ChangeState, { bg?: string; textDecoration?: string; label?: string }> = {
  [ChangeState.Unchanged]: {},
  [ChangeState.Modified]: { bg: 'yellow.subtle', label: 'modified' },
  [ChangeState.Added]: { bg: 'green.subtle', label: 'added' },
  [ChangeState.Deleted]: { bg: 'red.subtle', textDecoration: 'line-through', label: 'deleted' },
};

function Marked({ state, children }: { state: ChangeState; children: React.ReactNode }) {
  const { t } = useTranslation('requests');
  const s = STYLE[state];
  if (!s.label) return <>{children}</>;
  return (
    <Box bg={s.bg} textDecoration={s.textDecoration} borderRadius="sm" px="1" data-change={s.label} title={t(`changes.${s.label}`)}>
      {children}
    </Box>
  );
}

type T = (k: string, o?: Record<string, unknown>) => string;

/**
 * Codes shown by their names: categories, units, operations, attachment categories, countries, the wizard's choices
 * and a facility chosen from a list (its name in the reader's language, not its public id).
 */
export function named(field: string | undefined, v: unknown, t: T, facilities: FacilityNames = {}, lang = currentLanguage()): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  if (field && typeof v === 'string' && isCountryField(field)) return countryName(v, lang);
  if ((field === 'facilityPublicId' || field === 'exportingCbPublicId') && typeof v === 'string' && facilities[v]) return lang === 'ar' ? facilities[v].nameAr : facilities[v].nameEn;
  // A choice the wizard offered (shipping method, goods, payment way ...) reads as the wizard labelled it.
  const option = field ? t(`requests:options.${field}.${v}`, { defaultValue: '' }) : '';
  if (option) return option;
  const ns = { category: 'forms:category', unit: 'forms:unit', operations: 'forms:operation', operation: 'forms:operation', items: undefined } as Record<string, string | undefined>;
  if (field === 'attachmentCategory') return t(`forms:attachmentCategory.${v}`, { defaultValue: String(v) });
  const prefix = field ? ns[field] : undefined;
  return prefix ? t(`${prefix}.${v}`, { defaultValue: String(v) }) : undefined;
}

function scalar(v: unknown, t: T, field?: string, facilities?: FacilityNames): string {
  const name = named(field, v, t, facilities);
  if (name !== undefined) return name;
  if (v === true) return t('data.yes');
  if (v === false) return t('data.no');
  if (v === null || v === undefined || v === '') return '—';
  return String(v);
}

function Value({ field, value, before, compare }: { field?: string; value: unknown; before: unknown; compare: boolean }) {
  const { t } = useTranslation(['requests', 'forms']);
  const files = useAttachmentNames();
  const facilities = useContext(FacilityNamesContext);
  if (Array.isArray(value) || Array.isArray(before)) {
    const items = listChanges(compare ? ((before as unknown[] | undefined) ?? []) : undefined, (value as unknown[] | undefined) ?? []);
    if (items.length === 0) return <Text color="fg.muted">—</Text>;
    const objects = items.every((i) => i.value && typeof i.value === 'object' && !Array.isArray(i.value));
    if (!objects) {
      return (
        <Stack gap="1" as="ul" ps="4">
          {items.map((i, n) => (
            <Box as="li" key={n}>
              <Marked state={i.state}>
                <bdi>{scalar(i.value, t, field === 'items' || field === 'operations' ? 'operations' : field)}</bdi>
              </Marked>
            </Box>
          ))}
        </Stack>
      );
    }
    const columns = [...new Set(items.flatMap((i) => Object.keys(i.value as object)))];
    const columnName = (c: string) => t(`fields.${c}`, { defaultValue: c });
    return (
      // A wide table scrolls on its own (a card per item on a phone); the region is focusable so keyboard users can scroll it too.
      <Box overflowX="auto" tabIndex={0} role="region" aria-label={t(`sections.${field}`, { defaultValue: field ?? '' })}>
        <Table.Root size="sm" variant="outline" {...cardTable}>
          <CardHeader columns={columns.map((c) => ({ key: c, label: columnName(c) }))} />
          <Table.Body {...cardBody}>
            {items.map((i, n) => {
              const s = STYLE[i.state];
              return (
                <Table.Row key={n} {...cardRow} bg={s.bg} textDecoration={s.textDecoration} data-change={s.label}>
                  {columns.map((c) => (
                    <CardCell key={c} label={columnName(c)}>
                      {cell(c, (i.value as Record<string, unknown>)[c], field, t, files, facilities)}
                    </CardCell>
                  ))}
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      </Box>
    );
  }
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const base = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(obj), ...(compare ? Object.keys(base) : [])])];
    return (
      <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
        {keys.map((k) => (
          <Box key={k}>
            <Text fontSize="sm" color="fg.muted">
              {t(`fields.${k}`, { defaultValue: k })}
            </Text>
            <Marked state={compare ? changeOf(base[k], obj[k]) : ChangeState.Unchanged}>
              {obj[k] !== null && typeof obj[k] === 'object' ? (
                <Value field={field === 'operations' && k === 'items' ? 'operations' : k} value={obj[k]} before={base[k]} compare={compare} />
              ) : (
                <Text>
                  <bdi>{scalar(obj[k] ?? base[k], t, k, facilities)}</bdi>
                </Text>
              )}
            </Marked>
          </Box>
        ))}
      </SimpleGrid>
    );
  }
  return (
    <Marked state={compare ? changeOf(before, value) : ChangeState.Unchanged}>
      <bdi>{scalar(value, t)}</bdi>
    </Marked>
  );
}

/** One table cell; an attachment's id is its download link, its category a name. */
function cell(column: string, v: unknown, section: string | undefined, t: T, files: ReadonlyMap<string, AttachmentInfo>, facilities: FacilityNames): React.ReactNode {
  if (isAttachmentRef(section, column, v)) {
    return (
      <a href={`/api/attachments/${v}/download`} data-testid="attachment-link">
        <bdi>{files.get(v)?.name ?? t('requests:wizard.attached')}</bdi>
      </a>
    );
  }
  const field = section === 'attachments' && column === 'category' ? 'attachmentCategory' : column;
  if (Array.isArray(v)) return v.map((x) => scalar(x, t, column === 'subCategories' ? 'category' : field)).join(listSeparator());
  if (v && typeof v === 'object') return JSON.stringify(v);
  return <bdi>{scalar(v, t, field, facilities)}</bdi>;
}

/** An attachment reference of any service: `id` in an attachments list, or a field named `...attachmentId`. */
const isAttachmentRef = (section: string | undefined, column: string, v: unknown): v is string =>
  typeof v === 'string' && ((section === 'attachments' && column === 'id') || /attachmentId$/i.test(column));
