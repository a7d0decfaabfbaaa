import { Suspense, lazy, useState, type ComponentType } from 'react';

/** The loaders of the code kept out of the entry script (dialogs, drawer, toasts), for fetchLazyPartsLater. */
const lazyParts: (() => Promise<unknown>)[] = [];

/** `load`, run at most once (a failed load may be tried again), and listed for fetchLazyPartsLater. */
export function lazyPart<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  const once = () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  lazyParts.push(once);
  return once;
}

/**
 * Fetches every lazy part once the page has settled (service-worker.ts, with the worker's registration 30 s after
 * load): the new-version and session dialogs and the error toasts must still open when the server is unreachable
 * or a new build has replaced this one's files on it.
 */
export function fetchLazyPartsLater(): void {
  for (const load of lazyParts) void load().catch(() => undefined);
}

/**
 * A dialog or drawer whose code loads the first time it opens: the shell's modals and the phone menu are closed on
 * almost every page view, and their machinery (focus trap, dismissal, scroll lock) is a sizeable part of the entry
 * script. Once opened it stays mounted, so closing animates as before.
 */
export function lazyWhenOpen<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const once = lazyPart(load);
  const Loaded = lazy(async () => ({ default: await once() }));
  return function LazyWhenOpen(props: P) {
    const [opened, setOpened] = useState(props.open);
    if (props.open && !opened) setOpened(true);
    return opened ? (
      <Suspense fallback={null}>
        <Loaded {...props} />
      </Suspense>
    ) : null;
  };
}
