import { useState } from 'react';
import { Badge, Box, Link as ChakraLink, Stack, Tabs, Text } from '@chakra-ui/react';
import { queryOptions } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, apiLanguage, data } from '../../api/client';
import { useApi, type ApiResponse } from '../../api/query';
import { Ltr } from '../../components/Bidi';
import { DataTable, type Column } from '../../components/DataTable';
import { formatDate } from '../../lib/dates';
import type { CertificateSectionProps } from './certificate-sections';

const LIST = '/api/AddingSubCategoriesRequest/GetAddingSubCategoriesInformationRequests' as const;
type Row = ApiResponse<typeof LIST, 'post'>['items'][number];

/** The tabs of spec 02 section 2, as the server groups them: in progress, finished (whatever the outcome), drafts. */
const TABS = ['current', 'previous', 'draft'] as const;
type Tab = (typeof TABS)[number];

/**
 * The three steps of an add-categories request (machines/cb-add-categories.ts): submit (the draft), audit review (also
 * while returned to the CB), certificate issue (waiting, then issued). A deleted draft never left the first.
 */
const STEPS = [
  { key: 'submit', states: ['draft'] },
  { key: 'auditReview', states: ['auditReview'] },
  { key: 'issue', states: ['waitingIssue', 'issued'] },
] as const;
const stepOf = (state: string) => Math.max(0, STEPS.findIndex((s) => (s.states as readonly string[]).includes(state.split('.')[0]!)));

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
  const columns: Column<Row>[] = [
    {
      key: 'number',
      header: t('list.number'),
      render: (r) => (
        <ChakraLink asChild colorPalette="brand" fontWeight="semibold">
          <Link to="/requests/$requestId" params={{ requestId: r.id }} data-testid="request-link">
            <Ltr>{r.number}</Ltr>
          </Link>
        </ChakraLink>
      ),
    },
    { key: 'status', header: t('list.status'), render: (r) => <Badge data-testid="row-status">{r.status.label}</Badge> },
    {
      key: 'step',
      header: t('certificate.cbRequests.stepHeader'),
      render: (r) => {
        const n = stepOf(r.state);
        return (
          <Box as="span" data-testid="row-step" data-step={STEPS[n]!.key}>
            {t('certificate.cbRequests.step', { n: n + 1, count: STEPS.length, name: t(`certificate.cbRequests.steps.${STEPS[n]!.key}`) })}
          </Box>
        );
      },
    },
    { key: 'updated', header: t('list.updated'), render: (r) => formatDate(r.updatedAt, i18n.language) },
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
