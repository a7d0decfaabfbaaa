import { useState } from 'react';
import { Badge, Button, Flex, Input, NativeSelect, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { buildUrl } from '../../api/client';
import { apiQuery, useApi } from '../../api/query';
import { DataTable, FormField, PageContainer, PageHeader, usePaging, type Column } from '../../components';
import type { AuditEntry } from './admin-api';
import { AdminLinks } from './AdminLinks';
import { formatDate } from '../../lib/dates';

const ACTIONS = ['auth.login', 'auth.logout', 'api.write', 'settings.change', 'role.create', 'role.change', 'role.delete', 'user.create', 'user.roles', 'user.lock', 'user.lock.release', 'user.unlock', 'user.password-reset'];

/** What changed, in one line: `vatRate: 0.15 → 0.2`, a role's added and removed permissions, or the error code. */
function summary(e: AuditEntry): string {
  const d = e.details ?? {};
  const changes = d.changes as { path: string; old: unknown; new: unknown }[] | undefined;
  if (changes) return changes.map((c) => `${c.path}: ${JSON.stringify(c.old)} → ${JSON.stringify(c.new)}`).join('; ');
  const parts: string[] = [];
  for (const k of ['user', 'role']) if (d[k]) parts.push(String(d[k]));
  const roles = d.roles as { old: unknown; new: unknown } | undefined;
  if (roles) parts.push(`${JSON.stringify(roles.old)} → ${JSON.stringify(roles.new)}`);
  for (const k of ['added', 'removed'] as const) {
    const list = d[k] as string[] | undefined;
    if (list?.length) parts.push(`${k === 'added' ? '+' : '−'} ${list.join(', ')}`);
  }
  if (d.error) parts.push(String(d.error));
  return parts.join(' · ');
}

/** audit-logs: who did what, when, from where and with what outcome; searchable, exportable as CSV. */
export function AuditLogsPage() {
  const { t, i18n } = useTranslation(['admin', 'shell']);
  const [draft, setDraft] = useState({ search: '', action: '', outcome: '' });
  const [filter, setFilter] = useState(draft);
  const { page, pageSize, setPage, paging } = usePaging(20);
  const query = { search: filter.search || undefined, action: filter.action || undefined, outcome: (filter.outcome || undefined) as AuditEntry['outcome'] | undefined };
  const list = useApi(apiQuery('/api/admin/audit-logs', { params: { query: { ...query, skipCount: (page - 1) * pageSize, maxResultCount: pageSize } } }));

  const columns: Column<AuditEntry>[] = [
    { key: 'at', header: t('admin:audit.at'), render: (e) => <Text whiteSpace="nowrap">{formatDate(e.at, i18n.language, 'stamp')}</Text> },
    { key: 'user', header: t('admin:audit.user'), render: (e) => <Text dir="ltr">{e.userName ?? '—'}</Text> },
    { key: 'action', header: t('admin:audit.action'), render: (e) => t(`admin:audit.actions.${e.action}`, { defaultValue: e.action }) },
    {
      key: 'what',
      header: t('admin:audit.what'),
      render: (e) => (
        <Text dir="ltr" fontSize="xs" maxW="md" wordBreak="break-word">
          {[e.method, e.path].filter(Boolean).join(' ')} {summary(e)}
        </Text>
      ),
    },
    {
      key: 'outcome',
      header: t('admin:audit.outcome'),
      render: (e) => (
        <Badge colorPalette={e.outcome === 'success' ? 'green' : 'red'} data-testid="audit-outcome">
          {t(`admin:audit.outcomes.${e.outcome}`)} {e.statusCode ?? ''}
        </Badge>
      ),
    },
    { key: 'ip', header: t('admin:audit.ip'), render: (e) => <Text dir="ltr">{e.ip ?? ''}</Text> },
    {
      key: 'request',
      header: t('admin:audit.request'),
      render: (e) =>
        e.requestId ? (
          <Link to="/requests/$requestId" params={{ requestId: e.requestId }} data-testid="audit-request-link">
            {t('admin:audit.openHistory')}
          </Link>
        ) : null,
    },
  ];

  const title = t('shell:screens.auditLogs');
  return (
    <PageContainer>
      <PageHeader
        title={title}
        description={t('admin:audit.description')}
        breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: title }]}
        actions={
          <Button asChild variant="outline" colorPalette="brand" data-testid="audit-export">
            <a href={buildUrl('/api/admin/audit-logs/export', query)} download>
              {t('admin:audit.export')}
            </a>
          </Button>
        }
      />
      <AdminLinks />
      <form
        data-testid="audit-filter"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(draft);
          setPage(1);
        }}
      >
        <Flex gap="3" wrap="wrap" align="end" mb="4">
          <FormField label={t('admin:audit.search')}>
            <Input name="search" value={draft.search} onChange={(e) => setDraft({ ...draft, search: e.target.value })} />
          </FormField>
          <FormField label={t('admin:audit.action')}>
            <NativeSelect.Root>
              <NativeSelect.Field name="action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })}>
                <option value="">{t('admin:audit.any')}</option>
                {ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {t(`admin:audit.actions.${a}`)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <FormField label={t('admin:audit.outcome')}>
            <NativeSelect.Root>
              <NativeSelect.Field name="outcome" value={draft.outcome} onChange={(e) => setDraft({ ...draft, outcome: e.target.value })}>
                <option value="">{t('admin:audit.any')}</option>
                <option value="success">{t('admin:audit.outcomes.success')}</option>
                <option value="failure">{t('admin:audit.outcomes.failure')}</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </FormField>
          <Button type="submit" colorPalette="brand" data-testid="audit-search">
            {t('admin:audit.searchButton')}
          </Button>
        </Flex>
      </form>
      <DataTable
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(e) => String(e.id)}
        loading={list.isFetching && !list.data}
        paging={paging(list.data?.totalCount ?? 0)}
        caption={title}
      />
    </PageContainer>
  );
}
