import { useEffect, useState } from 'react';
import { Badge, Box, Button, Checkbox, Dialog, Flex, Input, NativeSelect, Portal, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { fillVariables, variablesOf } from '../../../../machines/text-overrides';
import { api, data } from '../../api/client';
import { useRefusal } from '../../api/errors';
import { apiQuery, useApi } from '../../api/query';
import { DataTable, FormField, PageContainer, PageHeader, notify, usePaging, type Column } from '../../components';
import { loadTextOverrides } from '../../i18n';
import { AdminLinks } from '../admin/AdminLinks';
import { SAMPLES, type Lang, type TextEntry } from './texts-api';

const LANGS: Lang[] = ['ar', 'en'];
const dirOf = (lang: Lang) => (lang === 'ar' ? 'rtl' : 'ltr');

/** The text in force for a language: the override, else the bundled text. */
const inForce = (e: TextEntry, lang: Lang) => e.texts[lang]?.override ?? e.texts[lang]?.original ?? '';

/**
 * language-management (every UI string, by namespace) and text-template-management (the SMS and notification
 * texts the server sends): an administrator searches the bundled Arabic and English texts and overrides either
 * language, with a live preview; the server refuses a text that breaks the parity rule.
 */
export function TextsPage({ mode }: { mode: 'language' | 'templates' }) {
  const { t } = useTranslation(['admin', 'shell']);
  const [draft, setDraft] = useState({ search: '', namespace: '', overriddenOnly: false });
  const [filter, setFilter] = useState(draft);
  const [editing, setEditing] = useState<TextEntry | null>(null);
  const { page, pageSize, setPage, paging } = usePaging(25);
  const list = useApi(
    apiQuery('/api/admin/texts', {
      params: {
        query: {
          search: filter.search || undefined,
          namespace: filter.namespace || undefined,
          overriddenOnly: filter.overriddenOnly ? 'true' : undefined,
          templates: mode === 'templates' ? 'true' : undefined,
          skipCount: (page - 1) * pageSize,
          maxResultCount: pageSize,
        },
      },
    }),
  );

  const cell = (e: TextEntry, lang: Lang) => {
    const v = e.texts[lang];
    if (!v) return <Text color="fg.muted">—</Text>;
    return (
      <Stack gap="1" dir={dirOf(lang)} lang={lang} textAlign="start">
        <Text fontSize="sm" wordBreak="break-word" data-testid={`text-${lang}`}>
          {inForce(e, lang)}
        </Text>
        {v.override !== null && (
          <Badge colorPalette="orange" alignSelf="start" data-testid={`overridden-${lang}`}>
            {t('admin:texts.overridden')}
          </Badge>
        )}
      </Stack>
    );
  };

  const columns: Column<TextEntry>[] = [
    {
      key: 'key',
      header: t('admin:texts.key'),
      width: '22%',
      render: (e) => (
        <Text dir="ltr" fontFamily="mono" fontSize="xs" wordBreak="break-all">
          {e.namespace}:{e.key}
        </Text>
      ),
    },
    { key: 'ar', header: t('admin:texts.languages.ar'), render: (e) => cell(e, 'ar') },
    { key: 'en', header: t('admin:texts.languages.en'), render: (e) => cell(e, 'en') },
    {
      key: 'actions',
      header: '',
      align: 'end',
      render: (e) => (
        <Button size="xs" variant="outline" colorPalette="brand" onClick={() => setEditing(e)} data-testid={`edit-${e.namespace}:${e.key}`}>
          {t('admin:texts.edit')}
        </Button>
      ),
    },
  ];

  const title = t(mode === 'templates' ? 'shell:screens.textTemplateManagement' : 'shell:screens.languageManagement');
  return (
    <PageContainer>
      <PageHeader
        title={title}
        description={t(mode === 'templates' ? 'admin:texts.templatesDescription' : 'admin:texts.languageDescription')}
        breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: title }]}
      />
      <AdminLinks />
      <form
        data-testid="texts-filter"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(draft);
          setPage(1);
        }}
      >
        <Flex gap="3" wrap="wrap" align="end" mb="4">
          <FormField label={t('admin:texts.search')}>
            <Input name="search" value={draft.search} onChange={(e) => setDraft({ ...draft, search: e.target.value })} />
          </FormField>
          {mode === 'language' && (
            <FormField label={t('admin:texts.namespace')}>
              <NativeSelect.Root>
                <NativeSelect.Field name="namespace" value={draft.namespace} onChange={(e) => setDraft({ ...draft, namespace: e.target.value })}>
                  <option value="">{t('admin:texts.allNamespaces')}</option>
                  {(list.data?.namespaces ?? []).map((ns) => (
                    <option key={ns} value={ns}>
                      {ns}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
            </FormField>
          )}
          <Checkbox.Root checked={draft.overriddenOnly} onCheckedChange={(e) => setDraft({ ...draft, overriddenOnly: !!e.checked })} mb="2">
            <Checkbox.HiddenInput />
            <Checkbox.Control />
            <Checkbox.Label>{t('admin:texts.overriddenOnly')}</Checkbox.Label>
          </Checkbox.Root>
          <Button type="submit" colorPalette="brand" data-testid="texts-search">
            {t('admin:audit.searchButton')}
          </Button>
        </Flex>
      </form>
      {list.data && (
        <Text fontSize="sm" color="fg.muted" mb="2">
          {t('admin:texts.found', { count: list.data.totalCount })}
        </Text>
      )}
      <DataTable
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(e) => `${e.namespace}:${e.key}`}
        loading={list.isFetching && !list.data}
        emptyText={t('admin:texts.empty')}
        paging={paging(list.data?.totalCount ?? 0)}
        caption={title}
      />
      {editing && (
        <EditTextDialog
          entry={editing}
          template={mode === 'templates' || editing.template}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            await list.refetch();
          }}
        />
      )}
    </PageContainer>
  );
}

/** Both languages of one text side by side: the original, the new text, the variables to keep and a preview. */
function EditTextDialog({ entry, template, onClose, onSaved }: { entry: TextEntry; template: boolean; onClose: () => void; onSaved: () => Promise<void> }) {
  const { t } = useTranslation(['admin', 'common']);
  const [values, setValues] = useState<Record<Lang, string>>({ ar: inForce(entry, 'ar'), en: inForce(entry, 'en') });
  // A refusal per language (LANGS is fixed, so the hooks are always the same two).
  const refusals: Record<Lang, ReturnType<typeof useRefusal>> = { ar: useRefusal(), en: useRefusal() };
  const [pending, setPending] = useState(false);
  useEffect(() => setValues({ ar: inForce(entry, 'ar'), en: inForce(entry, 'en') }), [entry]);

  /** What the browser can already tell (the server checks again): empty, or other variables than the original's. */
  const problem = (lang: Lang): string | null => {
    const v = entry.texts[lang];
    if (!v) return null;
    if (!values[lang].trim()) return t('admin:texts.required');
    if (variablesOf(values[lang]).join() !== v.variables.join()) {
      return t('admin:texts.variablesDiffer', { expected: v.variables.map((x) => `{{${x}}}`).join(' ') || '—', interpolation: { skipOnVariables: true } });
    }
    return null;
  };
  const changed = LANGS.filter((l) => entry.texts[l] && values[l] !== inForce(entry, l));
  const blocked = changed.some((l) => problem(l) !== null);

  const save = async () => {
    setPending(true);
    for (const lang of LANGS) refusals[lang].clear();
    let ok = true;
    for (const lang of changed) {
      try {
        await data(api.PUT('/api/admin/texts', { body: { lang, namespace: entry.namespace, key: entry.key, value: values[lang] }, handleErrors: [400] }));
      } catch (e) {
        ok = false;
        refusals[lang].refuse(e);
      }
    }
    await loadTextOverrides();
    setPending(false);
    if (ok) {
      notify.success(t('admin:texts.saved'));
      await onSaved();
    }
  };

  const reset = async (lang: Lang) => {
    setPending(true);
    try {
      await data(api.POST('/api/admin/texts/reset', { body: { lang, namespace: entry.namespace, key: entry.key } }));
      await loadTextOverrides();
      notify.success(t('admin:texts.resetDone'));
      await onSaved();
    } catch {
      // the api client showed the error
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && !pending && onClose()} placement="center" size="xl" closeOnInteractOutside={false}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="text-editor">
            <Dialog.Header>
              <Dialog.Title>
                {t('admin:texts.editTitle')}{' '}
                <Text as="span" dir="ltr" fontFamily="mono" fontSize="sm">
                  {entry.namespace}:{entry.key}
                </Text>
              </Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
                {LANGS.map((lang) => {
                  const v = entry.texts[lang];
                  const error = refusals[lang].messages.join(' ') || (values[lang] !== inForce(entry, lang) ? problem(lang) : null);
                  return (
                    <Stack key={lang} gap="3" data-testid={`editor-${lang}`}>
                      <Text fontWeight="semibold">{t(`admin:texts.languages.${lang}`)}</Text>
                      {!v ? (
                        <Text color="fg.muted">{t('admin:texts.notInLanguage')}</Text>
                      ) : (
                        <>
                          <Box>
                            <Text fontSize="xs" color="fg.muted">
                              {t('admin:texts.original')}
                            </Text>
                            <Text fontSize="sm" dir={dirOf(lang)} lang={lang}>
                              {v.original}
                            </Text>
                          </Box>
                          <FormField label={t('admin:texts.newText')} error={error} helper={v.variables.length ? t('admin:texts.variables', { list: v.variables.map((x) => `{{${x}}}`).join(' '), interpolation: { skipOnVariables: true } }) : t('admin:texts.noVariables')}>
                            <Textarea
                              name={`value-${lang}`}
                              dir={dirOf(lang)}
                              lang={lang}
                              rows={template ? 5 : 3}
                              value={values[lang]}
                              onChange={(e) => setValues({ ...values, [lang]: e.target.value })}
                            />
                          </FormField>
                          <Box borderWidth="1px" borderRadius="md" p="3" bg="bg.muted">
                            <Text fontSize="xs" color="fg.muted" mb="1">
                              {t('admin:texts.preview')} — {t('admin:texts.previewHint')}
                            </Text>
                            <Text dir={dirOf(lang)} lang={lang} whiteSpace="pre-wrap" data-testid={`preview-${lang}`}>
                              {fillVariables(values[lang], SAMPLES)}
                            </Text>
                          </Box>
                          {v.override !== null && (
                            <Button size="sm" variant="outline" colorPalette="red" alignSelf="start" disabled={pending} onClick={() => void reset(lang)} data-testid={`reset-${lang}`}>
                              {t('admin:texts.reset')}
                            </Button>
                          )}
                        </>
                      )}
                    </Stack>
                  );
                })}
              </SimpleGrid>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={pending}>
                {t('admin:texts.cancel')}
              </Button>
              <Button colorPalette="brand" onClick={() => void save()} loading={pending} disabled={!changed.length || blocked} data-testid="text-save">
                {t('admin:texts.save')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
