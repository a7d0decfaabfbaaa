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
  const set = (next: Partial<Record<K, string>> & { page?: number }) => {
    const merged: Record<string, string | number | undefined> = { ...values, page: 1, ...next };
    for (const [k, v] of Object.entries(merged)) if (v === '' || v === undefined || (k === 'page' && v === 1)) delete merged[k];
    const lang = search.lang;
    void navigate({ to: '.', search: { ...(typeof lang === 'string' ? { lang } : {}), ...merged } as never, replace: true });
  };
  return { values, page, set };
}
