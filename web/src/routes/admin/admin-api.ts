import type { PortalSettings } from '../../../../machines/admin-settings';

export interface SettingsSnapshot {
  value: PortalSettings;
  defaults: PortalSettings;
  version: number;
  updatedAt: string | null;
}

export interface AuditEntry {
  id: number;
  at: string;
  userId: string | null;
  userName: string | null;
  action: string;
  method: string | null;
  route: string | null;
  path: string | null;
  statusCode: number | null;
  outcome: 'success' | 'failure';
  ip: string | null;
  requestId: string | null;
  details: Record<string, unknown> | null;
}

export interface StaffUser {
  id: string;
  userName: string;
  name: string;
  email: string;
  roles: string[];
  locked: boolean;
  createdAt: string;
}

export interface RoleRow {
  name: string;
  permissions: string[];
  readOnly: boolean;
  isDefault: boolean;
  userCount: number;
}

export interface PageOf<T> {
  totalCount: number;
  items: T[];
}

/** A date and time in the UI language (Gregorian digits, as the rest of the portal's tables). */
export const dateTime = (iso: string, lang: string) =>
  new Intl.DateTimeFormat(lang === 'ar' ? 'ar-SA-u-ca-gregory-nu-latn' : 'en-GB', { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
