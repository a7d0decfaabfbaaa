import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { roles } from '../../db/schema';
import { DEFAULT_ROLES } from '../../machines/default-roles';
import type { PermissionName } from '../../machines/permissions';

/** Inserts the default roles that are missing (machines/default-roles.ts); never overwrites an administrator's edit. */
export async function ensureDefaultRoles(db: Db): Promise<void> {
  await db
    .insert(roles)
    .values(DEFAULT_ROLES.map((r) => ({ name: r.name, permissions: [...r.permissions], readOnly: r.readOnly, isDefault: true })))
    .onConflictDoNothing({ target: roles.name });
}

export interface RoleGrants {
  permissions: PermissionName[];
  /** True when any of the roles is read-only: the user may call no write. */
  readOnly: boolean;
}

/**
 * What the given roles grant, read from the database on every call (the auth plugin calls it once per request), so
 * an administrator's change applies from the affected user's next request.
 */
export async function grantsOf(db: Db, roleNames: readonly string[]): Promise<RoleGrants> {
  if (!roleNames.length) return { permissions: [], readOnly: false };
  const rows = await db.select().from(roles).where(inArray(roles.name, [...roleNames]));
  const set = new Set<string>();
  for (const r of rows) for (const p of r.permissions) set.add(p);
  return { permissions: [...set].sort() as PermissionName[], readOnly: rows.some((r) => r.readOnly) };
}

/** The names of the read-only roles (their holders call no write: server/admin/plugin.ts). */
export async function readOnlyRoleNames(db: Db): Promise<string[]> {
  return (await db.select({ name: roles.name }).from(roles).where(eq(roles.readOnly, true))).map((r) => r.name);
}

/** The names of the roles that grant a permission. */
export async function rolesGranting(db: Db, permission: string): Promise<string[]> {
  const rows = await db.select({ name: roles.name, permissions: roles.permissions }).from(roles);
  return rows.filter((r) => r.permissions.includes(permission)).map((r) => r.name);
}
