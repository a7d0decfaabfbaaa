// Self-hosted fonts (nothing loads from a CDN): Arabic and Latin, regular and semibold. Two weights, not three:
// text asked in bold (700) is drawn in the semibold face, so a first view fetches four font files (~150 KB), all
// preloaded (web/build/shell-plugins.ts), instead of six, two of them found only once the page was laid out.
import '@fontsource/noto-sans-arabic/arabic-400.css';
import '@fontsource/noto-sans-arabic/arabic-600.css';
import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-600.css';
// The Chakra system's global CSS and token variables, written at build time (vite.config.ts, theme.ts).
import 'virtual:chakra-global.css';
import { initI18n } from './i18n';
import { configureApi } from './api/client';
import { markReadsStale, queryClient } from './api/query';
import { installProblemHandler } from './components/problem-handler';
import { router, startFirstLoads } from './router';
import { registerServiceWorkerLater } from './service-worker';
import { App } from './app';
import { mountApp, prerenderState } from './prerender/take-over';
import { appSystem } from './theme';

async function start() {
  // A public page the server painted (prerender/): the app takes over in the language it was painted in.
  const prerendered = prerenderState();
  startFirstLoads();
  const texts = initI18n(prerendered?.lang);
  // Chakra's system (~100 ms at a phone's speed) in a task of its own, while the texts are on their way, not in
  // the same long task as the evaluation of the entry script: Lighthouse's TBT counts each task's time past 50 ms.
  await nextTask();
  appSystem();
  await texts;
  installProblemHandler();
  configureApi({ afterWrite: markReadsStale });
  await mountApp(<App router={router} queryClient={queryClient} painted={prerendered !== null} />, prerendered, router, queryClient);
  registerServiceWorkerLater();
}

/** Lets the browser run what is waiting (input, paint, network) before what follows. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

void start();
