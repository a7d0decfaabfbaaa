import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { useSession } from '../../session';
import { RequestsTable } from './RequestsTable';

/** halal-request: every request the user may see (their facilities' requests; staff: the ones waiting anywhere). */
export function HalalRequestsPage() {
  const { t } = useTranslation(['requests', 'shell']);
  const session = useSession();
  const [page, setPage] = useState(1);
  const pageSize = 10;
  const list = useApi(
    apiQuery('/api/queues/{queue}', { params: { path: { queue: 'all' }, query: { tab: session?.isStaff ? 'waiting' : 'any', pageNumber: page, pageSize } } }),
  );
  return (
    <PageContainer>
      <PageHeader title={t('requests:list.allTitle')} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t('requests:list.allTitle') }]} />
      <RequestsTable rows={list.data?.items ?? []} total={list.data?.totalCount ?? 0} totalCapped={list.data?.totalCapped} page={page} pageSize={pageSize} loading={list.isLoading} onPageChange={setPage} />
    </PageContainer>
  );
}
