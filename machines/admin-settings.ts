import { z } from 'zod';
import { ZBusinessSettings } from './services/settings';

/**
 * Everything on the setting-management screen: the business settings the engine reads plus the portal's own
 * (audit log retention). Stored as one JSON row; the environment values are the defaults. Pure: the web validates
 * the form with it.
 */
export const ZPortalSettings = ZBusinessSettings.extend({
  /** Audit-log rows older than this many days are deleted. */
  auditLogRetentionDays: z.number().int().min(1).max(3650),
  /** Public holidays (Riyadh dates, YYYY-MM-DD) that the working-day clocks skip besides Friday and Saturday. */
  holidays: z.array(z.iso.date()).max(400),
});
export type PortalSettings = z.infer<typeof ZPortalSettings>;

/** Audit-log retention when nobody set one: a year. */
export const DEFAULT_AUDIT_LOG_RETENTION_DAYS = 365;

export interface SettingChange {
  /** Dotted path, e.g. `fees.application`. */
  path: string;
  old: unknown;
  new: unknown;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The leaves that differ between two settings objects (old and new value of each). */
export function settingChanges(before: unknown, after: unknown, prefix = ''): SettingChange[] {
  if (isPlain(before) && isPlain(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((k) => settingChanges(before[k], after[k], prefix ? `${prefix}.${k}` : k));
  }
  // A list (the holidays) is one value: the same items in the same order are no change.
  const same = Object.is(before, after) || (Array.isArray(before) && Array.isArray(after) && JSON.stringify(before) === JSON.stringify(after));
  return same ? [] : [{ path: prefix, old: before ?? null, new: after ?? null }];
}

/** `over` laid over `base`, object by object (a key the stored row lacks keeps its default). */
export function mergeSettings<T>(base: T, over: unknown): T {
  if (!isPlain(base) || !isPlain(over)) return (over === undefined ? base : over) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = k in base ? mergeSettings(base[k], v) : v;
  return out as T;
}
