import { Box, Card, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { FacilityDashboard, StaffDashboard } from './dashboard-api';
import { apiQuery, useApi } from '../../api/query';
import { Ltr, ltr } from '../../components/Bidi';
import { DataTable, PageContainer, PageHeader, type Column } from '../../components';
import { Permissions as P } from '../../../../machines/permissions';
import { can, useSession } from '../../session';
import { formatDate } from '../../lib/dates';
import { countFormat, moneyFormat } from '../../lib/numbers';

/** One figure with its label; `testId` names it for the browser tests. */
function Figure({ label, value, sub, testId, tone }: { label: string; value: string; sub?: string; testId: string; tone?: 'warn' }) {
  return (
    <Card.Root variant="outline" data-testid={testId}>
      <Card.Body gap="1">
        <Text fontSize="sm" color="fg.muted">
          {label}
        </Text>
        <Text fontSize="2xl" fontWeight="bold" color={tone === 'warn' ? 'orange.fg' : 'brand.fg'} data-testid={`${testId}-value`}>
          <Ltr>{value}</Ltr>
        </Text>
        {sub && (
          <Text fontSize="sm" color="fg.muted">
            {sub}
          </Text>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/** Horizontal bars: a label, a bar as long as its share of the largest value, and the number. */
function Bars({ rows, testId }: { rows: { key: string; label: string; value: number; color?: string }[]; testId: string }) {
  const { i18n } = useTranslation();
  const max = Math.max(1, ...rows.map((r) => r.value));
  const n = countFormat(i18n.language);
  return (
    <Stack gap="2" data-testid={testId}>
      {rows.map((r) => (
        // The label is read whole (kinds share long prefixes: "External facility Halal certificate: …"): on a phone
        // it takes its own line above the bar, on a wide screen it wraps in its column.
        <Flex key={r.key} align="center" columnGap="3" rowGap="1" wrap={{ base: 'wrap', md: 'nowrap' }} data-testid={`${testId}-${r.key}`} data-value={r.value}>
          <Text fontSize="sm" w={{ base: 'full', md: '56' }} flexShrink={0} data-testid="bar-label">
            {r.label}
          </Text>
          <Box flex="1" bg="bg.muted" borderRadius="sm" h="3" overflow="hidden" aria-hidden>
            <Box h="full" w={`${(r.value / max) * 100}%`} bg={r.color ?? 'brand.solid'} />
          </Box>
          <Text fontSize="sm" w="10" textAlign="end" fontWeight="medium">
            <Ltr>{n.format(r.value)}</Ltr>
          </Text>
        </Flex>
      ))}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card.Root>
      <Card.Body gap="4">
        <Heading as="h2" size="md">
          {title}
        </Heading>
        {children}
      </Card.Body>
    </Card.Root>
  );
}

function StaffView({ d }: { d: StaffDashboard }) {
  const { t, i18n } = useTranslation(['admin', 'machines']);
  const n = countFormat(i18n.language);
  const money = moneyFormat(i18n.language);
  const sar = (v: number) => `${money.format(v)} ${t('admin:dashboard.sar')}`;
  const open = d.byQueue.reduce((s, q) => s + q.count, 0);
  const weekMax = Math.max(1, ...d.weekly.flatMap((w) => [w.received, w.decided]));
  return (
    <Stack gap="6">
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
        <Figure testId="dash-open" label={t('admin:dashboard.openRequests')} value={n.format(open)} />
        <Figure testId="dash-received" label={t('admin:dashboard.receivedThisWeek')} value={n.format(d.weekly.at(-1)?.received ?? 0)} />
        <Figure testId="dash-paid" label={t('admin:dashboard.billsPaid')} value={n.format(d.bills.paid.count)} sub={sar(d.bills.paid.total)} />
        <Figure testId="dash-unpaid" label={t('admin:dashboard.billsUnpaid')} value={n.format(d.bills.unpaid.count)} sub={sar(d.bills.unpaid.total)} tone="warn" />
      </SimpleGrid>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
        <Section title={t('admin:dashboard.byQueue')}>
          <Bars testId="dash-queue" rows={d.byQueue.map((q) => ({ key: q.queue, label: t(`admin:dashboard.queues.${q.queue}`), value: q.count }))} />
        </Section>
        <Section title={t('admin:dashboard.byStatus')}>
          {d.byStatus.length ? (
            <Bars
              testId="dash-status"
              rows={d.byStatus.map((s) => ({ key: `${s.kind}-${s.code}`, label: `${t(`machines:kinds.${s.kind}`, { defaultValue: s.kind })}: ${s.label}`, value: s.count }))}
            />
          ) : (
            <Text color="fg.muted">{t('admin:dashboard.none')}</Text>
          )}
        </Section>
      </SimpleGrid>
      <Section title={t('admin:dashboard.weekly')}>
        <Flex gap="4" fontSize="sm" color="fg.muted">
          <Flex align="center" gap="1">
            <Box w="3" h="3" bg="brand.solid" borderRadius="sm" /> {t('admin:dashboard.received')}
          </Flex>
          <Flex align="center" gap="1">
            <Box w="3" h="3" bg="green.solid" borderRadius="sm" /> {t('admin:dashboard.decided')}
          </Flex>
        </Flex>
        <Stack gap="2" data-testid="dash-weekly">
          {d.weekly.map((w) => (
            <Flex key={w.week} align="center" gap="3" data-testid={`dash-week-${w.week}`} data-received={w.received} data-decided={w.decided}>
              <Text fontSize="xs" color="fg.muted" w="40" flexShrink={0}>
                {t('admin:dashboard.weekOf', { date: ltr(w.week) })}
              </Text>
              <Stack flex="1" gap="1" aria-hidden>
                {[
                  { v: w.received, color: 'brand.solid' },
                  { v: w.decided, color: 'green.solid' },
                ].map((b, i) => (
                  <Box key={i} bg="bg.muted" borderRadius="sm" h="2" overflow="hidden">
                    <Box h="full" w={`${(b.v / weekMax) * 100}%`} bg={b.color} />
                  </Box>
                ))}
              </Stack>
              <Text fontSize="sm" w="16" textAlign="end" title={`${t('admin:dashboard.received')} / ${t('admin:dashboard.decided')}`}>
                <Ltr>{`${n.format(w.received)} / ${n.format(w.decided)}`}</Ltr>
              </Text>
            </Flex>
          ))}
        </Stack>
      </Section>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6">
        <Section title={t('admin:dashboard.byAssignee')}>
          {d.byAssignee.length ? (
            <Bars testId="dash-assignee" rows={d.byAssignee.map((a) => ({ key: a.userId, label: a.name, value: a.count }))} />
          ) : (
            <Text color="fg.muted">{t('admin:dashboard.noAssignee')}</Text>
          )}
        </Section>
        <Figure testId="dash-overdue" label={t('admin:dashboard.overdue')} value={n.format(d.overdue ?? 0)} sub={t('admin:dashboard.overdueNote')} tone="warn" />
      </SimpleGrid>
    </Stack>
  );
}

function FacilityView({ d }: { d: FacilityDashboard }) {
  const { t, i18n } = useTranslation(['admin', 'machines']);
  const n = countFormat(i18n.language);
  const money = moneyFormat(i18n.language);
  const sar = (v: number) => `${money.format(v)} ${t('admin:dashboard.sar')}`;
  const facilityName = (id: string) => {
    const f = d.facilities.find((x) => x.publicId === id);
    return f ? (i18n.language === 'ar' ? f.nameAr : f.nameEn) : id;
  };
  type Req = FacilityDashboard['openRequests']['items'][number];
  type Bill = FacilityDashboard['unpaidBills']['items'][number];
  type Cert = FacilityDashboard['expiringCertificates'][number];
  const requestColumns: Column<Req>[] = [
    {
      key: 'number',
      header: t('admin:dashboard.number'),
      render: (r) => (
        <Link to="/requests/$requestId" params={{ requestId: r.id }}>
          <Ltr>{r.number}</Ltr>
        </Link>
      ),
    },
    { key: 'kind', header: t('admin:dashboard.kind'), render: (r) => t(`machines:kinds.${r.kind}`, { defaultValue: r.kind }) },
    { key: 'facility', header: t('admin:dashboard.facility'), render: (r) => facilityName(r.facilityId) },
    { key: 'status', header: t('admin:dashboard.status'), render: (r) => r.status.label },
  ];
  const billColumns: Column<Bill>[] = [
    { key: 'number', header: t('admin:dashboard.number'), render: (b) => <Ltr>{b.number}</Ltr> },
    { key: 'facility', header: t('admin:dashboard.facility'), render: (b) => facilityName(b.facilityId) },
    { key: 'total', header: t('admin:dashboard.total'), render: (b) => sar(b.total) },
    { key: 'due', header: t('admin:dashboard.dueAt'), render: (b) => (b.dueAt ? formatDate(b.dueAt, i18n.language) : '—') },
  ];
  const certColumns: Column<Cert>[] = [
    { key: 'number', header: t('admin:dashboard.number'), render: (c) => <Ltr>{c.number}</Ltr> },
    { key: 'facility', header: t('admin:dashboard.facility'), render: (c) => facilityName(c.facilityId) },
    { key: 'expires', header: t('admin:dashboard.expiresAt'), render: (c) => formatDate(c.expiresAt, i18n.language) },
    { key: 'left', header: t('admin:dashboard.daysLeft'), render: (c) => <Ltr>{n.format(c.daysLeft)}</Ltr> },
  ];
  return (
    <Stack gap="6">
      <SimpleGrid columns={{ base: 1, sm: 3 }} gap="4">
        <Figure testId="dash-open" label={t('admin:dashboard.openRequests')} value={n.format(d.openRequests.count)} />
        <Figure testId="dash-unpaid" label={t('admin:dashboard.billsUnpaid')} value={n.format(d.unpaidBills.count)} sub={sar(d.unpaidBills.total)} tone="warn" />
        <Figure
          testId="dash-expiring"
          label={t('admin:dashboard.expiringWithin', { days: ltr(n.format(d.expiringSoonDays)) })}
          value={n.format(d.expiringCertificates.length)}
          tone={d.expiringCertificates.length ? 'warn' : undefined}
        />
      </SimpleGrid>
      {d.openRequests.byStatus.length > 0 && (
        <Section title={t('admin:dashboard.byStatus')}>
          <Bars
            testId="dash-status"
            rows={d.openRequests.byStatus.map((s) => ({ key: `${s.kind}-${s.code}`, label: `${t(`machines:kinds.${s.kind}`, { defaultValue: s.kind })}: ${s.label}`, value: s.count }))}
          />
        </Section>
      )}
      <Section title={t('admin:dashboard.openRequests')}>
        <DataTable columns={requestColumns} rows={d.openRequests.items} rowKey={(r) => r.id} caption={t('admin:dashboard.openRequests')} />
      </Section>
      <Section title={t('admin:dashboard.billsUnpaid')}>
        <DataTable columns={billColumns} rows={d.unpaidBills.items} rowKey={(b) => b.id} caption={t('admin:dashboard.billsUnpaid')} />
      </Section>
      <Section title={t('admin:dashboard.expiringWithin', { days: ltr(n.format(d.expiringSoonDays)) })}>
        <DataTable columns={certColumns} rows={d.expiringCertificates} rowKey={(c) => c.id} caption={t('admin:dashboard.expiringCertificates')} />
      </Section>
    </Stack>
  );
}

/**
 * dashboard (spec 01 section 2, Halal.Dashboard.Host / .Tenant): the Halal center's queues, weekly throughput and
 * bills for staff; a facility user's open requests, unpaid bills and expiring certificates of their own facilities.
 */
export function DashboardPage() {
  const { t } = useTranslation(['admin', 'shell']);
  const session = useSession();
  // The host dashboard for the Halal center (Halal.Dashboard.Host), the tenant one for a facility's users.
  const staff = can(session, P.dashboard.host) && !!session?.isStaff;
  const staffData = useApi(apiQuery('/api/dashboard/staff'), { enabled: staff });
  const facilityData = useApi(apiQuery('/api/dashboard/facility'), { enabled: !staff });
  const title = t('shell:screens.dashboard');
  return (
    <PageContainer>
      <PageHeader
        title={title}
        description={t(staff ? 'admin:dashboard.staffDescription' : 'admin:dashboard.facilityDescription')}
        breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: title }]}
      />
      <Box data-testid="dashboard" data-audience={staff ? 'staff' : 'facility'}>
        {staff ? staffData.data && <StaffView d={staffData.data} /> : facilityData.data && <FacilityView d={facilityData.data} />}
      </Box>
    </PageContainer>
  );
}
