import { useState } from 'react';
import { Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { RequestsTable } from '../requests/RequestsTable';

/**
 * corrective-action-internal: the facility's requests waiting for the applicant (corrective actions among them);
 * each opens its request page, where the action bar offers "Submit corrective actions" when it is due.
 */
export function CorrectiveActionsPage() {
  const { t } = useTranslation(['requests', 'shell']);
  const [page, setPage] = useState(1);
  const pageSize = 10;
  const list = useApi(apiQuery('/api/queues/{queue}', { params: { path: { queue: 'applicant' }, query: { tab: 'mine', pageNumber: page, pageSize } } }));
  return (
    <PageContainer>
      <PageHeader title={t('requests:corrective.title')} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t('requests:corrective.title') }]} />
      <Text mb="4" color="fg.muted">
        {t('requests:corrective.help')}
      </Text>
      <RequestsTable rows={list.data?.items ?? []} total={list.data?.totalCount ?? 0} totalCapped={list.data?.totalCapped} page={page} pageSize={pageSize} loading={list.isLoading} onPageChange={setPage} />
    </PageContainer>
  );
}
