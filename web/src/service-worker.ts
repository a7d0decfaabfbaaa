/** Spec 01 section 9: "the background worker registers after a 30 s stable delay". */
export const SERVICE_WORKER_DELAY_MS = 30_000;

/**
 * Registers /sw.js (web/build/service-worker.js) 30 s after the page has loaded, so the first visit spends nothing
 * on it while the page is loading. Built pages only: the development server has no /sw.js.
 */
export function registerServiceWorkerLater(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const later = () =>
    window.setTimeout(() => {
      // A browser that refuses it (private mode, storage off) just goes without: nothing depends on it.
      navigator.serviceWorker.register('/sw.js').catch(() => undefined);
    }, SERVICE_WORKER_DELAY_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}
