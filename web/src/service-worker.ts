import { fetchLazyPartsLater } from './components/lazy-when-open';

/** Spec 01 section 9: "the background worker registers after a 30 s stable delay". */
export const SERVICE_WORKER_DELAY_MS = 30_000;

/**
 * Registers /sw.js (web/build/service-worker.js) 30 s after the page has loaded, so the first visit spends nothing
 * on it while the page is loading, and fetches the lazy dialogs' code then. Built pages only: the development
 * server has no /sw.js.
 */
export function registerServiceWorkerLater(): void {
  const register = import.meta.env.PROD && 'serviceWorker' in navigator;
  const later = () =>
    window.setTimeout(() => {
      // The code of the shell's dialogs and toasts comes now too (lazy-when-open.tsx), when nothing else is loading.
      fetchLazyPartsLater();
      // A browser that refuses it (private mode, storage off) just goes without: nothing depends on it.
      if (register) navigator.serviceWorker.register('/sw.js').catch(() => undefined);
    }, SERVICE_WORKER_DELAY_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
