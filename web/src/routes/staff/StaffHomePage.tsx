import { useEffect, useState } from 'react';
import { NativeSelect, Stack, Tabs } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { ListSearch } from '../../components/ListSearch';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import type { RoleName } from '../../../../machines/roles';
import { useSession } from '../../session';
import { useUrlFilters } from '../records/url-filters';
import { RequestsTable } from '../requests/RequestsTable';

const QUEUES = ['registration', 'audit', 'committee'] as const;
type Queue = (typeof QUEUES)[number];
const TABS = ['waiting', 'mine', 'finished'] as const;
const SEARCH_BY = ['any', 'requestNumber', 'creatorName', 'brandName'] as const;
type SearchBy = (typeof SEARCH_BY)[number];
const FILTERS = ['queue', 'tab', 'by', 'q'] as const;

/** The queue a staff member works in, opened first: their department's (the registration queue for anyone else). */
function homeQueueOf(roles: readonly string[]): Queue {
  const has = (...names: RoleName[]) => names.some((r) => roles.includes(r));
  if (has('committeeMember')) return 'committee';
  if (has('auditEmployee', 'teamLeader', 'technicalAuditor')) return 'audit';
  return 'registration';
}

const oneOf = <T extends string>(list: readonly T[], value: string, fallback: T): T => ((list as readonly string[]).includes(value) ? (value as T) : fallback);

/**
 * The Halal-center staff home (halal-profile): the registration, audit and committee queues, each with the tabs
 * waiting / assigned to me / finished, search by request number, creator, brand or any, and the rows' assignment.
 * The queue, tab, search and page are in the URL: back from a request, a staff member is where they were.
 */
export function StaffHomePage() {
  const { t } = useTranslation(['requests', 'shell']);
  const session = useSession();
  const { values, page, set } = useUrlFilters(FILTERS);
  const queue = oneOf(QUEUES, values.queue, homeQueueOf(session?.user?.roles ?? []));
  const tab = oneOf(TABS, values.tab, 'waiting');
  const searchBy = oneOf(SEARCH_BY, values.by, 'any');
  const [by, setBy] = useState<SearchBy>(searchBy);
  useEffect(() => setBy(searchBy), [searchBy]);
  const pageSize = 10;
  const list = useApi(
    apiQuery('/api/queues/{queue}', {
      params: { path: { queue }, query: { tab, pageNumber: page, pageSize, ...(values.q ? { [searchBy]: values.q } : {}) } },
    }),
  );
  return (
    <PageContainer>
      <PageHeader title={t('requests:staff.title')} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t('requests:staff.title') }]} />
      <Stack gap="5">
        <Tabs.Root value={queue} onValueChange={(e) => set({ queue: e.value })} variant="enclosed">
          <Tabs.List>
            {QUEUES.map((q) => (
              <Tabs.Trigger key={q} value={q} data-testid={`queue-${q}`}>
                {t(`requests:staff.queues.${q}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
        <Tabs.Root value={tab} onValueChange={(e) => set({ tab: e.value })} variant="line">
          <Tabs.List>
            {TABS.map((x) => (
              <Tabs.Trigger key={x} value={x} data-testid={`tab-${x}`}>
                {t(`requests:staff.tabs.${x}`)}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
        </Tabs.Root>
        <ListSearch
          filters={{ values, set }}
          param="q"
          also={() => ({ by: by === 'any' ? '' : by })}
          label={t('requests:staff.searchText')}
          hideLabel
          placeholder={t('requests:staff.searchText')}
          testId="staff-search"
          inputProps={{ name: 'search' }}
          submitTestId="search-submit"
          gap="2"
          before={
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
          }
        />
        <RequestsTable
          rows={list.data?.items ?? []}
          total={list.data?.totalCount ?? 0} totalCapped={list.data?.totalCapped}
          page={page}
          pageSize={pageSize}
          loading={list.isLoading}
          onPageChange={(p) => set({ page: p })}
          rowActions={tab !== 'finished'}
          onChanged={() => void list.refetch()}
        />
      </Stack>
    </PageContainer>
  );
}
