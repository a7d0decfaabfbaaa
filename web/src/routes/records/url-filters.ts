import { useNavigate, useSearch } from '@tanstack/react-router';

/**
 * A list's filters kept in the URL search params, so a reload, a shared link or the back button shows the same list
 * (staff lists keep their filters). Empty values leave the URL.
 */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const navigate = useNavigate();
  const values = Object.fromEntries(keys.map((k) => [k, typeof search[k] === 'string' || typeof search[k] === 'number' ? String(search[k]) : ''])) as Record<K, string>;
  const page = Math.max(1, Number(search.page) || 1);
  // Merged into the URL's search as it is when the navigation runs, not as this render saw it: a second change
  // made before the first one re-rendered (a search sent, then at once another service chosen) keeps both.
  const set = (next: Partial<Record<K, string>> & { page?: number }) => {
    const merge = (current: Record<string, unknown>) => {
      const merged: Record<string, unknown> = { ...Object.fromEntries(keys.map((k) => [k, current[k]])), page: 1, ...next };
      for (const [k, v] of Object.entries(merged)) if (v === '' || v === undefined || (k === 'page' && v === 1)) delete merged[k];
      return { ...(typeof current.lang === 'string' ? { lang: current.lang } : {}), ...merged };
    };
    void navigate({ to: '.', search: merge as never, replace: true });
  };
  return { values, page, set };
}
