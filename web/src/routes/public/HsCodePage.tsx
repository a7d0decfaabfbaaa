import { useEffect, useId, useState } from 'react';
import { Badge, Box, Checkbox, Field, NativeSelect, Stack, Tabs, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi, type ApiResponse, type GetInit } from '../../api/query';
import { DataTable, usePaging, type Column } from '../../components/DataTable';
import { ListSearch } from '../../components/ListSearch';
import { HsTree } from '../../components/public/HsTree';
import { PublicPage } from '../../components/public/PublicPage';

type HsItem = ApiResponse<'/api/public/hs-codes'>['items'][number];
type HsQuery = NonNullable<NonNullable<GetInit<'/api/public/hs-codes'>['params']>['query']>;

/** Waits until the visitor stops typing before searching. */
function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** HS codes (spec 02: list with search and a count of matches), as a searchable list and as a tree. */
export function HsCodePage() {
  const { t, i18n } = useTranslation('public');
  const levelId = useId();
  const [view, setView] = useState('list');
  const [q, setQ] = useState('');
  const [level, setLevel] = useState('');
  const [halalOnly, setHalalOnly] = useState(false);
  const { page, pageSize, setPage, paging } = usePaging();
  const query = useDebounced(q.trim(), 300);
  useEffect(() => {
    setPage(1);
  }, [query, level, halalOnly]);

  const { data, isFetching: loading } = useApi(
    apiQuery('/api/public/hs-codes', {
      params: { query: { q: query || undefined, level: (level || undefined) as HsQuery['level'], halalOnly: halalOnly ? 'true' : undefined, pageNumber: page, pageSize } },
    }),
  );
  const tree = useApi(apiQuery('/api/public/hs-codes/tree'), { enabled: view === 'tree' });
  const ar = i18n.language === 'ar';

  const columns: Column<HsItem>[] = [
    {
      key: 'code',
      header: t('hs.code'),
      width: '9rem',
      render: (r) => (
        <Text as="span" fontFamily="mono" fontWeight="semibold" dir="ltr">
          {r.code}
        </Text>
      ),
    },
    {
      key: 'description',
      header: t('hs.description'),
      render: (r) =>
        ar && r.descriptionAr ? r.descriptionAr : <span lang={ar ? 'en' : undefined}>{r.descriptionEn}</span>,
    },
    { key: 'level', header: t('hs.level'), width: '8rem', render: (r) => t(`hs.levelName.${r.level}`) },
    {
      key: 'halal',
      header: t('hs.halal'),
      width: '9rem',
      render: (r) =>
        r.halal ? (
          <Badge colorPalette="green" data-testid="hs-halal">
            {t('hs.eligible')}
          </Badge>
        ) : (
          <Badge colorPalette="gray">{t('hs.notEligible')}</Badge>
        ),
    },
  ];

  return (
    <PublicPage pageKey="hs-code" fallbackTitle={t('nav.hsCode')}>
      <Tabs.Root value={view} onValueChange={(e) => setView(e.value)} variant="enclosed" lazyMount>
        <Tabs.List aria-label={t('hs.viewLabel')}>
          <Tabs.Trigger value="list" data-testid="hs-view-list">
            {t('hs.viewList')}
          </Tabs.Trigger>
          <Tabs.Trigger value="tree" data-testid="hs-view-tree">
            {t('hs.viewTree')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="list">
          <Stack gap="4">
            <ListSearch
              value={q}
              onValueChange={setQ}
              label={t('hs.searchLabel')}
              placeholder={t('hs.searchPlaceholder')}
              testId="hs-search"
              inputProps={{ type: 'search', maxLength: 100, bg: 'bg' }}
              gap="4"
              direction={{ base: 'column', md: 'row' }}
              align={{ base: 'stretch', md: 'flex-end' }}
            >
              <Field.Root flex="1">
                <Field.Label htmlFor={levelId}>{t('hs.level')}</Field.Label>
                <NativeSelect.Root bg="bg">
                  <NativeSelect.Field id={levelId} value={level} onChange={(e) => setLevel(e.target.value)} data-testid="hs-level">
                    <option value="">{t('hs.levels.all')}</option>
                    <option value="2">{t('hs.levels.2')}</option>
                    <option value="4">{t('hs.levels.4')}</option>
                    <option value="6">{t('hs.levels.6')}</option>
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
              <Checkbox.Root checked={halalOnly} onCheckedChange={(e) => setHalalOnly(!!e.checked)} pb="2" data-testid="hs-halal-only">
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{t('hs.halalOnly')}</Checkbox.Label>
              </Checkbox.Root>
            </ListSearch>
            {/* One line tall before the count arrives, so the table below does not move when it does. */}
            <Box aria-live="polite" aria-atomic="true" minH="6">
              {data && (
                <Text fontWeight="semibold" data-testid="hs-count" data-count={data.totalCount}>
                  {t('hs.count', { count: data.totalCount })}
                  <Text as="span" fontWeight="normal" color="fg.muted">
                    {' · '}
                    {t('hs.halalCount', { count: data.halalCount })}
                  </Text>
                </Text>
              )}
            </Box>
            <DataTable
              caption={t('nav.hsCode')}
              columns={columns}
              rows={data?.items ?? []}
              rowKey={(r) => r.code}
              loading={loading && !data}
              paging={paging(data?.totalCount ?? 0)}
            />
          </Stack>
        </Tabs.Content>
        <Tabs.Content value="tree">{tree.data && <HsTree sections={tree.data.items} />}</Tabs.Content>
      </Tabs.Root>
      <Stack gap="1" mt="6" fontSize="sm" color="fg.muted">
        {ar && <Text>{t('hs.englishOnly')}</Text>}
        <Text>{t('hs.source')}</Text>
      </Stack>
    </PublicPage>
  );
}
