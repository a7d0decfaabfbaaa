import { useState } from 'react';
import { Box, Stack, Tabs, Text } from '@chakra-ui/react';
import { queryOptions } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, apiLanguage, data } from '../../api/client';
import { useApi, type ApiResponse } from '../../api/query';
import { DataTable, type Column } from '../../components/DataTable';
import { requestColumns } from '../requests/request-columns';
import type { CertificateSectionProps } from './certificate-sections';

const LIST = '/api/AddingSubCategoriesRequest/GetAddingSubCategoriesInformationRequests' as const;
type Row = ApiResponse<typeof LIST, 'post'>['items'][number];

/** The tabs of spec 02 section 2, as the server groups them: in progress, finished (whatever the outcome), drafts. */
const TABS = ['current', 'previous', 'draft'] as const;
type Tab = (typeof TABS)[number];

/** Beside a CB designation certificate's details: its add-categories requests by tab, each with its step of three. */
export function CbAddCategoriesRequests({ certificate }: CertificateSectionProps) {
  const { t } = useTranslation('requests');
  const [tab, setTab] = useState<Tab>('current');
  return (
    <Stack gap="2" data-testid="cb-add-categories-requests">
      <Text as="h2" fontWeight="semibold" fontSize="lg">
        {t('certificate.cbRequests.title')}
      </Text>
      <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value as Tab)} variant="line" lazyMount>
        <Tabs.List overflowX="auto" maxW="full">
          {TABS.map((k) => (
            <Tabs.Trigger key={k} value={k} data-testid={`cb-requests-tab-${k}`}>
              {t(`certificate.cbRequests.tabs.${k}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map((k) => (
          <Tabs.Content key={k} value={k}>
            <RequestsTab cbPublicId={certificate.holder.publicId} certificateId={certificate.id} tab={k} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Stack>
  );
}

function RequestsTab({ cbPublicId, certificateId, tab }: { cbPublicId: string; certificateId: string; tab: Tab }) {
  const { t, i18n } = useTranslation('requests');
  const [page, setPage] = useState(1);
  const pageSize = 10;
  const body = { cbPublicId, certificateId, tab, pageNumber: page, pageSize };
  const list = useApi(
    queryOptions({
      queryKey: [LIST, body, apiLanguage()] as const,
      queryFn: ({ signal }) => data(api.POST(LIST, { body, signal })),
    }),
  );
  const shared = requestColumns(t, i18n.language);
  // The step comes with the row: the server places the request among the service's three (machines/cb-add-categories.ts).
  const columns: Column<Row>[] = [
    shared.number,
    shared.status,
    {
      key: 'step',
      header: t('certificate.cbRequests.stepHeader'),
      // A request the server placed in none of the steps (step null) shows no step.
      render: ({ step }) =>
        step && (
          <Box as="span" data-testid="row-step" data-step={step.key}>
            {t('certificate.cbRequests.step', { n: step.index + 1, count: step.count, name: t(`certificate.cbRequests.steps.${step.key}`) })}
          </Box>
        ),
    },
    shared.updated,
  ];
  return (
    <Box pt="2">
      <DataTable
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(r) => r.id}
        loading={list.isLoading}
        emptyText={t(`certificate.cbRequests.empty.${tab}`)}
        paging={{ page, pageSize, total: list.data?.totalCount ?? 0, onPageChange: setPage }}
      />
    </Box>
  );
}
