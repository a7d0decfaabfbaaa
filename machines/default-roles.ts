import { Permissions as P, type PermissionName } from './permissions';
import { ROLE_NAMES, ROLE_PERMISSIONS } from './roles';

/**
 * The roles the database starts with (issue 15, identity): the roles of machines/roles.ts plus the read-only
 * auditor. Administrators edit them (and add roles) on the identity screen; this list is only the seed.
 */
export const AUDITOR_ROLE = 'readOnlyAuditor';

export interface DefaultRole {
  name: string;
  permissions: readonly PermissionName[];
  /** A read-only role may see what its permissions allow but call no write at all. */
  readOnly: boolean;
}

export const DEFAULT_ROLES: readonly DefaultRole[] = [
  ...ROLE_NAMES.map((name) => ({ name, permissions: ROLE_PERMISSIONS[name], readOnly: false })),
  {
    name: AUDITOR_ROLE,
    // Staff portal: sees every request, its history (and its verification), the audit log and the dashboard; changes nothing.
    permissions: [P.portals.halalCenter, P.files.downloadProductPhoto, P.auditLogs.view, P.dashboard.host],
    readOnly: true,
  },
];

/** Role names: letters, digits, dots, dashes and underscores, starting with a letter. */
export const ROLE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9._-]{1,49}$/;
