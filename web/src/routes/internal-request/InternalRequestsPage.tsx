import { useState } from 'react';
import { Button, Stack } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { SERVICES, servicePath } from '../../../../machines/services';
import { startParams } from '../services/services';
import { apiQuery, useApi } from '../../api/query';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { useSelectedFacility, useSession, useCan } from '../../session';
import { Permissions as P } from '../../../../machines/permissions';
import { RequestsTable } from '../requests/RequestsTable';

/**
 * internal-halal-request: the internal facility's Halal certificate requests (staff: all of them), and a new
 * request for the selected (or the user's first) internal facility, which opens the wizard.
 */
export function InternalRequestsPage() {
  const { t } = useTranslation(['requests', 'shell']);
  const navigate = useNavigate();
  const session = useSession();
  const selected = useSelectedFacility();
  const mayRequest = useCan(P.internalRequest.request);
  const [page, setPage] = useState(1);
  const pageSize = 10;
  const list = useApi(
    apiQuery('/api/queues/{queue}', {
      params: { path: { queue: 'all' }, query: { tab: session?.isStaff ? 'waiting' : 'any', kind: 'internalCertificate', pageNumber: page, pageSize } },
    }),
  );
  const facility = selected?.facilityType === 'InternalFacility' ? selected.publicId : session?.facilityIds.find((f) => f.startsWith('inf-'));
  // A new request starts where the service registry says (the start screen prefills the facility's data).
  const start = async () => {
    if (!facility) return;
    await navigate({ to: servicePath(SERVICES.internalCertificate.routes.start, startParams(facility)) });
  };
  return (
    <PageContainer>
      <PageHeader
        title={t('requests:list.title')}
        breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t('requests:list.title') }]}
        actions={
          mayRequest && !session?.isStaff && facility ? (
            <Button colorPalette="brand" onClick={() => void start()} data-testid="new-request">
              {t('requests:list.new')}
            </Button>
          ) : null
        }
      />
      <Stack>
        <RequestsTable rows={list.data?.items ?? []} total={list.data?.totalCount ?? 0} totalCapped={list.data?.totalCapped} page={page} pageSize={pageSize} loading={list.isLoading} onPageChange={setPage} />
      </Stack>
    </PageContainer>
  );
}
