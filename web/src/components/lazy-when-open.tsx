import { useEffect, useRef, useState, type ComponentType } from 'react';

/** A loader run at most once (a failed load may be tried again); `loaded` holds its value once it is in. */
export interface LazyPart<T> {
  (): Promise<T>;
  loaded?: T;
}

/** The loaders of the code kept out of the entry script (dialogs, drawer, toasts), for fetchLazyPartsLater. */
const lazyParts: LazyPart<unknown>[] = [];

/** `load`, run at most once (a failed load may be tried again), and listed for fetchLazyPartsLater. */
export function lazyPart<T>(load: () => Promise<T>): LazyPart<T> {
  let pending: Promise<T> | undefined;
  const once: LazyPart<T> = () => {
    pending ??= load().then(
      (value) => (once.loaded = value),
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
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
 * The value of a lazy part, or undefined until it is in. A load that fails (offline, or a new build replaced this
 * one's files) calls `onFailed` once and is tried again at the next mount. Not React.lazy: a lazy component keeps its
 * failure and throws it to the route's error page, so one click offline replaced the whole page.
 */
export function useLazyPart<T>(part: LazyPart<T>, onFailed: () => void): T | undefined {
  const [value, setValue] = useState<{ v: T } | undefined>(() => (part.loaded === undefined ? undefined : { v: part.loaded }));
  const failed = useRef(onFailed);
  failed.current = onFailed;
  useEffect(() => {
    if (value) return undefined;
    let live = true;
    part().then(
      (v) => live && setValue({ v }),
      () => live && failed.current(),
    );
    return () => {
      live = false;
    };
  }, [part, value]);
  return value?.v;
}

/**
 * A dialog or drawer whose code loads the first time it opens: the shell's modals and the phone menu are closed on
 * almost every page view, and their machinery (focus trap, dismissal, scroll lock) is a sizeable part of the entry
 * script. Once opened it stays mounted, so closing animates as before. Should its code not load, nothing opens, and
 * the next time it is asked to open (after being closed) the load is tried again.
 */
export function lazyWhenOpen<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const part = lazyPart(load);
  function Mounted({ props, onFailed }: { props: P; onFailed: () => void }) {
    const Loaded = useLazyPart(part, onFailed);
    return Loaded ? <Loaded {...props} /> : null;
  }
  return function LazyWhenOpen(props: P) {
    const [opened, setOpened] = useState(props.open);
    const [failedOpen, setFailedOpen] = useState(false);
    if (props.open && !opened && !failedOpen) setOpened(true);
    if (!props.open && failedOpen) setFailedOpen(false);
    return opened ? (
      <Mounted
        props={props}
        onFailed={() => {
          setOpened(false);
          setFailedOpen(true);
        }}
      />
    ) : null;
  };
}
