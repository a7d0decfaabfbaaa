import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type RequestOptions } from './client';
import { ApiError } from './errors';

export interface QueryState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  /** Fetches again (after a change elsewhere); resolves when done. */
  reload: () => Promise<void>;
}

/**
 * GETs `path` when the component mounts and whenever `path`, the query or the UI language changes (server texts
 * are localized). `path: null` waits (e.g. until a parameter is known). A newer call aborts the older one.
 */
export function useApiQuery<T>(path: string | null, options: RequestOptions = {}): QueryState<T> {
  const { i18n } = useTranslation();
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: path !== null });
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const queryKey = JSON.stringify(options.query ?? {});
  const controller = useRef<AbortController | null>(null);

  const load = useCallback(async () => {
    if (path === null) return;
    controller.current?.abort();
    const c = new AbortController();
    controller.current = c;
    setState((s) => ({ ...s, loading: true }));
    try {
      const data = await api.get<T>(path, { ...optionsRef.current, signal: c.signal });
      if (!c.signal.aborted) setState({ data, loading: false });
    } catch (e) {
      if (c.signal.aborted) return;
      setState((s) => ({ data: s.data, error: e instanceof ApiError ? e : new ApiError(0, 'NetworkError', ''), loading: false }));
    }
    // queryKey stands for options.query (read through the ref); the language is a key because server texts change.
  }, [path, queryKey, i18n.language]);

  useEffect(() => {
    void load();
    return () => controller.current?.abort();
  }, [load]);

  return { data: state.data, error: state.error, loading: state.loading, reload: load };
}

export interface MutationState<TBody, TResult> {
  run: (body?: TBody) => Promise<TResult>;
  pending: boolean;
  error: ApiError | undefined;
}

/** A write call (POST by default) with its pending flag and last error; `run` rejects like the client does. */
export function useApiMutation<TBody = unknown, TResult = unknown>(
  path: string,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' = 'POST',
  options: RequestOptions = {},
): MutationState<TBody, TResult> {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ApiError>();
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const run = useCallback(
    async (body?: TBody) => {
      setPending(true);
      setError(undefined);
      try {
        const o = optionsRef.current;
        if (method === 'DELETE') return await api.delete<TResult>(path, o);
        if (method === 'PUT') return await api.put<TResult>(path, body, o);
        if (method === 'PATCH') return await api.patch<TResult>(path, body, o);
        return await api.post<TResult>(path, body, o);
      } catch (e) {
        if (e instanceof ApiError) setError(e);
        throw e;
      } finally {
        setPending(false);
      }
    },
    [path, method],
  );
  return { run, pending, error };
}
