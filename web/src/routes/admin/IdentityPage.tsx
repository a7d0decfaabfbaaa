import { useEffect, useMemo, useState } from 'react';
import { Badge, Box, Button, Card, Checkbox, Code, Fieldset, Flex, Heading, Input, SimpleGrid, Stack, Tabs, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { api, data } from '../../api/client';
import { ApiError } from '../../api/errors';
import { showProblem } from '../../components/problem-handler';
import { apiQuery, useApi } from '../../api/query';
import type { operations } from '../../api/schema.gen';
import { ConfirmDialog, DataTable, FormField, PageContainer, PageHeader, notify, usePaging, type Column } from '../../components';
import type { RoleRow, StaffUser } from './admin-api';
import { AdminLinks } from './AdminLinks';
import { listSeparator } from '../../i18n';
import { useSession } from '../../session/use-session';

/** A permission name as the role calls take it; the editor offers only those of GET /api/identity/permissions. */
type Permission = operations['putIdentityRolesByName']['requestBody']['content']['application/json']['permissions'][number];

function failed(e: unknown): void {
  if (e instanceof ApiError) showProblem(e);
}

/**
 * The confirmation of a lock or a role change, with how many of the user's open requests went back to their queue;
 * those that could not (still assigned, their history says why) in a warning the administrator cannot miss.
 */
function confirmRelease(t: TFunction<'admin'>, done: string, release: { released: number; failed: number } | undefined): void {
  const lines = [done];
  if (release?.released) lines.push(t('identity.release.released', { count: release.released }));
  notify.success(lines);
  if (release?.failed) notify.warning(t('identity.release.failed', { count: release.failed }));
}

/** Tick boxes over role names. */
function RolePicker({ roles, value, onChange, name }: { roles: RoleRow[]; value: string[]; onChange: (v: string[]) => void; name: string }) {
  const { t } = useTranslation('admin');
  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap="2">
      {roles.map((r) => (
        <Checkbox.Root
          key={r.name}
          checked={value.includes(r.name)}
          onCheckedChange={(e) => onChange(e.checked ? [...value, r.name] : value.filter((v) => v !== r.name))}
          data-testid={`${name}-${r.name}`}
        >
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>{t(`identity.roleNames.${r.name}`, { defaultValue: r.name })}</Checkbox.Label>
        </Checkbox.Root>
      ))}
    </SimpleGrid>
  );
}

function CreateUser({ roles, onCreated }: { roles: RoleRow[]; onCreated: () => void }) {
  const { t } = useTranslation('admin');
  const empty = { userName: '', name: '', email: '', password: '', roles: [] as string[] };
  const [form, setForm] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const submit = async () => {
    setPending(true);
    setErrors({});
    try {
      await data(api.POST('/api/identity/users', { body: form, handleErrors: [400] }));
      notify.success(t('identity.created', { userName: form.userName }));
      setForm(empty);
      onCreated();
    } catch (e) {
      if (e instanceof ApiError) {
        const byField: Record<string, string> = {};
        for (const v of e.validationErrors) for (const m of v.members) byField[m] = v.message;
        setErrors(byField);
      }
      failed(e);
    } finally {
      setPending(false);
    }
  };
  const field = (k: 'userName' | 'name' | 'email' | 'password', type = 'text') => (
    <FormField label={t(`identity.fields.${k}`)} required error={errors[k] ?? null}>
      <Input name={k} type={type} dir={k === 'name' ? undefined : 'ltr'} autoComplete="off" value={form[k]} onChange={(e) => setForm({ ...form, [k]: e.target.value })} />
    </FormField>
  );
  return (
    <Card.Root>
      <Card.Body>
        <form
          data-testid="create-user-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="4">
            <Heading as="h2" size="md">
              {t('identity.createTitle')}
            </Heading>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              {field('userName')}
              {field('name')}
              {field('email', 'email')}
              {field('password', 'password')}
            </SimpleGrid>
            {/* A fieldset, not a FormField: inside a Field every checkbox would take the field's one control id, so a
                click on any role's label ticked the first role (the administrator). */}
            <Fieldset.Root invalid={!!errors.roles}>
              <Fieldset.Legend>
                {t('identity.fields.roles')} <Text as="span" color="fg.error">*</Text>
              </Fieldset.Legend>
              <RolePicker roles={roles} value={form.roles} onChange={(v) => setForm({ ...form, roles: v })} name="new-role" />
              {errors.roles && <Fieldset.ErrorText data-testid="field-error">{errors.roles}</Fieldset.ErrorText>}
            </Fieldset.Root>
            <Box>
              <Button type="submit" colorPalette="brand" loading={pending} data-testid="create-user-submit">
                {t('identity.create')}
              </Button>
            </Box>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}

function UsersTab({ roles }: { roles: RoleRow[] }) {
  const { t } = useTranslation('admin');
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const { page, pageSize, setPage, paging } = usePaging(10);
  const list = useApi(apiQuery('/api/identity/users', { params: { query: { search: applied || undefined, skipCount: (page - 1) * pageSize, maxResultCount: pageSize } } }));
  const [editing, setEditing] = useState<{ user: StaffUser; roles: string[] } | null>(null);
  const [confirm, setConfirm] = useState<{ user: StaffUser; kind: 'lock' | 'unlock' | 'reset-password' } | null>(null);
  // No lock on one's own row: the server refuses it (OwnAccountNotLocked), nobody would be left to unlock.
  const me = useSession();
  const [password, setPassword] = useState<{ userName: string; password: string } | null>(null);

  const act = async (user: StaffUser, kind: 'lock' | 'unlock' | 'reset-password') => {
    try {
      const init = { params: { path: { id: user.id } }, handleErrors: [400] };
      const done = t(`identity.done.${kind}`, { userName: user.userName });
      if (kind === 'reset-password') {
        const res = await data(api.POST('/api/identity/users/{id}/reset-password', init));
        setPassword({ userName: user.userName, password: res.password });
      } else {
        const res = await data(api.POST(kind === 'lock' ? '/api/identity/users/{id}/lock' : '/api/identity/users/{id}/unlock', init));
        confirmRelease(t, done, res.release);
      }
      await list.refetch();
    } catch (e) {
      failed(e);
    } finally {
      setConfirm(null);
    }
  };
  const saveRoles = async () => {
    if (!editing) return;
    try {
      const res = await data(api.PUT('/api/identity/users/{id}/roles', { params: { path: { id: editing.user.id } }, body: { roles: editing.roles }, handleErrors: [400] }));
      confirmRelease(t, t('identity.done.roles', { userName: editing.user.userName }), res.release);
      setEditing(null);
      await list.refetch();
    } catch (e) {
      failed(e);
    }
  };

  const columns: Column<StaffUser>[] = [
    { key: 'userName', header: t('identity.fields.userName'), render: (u) => <Text dir="ltr">{u.userName}</Text> },
    { key: 'name', header: t('identity.fields.name') },
    { key: 'email', header: t('identity.fields.email'), render: (u) => <Text dir="ltr">{u.email}</Text> },
    { key: 'roles', header: t('identity.fields.roles'), render: (u) => u.roles.map((r) => t(`identity.roleNames.${r}`, { defaultValue: r })).join(listSeparator()) },
    { key: 'status', header: t('identity.status'), render: (u) => <Badge colorPalette={u.locked ? 'red' : 'green'}>{t(u.locked ? 'identity.locked' : 'identity.active')}</Badge> },
    {
      key: 'actions',
      header: t('identity.actions'),
      render: (u) => (
        <Flex gap="1" wrap="wrap" data-testid={`user-actions-${u.userName}`}>
          <Button size="xs" variant="outline" onClick={() => setEditing({ user: u, roles: u.roles })} data-testid="user-edit-roles">
            {t('identity.editRoles')}
          </Button>
          {u.id !== me?.user?.id && (
            <Button size="xs" variant="outline" onClick={() => setConfirm({ user: u, kind: u.locked ? 'unlock' : 'lock' })} data-testid="user-lock">
              {t(u.locked ? 'identity.unlock' : 'identity.lock')}
            </Button>
          )}
          <Button size="xs" variant="outline" onClick={() => setConfirm({ user: u, kind: 'reset-password' })} data-testid="user-reset-password">
            {t('identity.resetPassword')}
          </Button>
        </Flex>
      ),
    },
  ];

  return (
    <Stack gap="5">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(search.trim());
          setPage(1);
        }}
      >
        <Flex gap="2" align="end">
          <FormField label={t('identity.search')}>
            <Input name="userSearch" value={search} onChange={(e) => setSearch(e.target.value)} />
          </FormField>
          <Button type="submit" colorPalette="brand" data-testid="user-search">
            {t('audit.searchButton')}
          </Button>
        </Flex>
      </form>
      <DataTable columns={columns} rows={list.data?.items ?? []} rowKey={(u) => u.id} loading={list.isFetching && !list.data} paging={paging(list.data?.totalCount ?? 0)} />
      {editing && (
        <Card.Root data-testid="edit-roles">
          <Card.Body>
            <Stack gap="3">
              <Heading as="h3" size="sm">
                {t('identity.rolesOf', { userName: editing.user.userName })}
              </Heading>
              <RolePicker roles={roles} value={editing.roles} onChange={(v) => setEditing({ ...editing, roles: v })} name="edit-role" />
              <Flex gap="2">
                <Button colorPalette="brand" onClick={() => void saveRoles()} data-testid="edit-roles-save">
                  {t('identity.save')}
                </Button>
                <Button variant="ghost" onClick={() => setEditing(null)}>
                  {t('identity.cancel')}
                </Button>
              </Flex>
            </Stack>
          </Card.Body>
        </Card.Root>
      )}
      {password && (
        <Card.Root data-testid="temporary-password" borderColor="orange.400">
          <Card.Body>
            <Text>{t('identity.temporaryPassword', { userName: password.userName })}</Text>
            <Code dir="ltr" fontSize="lg" mt="2" data-testid="temporary-password-value">
              {password.password}
            </Code>
          </Card.Body>
        </Card.Root>
      )}
      <CreateUser roles={roles} onCreated={() => void list.refetch()} />
      {confirm && (
        <ConfirmDialog
          open
          title={t(`identity.confirm.${confirm.kind}.title`)}
          message={t(`identity.confirm.${confirm.kind}.message`, { userName: confirm.user.userName })}
          tone={confirm.kind === 'unlock' ? 'primary' : 'danger'}
          onConfirm={() => act(confirm.user, confirm.kind)}
          onCancel={() => setConfirm(null)}
          testId="identity-confirm"
        />
      )}
    </Stack>
  );
}

/** The role editor: a role's permission names (grouped by their first segment) and whether it is read-only. */
function RolesTab({ roles, permissions, reload }: { roles: RoleRow[]; permissions: string[]; reload: () => Promise<void> }) {
  const { t } = useTranslation('admin');
  const [selected, setSelected] = useState<string>('');
  const [draft, setDraft] = useState<{ permissions: string[]; readOnly: boolean } | null>(null);
  const [newName, setNewName] = useState('');
  const role = roles.find((r) => r.name === selected);
  useEffect(() => {
    setDraft(role ? { permissions: role.permissions, readOnly: role.readOnly } : null);
  }, [role]);
  const groups = useMemo(() => {
    const out = new Map<string, string[]>();
    for (const p of permissions) {
      const g = p.split('.')[0];
      out.set(g, [...(out.get(g) ?? []), p]);
    }
    return [...out.entries()];
  }, [permissions]);

  const save = async () => {
    if (!role || !draft) return;
    try {
      const saved = await data(api.PUT('/api/identity/roles/{name}', { params: { path: { name: role.name } }, body: { ...draft, permissions: draft.permissions as Permission[] }, handleErrors: [400] }));
      confirmRelease(t, t('identity.roleSaved', { role: role.name }), saved.release);
      await reload();
    } catch (e) {
      failed(e);
    }
  };
  const create = async () => {
    try {
      await data(api.POST('/api/identity/roles', { body: { name: newName.trim(), permissions: [], readOnly: false }, handleErrors: [400] }));
      await reload();
      setSelected(newName.trim());
      setNewName('');
    } catch (e) {
      failed(e);
    }
  };

  return (
    <Stack gap="5">
      <Flex gap="2" wrap="wrap">
        {roles.map((r) => (
          <Button key={r.name} size="sm" variant={r.name === selected ? 'solid' : 'outline'} colorPalette="brand" onClick={() => setSelected(r.name)} data-testid={`role-${r.name}`}>
            {t(`identity.roleNames.${r.name}`, { defaultValue: r.name })} ({r.userCount})
          </Button>
        ))}
      </Flex>
      <Flex gap="2" align="end">
        <FormField label={t('identity.newRole')}>
          <Input name="newRole" dir="ltr" value={newName} onChange={(e) => setNewName(e.target.value)} />
        </FormField>
        <Button onClick={() => void create()} disabled={!newName.trim()} data-testid="role-create">
          {t('identity.createRole')}
        </Button>
      </Flex>
      {role && draft && (
        <Card.Root data-testid="role-editor">
          <Card.Body>
            <Stack gap="4">
              <Heading as="h2" size="md">
                {t(`identity.roleNames.${role.name}`, { defaultValue: role.name })} <Code dir="ltr">{role.name}</Code>
              </Heading>
              <Checkbox.Root checked={draft.readOnly} onCheckedChange={(e) => setDraft({ ...draft, readOnly: !!e.checked })} data-testid="role-read-only">
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{t('identity.readOnly')}</Checkbox.Label>
              </Checkbox.Root>
              {groups.map(([group, names]) => (
                <Box key={group}>
                  <Text fontWeight="semibold" mb="2" dir="ltr" textAlign="start">
                    {group}
                  </Text>
                  <SimpleGrid columns={{ base: 1, md: 2 }} gap="1">
                    {names.map((p) => (
                      <Checkbox.Root
                        key={p}
                        size="sm"
                        checked={draft.permissions.includes(p)}
                        onCheckedChange={(e) => setDraft({ ...draft, permissions: e.checked ? [...draft.permissions, p] : draft.permissions.filter((x) => x !== p) })}
                        data-testid={`perm-${p}`}
                      >
                        <Checkbox.HiddenInput />
                        <Checkbox.Control />
                        <Checkbox.Label dir="ltr">{p}</Checkbox.Label>
                      </Checkbox.Root>
                    ))}
                  </SimpleGrid>
                </Box>
              ))}
              <Box>
                <Button colorPalette="brand" onClick={() => void save()} data-testid="role-save">
                  {t('identity.save')}
                </Button>
              </Box>
            </Stack>
          </Card.Body>
        </Card.Root>
      )}
    </Stack>
  );
}

/** identity: Halal-center staff (create, search, lock, reset password, roles) and the role editor. */
export function IdentityPage() {
  const { t } = useTranslation(['admin', 'shell']);
  const roles = useApi(apiQuery('/api/identity/roles'));
  const permissions = useApi(apiQuery('/api/identity/permissions'));
  const [tab, setTab] = useState('users');
  const title = t('shell:screens.identity');
  return (
    <PageContainer>
      <PageHeader title={title} description={t('admin:identity.description')} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: title }]} />
      <AdminLinks />
      <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value)} variant="enclosed" lazyMount>
        <Tabs.List>
          <Tabs.Trigger value="users" data-testid="tab-users">
            {t('admin:identity.usersTab')}
          </Tabs.Trigger>
          <Tabs.Trigger value="roles" data-testid="tab-roles">
            {t('admin:identity.rolesTab')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="users">{roles.data && <UsersTab roles={roles.data} />}</Tabs.Content>
        <Tabs.Content value="roles">{roles.data && permissions.data && <RolesTab roles={roles.data} permissions={permissions.data} reload={async () => void (await roles.refetch())} />}</Tabs.Content>
      </Tabs.Root>
    </PageContainer>
  );
}
