import { useState } from 'react';
import { Badge, Box, Button, Flex, Group, Link as ChakraLink, NativeSelect, Stack, Tabs, Text } from '@chakra-ui/react';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { servicePath, servicesFor } from '../../../../machines/services';
import { Ltr } from '../../components/Bidi';
import { DataTable, type Column } from '../../components/DataTable';
import { ListSearch } from '../../components/ListSearch';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { facilityProfilePath } from '../../session/selected-facility';
import { OpenRenewalLink } from '../certificates/OpenRenewalLink';
import { useMemberFacility } from '../facilities/facilities-api';
import { nameIn } from '../facilities/labels';
import { useOptionalRouteParams } from '../../route-params';
import type { BillView } from '../payments/BillsPanel';
import { RequestsTable } from '../requests/RequestsTable';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';
import { certificateServices, startLink, startParams, startableServices } from './services';
import { useUrlFilters } from '../records/url-filters';
import { formatDate } from '../../lib/dates';
import { moneyFormat } from '../../lib/numbers';

const VIEWS = ['requests', 'certificates', 'marks', 'bills'] as const;
type View = (typeof VIEWS)[number];
/** Previous requests (spec 02 section 2): all, drafts, active (submitted, not finished), completed; filtered by the server. */
const STATUS_TABS = ['any', 'draft', 'active', 'completed'] as const;
type StatusTab = (typeof STATUS_TABS)[number];
/** `tab` is the page's view; kept so a filter change stays on the requests view. */
const REQUEST_FILTERS = ['tab', 'state', 'q', 'kind'] as const;
const FACILITY_TYPE = { InternalFacility: 'internal', ExternalFacility: 'external', ConformityBody: 'cb' } as const;

/**
 * facility-requests/{publicId}: everything a facility has going on, for each of its users (a sub user sees the main
 * user's requests too): its requests with search and status tabs, its certificates and Halal marks (with the
 * services that start from a certificate), and its invoices. The server keeps facilities apart (facilityId filter).
 */
export function FacilityRequestsPage() {
  const params = useOptionalRouteParams('facilityPublicId', 'cbPublicId');
  const publicId = params.facilityPublicId ?? params.cbPublicId ?? '';
  const search = useSearch({ strict: false }) as { tab?: string };
  const navigate = useNavigate();
  const { t, i18n } = useTranslation(['requests', 'facilities', 'shell', 'payments']);
  const view: View = (VIEWS as readonly string[]).includes(search.tab ?? '') ? (search.tab as View) : 'requests';
  const { me, facility } = useMemberFacility(publicId);
  const f = facility.data;
  const name = f ? nameIn(f, i18n.language) : '';
  const title = t('requests:list.facilityTitle');
  const services = me.data ? startableServices(FACILITY_TYPE[me.data.facilityType], me.data.permissions) : [];

  return (
    <PageContainer>
      <PageHeader
        title={name ? `${title} — ${name}` : title}
        breadcrumbs={[
          { label: t('facilities:associated.title'), to: '/associated-facilities' },
          ...(f ? [{ label: name, to: facilityProfilePath({ facilityType: f.facilityType, id: f.id, publicId }) }] : []),
          { label: title },
        ]}
        actions={services.map((d) => (
          <Button key={d.kind} asChild colorPalette="brand" data-testid={`start-${d.kind}`}>
            <Link to={servicePath(d.routes.start, startParams(publicId))}>{t('requests:start.new', { service: t(d.titleKey) })}</Link>
          </Button>
        ))}
      />
      <Tabs.Root value={view} onValueChange={(e) => void navigate({ to: '.', search: { tab: e.value }, replace: true })} variant="line" lazyMount>
        <Tabs.List overflowX="auto" maxW="full">
          {VIEWS.map((v) => (
            <Tabs.Trigger key={v} value={v} data-testid={`view-${v}`}>
              {t(`requests:facilityViews.${v}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="requests">
          <RequestsView facilityId={publicId} facilityType={me.data ? FACILITY_TYPE[me.data.facilityType] : null} />
        </Tabs.Content>
        <Tabs.Content value="certificates">
          <EntitiesView facilityId={publicId} kind="certificate" facilityType={me.data ? FACILITY_TYPE[me.data.facilityType] : null} permissions={me.data?.permissions ?? []} />
        </Tabs.Content>
        <Tabs.Content value="marks">
          <EntitiesView facilityId={publicId} kind="halalMark" facilityType={null} permissions={[]} />
        </Tabs.Content>
        <Tabs.Content value="bills">
          <BillsView facilityId={publicId} />
        </Tabs.Content>
      </Tabs.Root>
    </PageContainer>
  );
}

/**
 * The facility's requests: status tabs, one service (e.g. a CB's renewal requests, spec 02 section 2) and a search by
 * request number, creator or brand.
 */
function RequestsView({ facilityId, facilityType }: { facilityId: string; facilityType: 'internal' | 'external' | 'cb' | null }) {
  const { t } = useTranslation('requests');
  const kinds = facilityType ? servicesFor(facilityType) : [];
  // The tab and the search live in the URL, so reloading, sharing or coming back keeps the same list.
  const { values, page, set } = useUrlFilters(REQUEST_FILTERS);
  const tab: StatusTab = (STATUS_TABS as readonly string[]).includes(values.state) ? (values.state as StatusTab) : 'any';
  const pageSize = 10;
  const list = useApi(
    apiQuery('/api/queues/{queue}', {
      params: { path: { queue: 'all' }, query: { facilityId, tab, kind: values.kind || undefined, any: values.q || undefined, pageNumber: page, pageSize } },
    }),
  );
  return (
    <Stack gap="4" pt="2">
      <Flex gap="3" wrap="wrap" align="center">
        <Group attached role="group" aria-label={t('requests:statusTabs.label')}>
          {STATUS_TABS.map((s) => (
            <Button
              key={s}
              size="sm"
              variant={tab === s ? 'solid' : 'outline'}
              colorPalette="brand"
              aria-pressed={tab === s}
              onClick={() => set({ state: s === 'any' ? '' : s })}
              data-testid={`status-${s}`}
            >
              {t(`requests:statusTabs.${s}`)}
            </Button>
          ))}
        </Group>
        <NativeSelect.Root width="auto" size="sm">
          <NativeSelect.Field name="kind" aria-label={t('requests:list.kind')} value={values.kind} onChange={(e) => set({ kind: e.target.value })} data-testid="requests-kind">
            <option value="">{t('requests:list.allServices')}</option>
            {kinds.map((d) => (
              <option key={d.kind} value={d.kind}>
                {t(d.titleKey)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        <ListSearch
          filters={{ values, set }}
          param="q"
          label={t('requests:list.search')}
          hideLabel
          placeholder={t('requests:list.searchPlaceholder')}
          testId="requests-search"
          flex="1"
          minW="56"
          gap="2"
        />
      </Flex>
      <RequestsTable rows={list.data?.items ?? []} total={list.data?.totalCount ?? 0} totalCapped={list.data?.totalCapped} page={page} pageSize={pageSize} loading={list.isLoading} onPageChange={(p) => set({ page: p })} />
    </Stack>
  );
}

type CertificateRow = ApiResponse<'/api/certificates'>['items'][number];

/**
 * The certificates (or Halal marks) the facility holds, newest first. Each certificate offers the services whose
 * subject accepts a certificate of its kind (a CB's designation certificate: renewal and added categories, never an
 * external facility's services); a renewal already open is linked by its number instead of offered again.
 */
function EntitiesView(p: { facilityId: string; kind: 'certificate' | 'halalMark'; facilityType: 'internal' | 'external' | 'cb' | null; permissions: string[] }) {
  const { t, i18n } = useTranslation(['requests', 'services']);
  const [page, setPage] = useState(1);
  const pageSize = 10;
  const list = useApi(
    apiQuery('/api/certificates', {
      params: { query: { heldBy: p.facilityId, kind: p.kind === 'halalMark' ? 'halalMark' : undefined, pageNumber: page, pageSize } },
    }),
  );
  const servicesOf = (r: CertificateRow) => (p.facilityType && p.kind === 'certificate' ? certificateServices(p.facilityType, p.permissions, r) : []);
  const columns: Column<CertificateRow>[] = [
    {
      key: 'number',
      header: t(p.kind === 'certificate' ? 'requests:list.certificateNumber' : 'requests:list.markNumber'),
      render: (r) => (
        <ChakraLink asChild colorPalette="brand" fontWeight="semibold">
          <Link to="/certificates/$certificateId" params={{ certificateId: r.id }} data-testid={`${p.kind}-link`}>
            <Ltr>{r.number}</Ltr>
          </Link>
        </ChakraLink>
      ),
    },
    { key: 'status', header: t('requests:list.status'), render: (r) => <Badge>{r.status.label}</Badge> },
    { key: 'created', header: t('requests:list.issued'), render: (r) => formatDate(r.issuedAt, i18n.language) },
  ];
  if ((list.data?.items ?? []).some((r) => servicesOf(r).length || r.openRenewal)) {
    columns.push({
      key: 'services',
      header: t('requests:list.services'),
      render: (r) => (
        <Flex gap="2" wrap="wrap">
          {servicesOf(r).map((d) => (
            <Button key={d.kind} asChild size="xs" variant="outline">
              <Link {...startLink(d.routes.start, p.facilityId, r.id)} data-testid={`start-${d.kind}`}>
                {t(d.titleKey)}
              </Link>
            </Button>
          ))}
          {/* A renewal already open is linked instead of offered again (the server's own start check decides). */}
          {r.openRenewal && <OpenRenewalLink request={r.openRenewal} look="link" />}
        </Flex>
      ),
    });
  }
  return (
    <Box pt="2">
      <DataTable
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(r) => r.id}
        loading={list.isLoading}
        emptyText={t(p.kind === 'certificate' ? 'requests:list.noCertificates' : 'requests:list.noMarks')}
        paging={{ page, pageSize, total: list.data?.totalCount ?? 0, onPageChange: setPage }}
      />
    </Box>
  );
}

function BillsView({ facilityId }: { facilityId: string }) {
  const { t, i18n } = useTranslation(['requests', 'payments']);
  const [page, setPage] = useState(1);
  const pageSize = 10;
  const bills = useApi(apiQuery('/api/bills', { params: { query: { facilityId, pageNumber: page, pageSize } } }));
  const money = moneyFormat(i18n.language);
  const columns: Column<BillView>[] = [
    { key: 'number', header: t('requests:list.invoiceNumber'), render: (b) => <Ltr>{b.number}</Ltr> },
    { key: 'kind', header: t('requests:list.kind'), render: (b) => b.feeKind.name },
    { key: 'date', header: t('requests:list.issued'), render: (b) => formatDate(b.date, i18n.language) },
    {
      key: 'total',
      header: t('payments:bill.total'),
      render: (b) => (
        <Text as="span">
          <Ltr>{money.format(Number(b.total))}</Ltr> {t('payments:bill.currency')}
        </Text>
      ),
    },
    { key: 'status', header: t('requests:list.status'), render: (b) => <Badge>{b.status.label}</Badge> },
  ];
  return (
    <Box pt="2">
      <DataTable
        columns={columns}
        rows={bills.data?.items ?? []}
        rowKey={(b) => b.id}
        loading={bills.isLoading}
        emptyText={t('requests:list.noBills')}
        paging={{ page, pageSize, total: bills.data?.totalCount ?? 0, onPageChange: setPage }}
      />
    </Box>
  );
}
