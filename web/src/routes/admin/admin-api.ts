import type { ApiResponse } from '../../api/query';

export type AuditEntry = ApiResponse<'/api/admin/audit-logs'>['items'][number];
export type StaffUser = ApiResponse<'/api/identity/users'>['items'][number];
export type RoleRow = ApiResponse<'/api/identity/roles'>[number];

/** A date and time in the UI language (Gregorian digits, as the rest of the portal's tables). */
export const dateTime = (iso: string, lang: string) =>
  new Intl.DateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory-nu-latn' : 'en-GB', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
