import type { AnyRouter } from '@tanstack/react-router';

/** Spec 01 section 9: "The background worker registers after a 30 s stable delay." */
export const STABLE_DELAY_MS = 30_000;

/**
 * Registers the service worker (/sw.js, written by the production build only) once the page has been stable for
 * 30 s. "Stable", as read here: 30 s in a row with no navigation and no uncaught error; each navigation or error
 * starts the count again, so a page that is still moving or failing is not given a worker. Registers once.
 */
export function registerServiceWorkerWhenStable(router: AnyRouter): void {
  if (!('serviceWorker' in navigator)) return;
  let timer: number | undefined;
  const stop: (() => void)[] = [];
  const register = () => {
    stop.forEach((s) => s());
    navigator.serviceWorker.register('/sw.js').catch(() => {
      // No worker (private mode, an old browser, an error in it): the portal works the same from the network.
    });
  };
  const restart = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(register, STABLE_DELAY_MS);
  };
  stop.push(router.subscribe('onResolved', restart));
  window.addEventListener('error', restart);
  window.addEventListener('unhandledrejection', restart);
  stop.push(() => {
    window.removeEventListener('error', restart);
    window.removeEventListener('unhandledrejection', restart);
  });
  restart();
}
