import { useState } from 'react';
import { Button, Flex, Input, NativeSelect, Stack, Tabs } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { RequestsTable } from '../requests/RequestsTable';

const QUEUES = ['registration', 'audit', 'committee'] as const;
const TABS = ['waiting', 'mine', 'finished'] as const;
const SEARCH_BY = ['any', 'requestNumber', 'creatorName', 'brandName'] as const;
type SearchBy = (typeof SEARCH_BY)[number];

/**
 * The Halal-center staff home (halal-profile): the registration, audit and committee queues, each with the tabs
 * waiting / assigned to me / finished, search by request number, creator, brand or any, and the rows' assignment.
 */
export function StaffHomePage() {
  const { t } = useTranslation(['requests', 'shell']);
  const [queue, setQueue] = useState<(typeof QUEUES)[number]>('registration');
  const [tab, setTab] = useState<(typeof TABS)[number]>('waiting');
  const [page, setPage] = useState(1);
  const [by, setBy] = useState<SearchBy>('any');
  const [text, setText] = useState('');
  const [search, setSearch] = useState<{ by: SearchBy; text: string }>({ by: 'any', text: '' });
  const pageSize = 10;
  const list = useApi(
    apiQuery('/api/queues/{queue}', {
      params: { path: { queue }, query: { tab, pageNumber: page, pageSize, ...(search.text ? { [search.by]: search.text } : {}) } },
    }),
  );
  return (
    <PageContainer>
      <PageHeader title={t('requests:staff.title')} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t('requests:staff.title') }]} />
      <Stack gap="5">
        <Tabs.Root value={queue} onValueChange={(e) => { setQueue(e.value as typeof queue); setPage(1); }} variant="enclosed">
          <Tabs.List>
            {QUEUES.map((q) => (
              <Tabs.Trigger key={q} value={q} data-testid={`queue-${q}`}>
                {t(`requests:staff.queues.${q}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
        <Tabs.Root value={tab} onValueChange={(e) => { setTab(e.value as typeof tab); setPage(1); }} variant="line">
          <Tabs.List>
            {TABS.map((x) => (
              <Tabs.Trigger key={x} value={x} data-testid={`tab-${x}`}>
                {t(`requests:staff.tabs.${x}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
        <Flex as="form" gap="2" wrap="wrap" role="search" onSubmit={(e) => { e.preventDefault(); setPage(1); setSearch({ by, text: text.trim() }); }}>
          <NativeSelect.Root width="auto">
            <NativeSelect.Field name="searchBy" aria-label={t('requests:staff.searchBy')} value={by} onChange={(e) => setBy(e.target.value as SearchBy)}>
              {SEARCH_BY.map((s) => (
                <option key={s} value={s}>
                  {t(`requests:staff.search.${s}`)}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Input name="search" maxW="sm" value={text} onChange={(e) => setText(e.target.value)} aria-label={t('requests:staff.searchText')} placeholder={t('requests:staff.searchText')} />
          <Button type="submit" colorPalette="brand" data-testid="search-submit">
            {t('requests:staff.searchButton')}
          </Button>
        </Flex>
        <RequestsTable
          rows={list.data?.items ?? []}
          total={list.data?.totalCount ?? 0} totalCapped={list.data?.totalCapped}
          page={page}
          pageSize={pageSize}
          loading={list.isLoading}
          onPageChange={setPage}
          rowActions={tab !== 'finished'}
          onChanged={() => void list.refetch()}
        />
      </Stack>
    </PageContainer>
  );
}
