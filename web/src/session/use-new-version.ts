import { useEffect, useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import { api, data } from '../api/client';
import { loadedAppVersion } from './session-store';

const POLL_MS = 60_000;

/**
 * Spec 01 section 2, new-version modal: the server's version (GET /api/health) is compared with the one this page
 * was loaded with, every minute, when the tab becomes visible again and after each navigation. Returns the new
 * version once it differs (and keeps it: only reloading the page clears it).
 */
export function useNewVersion(): string | null {
  const router = useRouter();
  const [newVersion, setNewVersion] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    const check = async () => {
      const loaded = loadedAppVersion();
      if (!loaded || stopped) return;
      try {
        const health = await data(api.GET('/api/health', { silent: true, handleErrors: false }));
        if (!stopped && health?.version && health.version !== loaded) setNewVersion(health.version);
      } catch {
        // The server is restarting or unreachable; the next check will tell.
      }
    };
    const timer = window.setInterval(check, POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    document.addEventListener('visibilitychange', onVisible);
    const unsubscribe = router.subscribe('onResolved', () => void check());
    // The shell mounts after the first navigation has resolved: its first render is deferred (AppShell.tsx), or the
    // server painted the page and the navigation resolved before the app mounted (prerender/take-over.tsx).
    if (router.state.status === 'idle') void check();
    return () => {
      stopped = true;
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      unsubscribe();
    };
  }, [router]);

  return newVersion;
}
