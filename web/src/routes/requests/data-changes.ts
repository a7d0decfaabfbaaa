import type { HistoryItem } from './requests-api';

/**
 * What changed in a resubmitted request (spec 01 section 3: Unchanged=0, Modified=1, Added=2, Deleted=3). The
 * baseline is the data as it was when registration last returned the request, rebuilt from the history (the START
 * data, then every EDIT's sections up to that RETURN); the current data is compared to it field by field and list
 * item by list item.
 */
export const ChangeState = { Unchanged: 0, Modified: 1, Added: 2, Deleted: 3 } as const;
export type ChangeState = (typeof ChangeState)[keyof typeof ChangeState];

/** The data the request had when it was last returned, or null when it never was (nothing to compare). */
export function baselineAtLastReturn(history: readonly HistoryItem[]): Record<string, unknown> | null {
  const lastReturn = [...history].reverse().find((h) => h.event === 'RETURN');
  if (!lastReturn) return null;
  let data: Record<string, unknown> = {};
  for (const h of history) {
    if (h.seq > lastReturn.seq) break;
    const d = h.payload.data;
    if (d && typeof d === 'object' && !Array.isArray(d)) data = { ...data, ...(d as Record<string, unknown>) };
  }
  return data;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The change state of a value against its baseline (undefined baseline: Added; undefined value: Deleted). */
export function changeOf(before: unknown, after: unknown): ChangeState {
  if (before === undefined && after === undefined) return ChangeState.Unchanged;
  if (before === undefined) return ChangeState.Added;
  if (after === undefined) return ChangeState.Deleted;
  return same(before, after) ? ChangeState.Unchanged : ChangeState.Modified;
}

export interface ListItemChange<T> {
  value: T;
  state: ChangeState;
}

/**
 * Items of a list with their change state: items matched by position; items the baseline had beyond the current
 * length are listed as Deleted (struck through), new ones as Added.
 */
export function listChanges<T>(before: readonly T[] | undefined, after: readonly T[]): ListItemChange<T>[] {
  const base = before ?? [];
  const out: ListItemChange<T>[] = after.map((value, i) => ({ value, state: before ? changeOf(base[i], value) : ChangeState.Unchanged }));
  for (let i = after.length; i < base.length; i++) out.push({ value: base[i] as T, state: ChangeState.Deleted });
  return out;
}
