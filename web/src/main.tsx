// Self-hosted fonts (nothing loads from a CDN): Arabic and Latin, regular and bold weights.
import '@fontsource/noto-sans-arabic/arabic-400.css';
import '@fontsource/noto-sans-arabic/arabic-600.css';
import '@fontsource/noto-sans-arabic/arabic-700.css';
import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/inter/latin-700.css';
import { initI18n } from './i18n';
import { configureApi } from './api/client';
import { markReadsStale, queryClient } from './api/query';
import { installProblemHandler } from './components/problem-handler';
import { router } from './router';
import { registerServiceWorkerLater } from './service-worker';
import { App } from './app';
import { mountApp, prerenderState } from './prerender/take-over';

async function start() {
  // A public page the server painted (prerender/): the app takes over in the language it was painted in.
  const prerendered = prerenderState();
  await initI18n(prerendered?.lang);
  installProblemHandler();
  configureApi({ afterWrite: markReadsStale });
  await mountApp(<App router={router} queryClient={queryClient} />, prerendered, router, queryClient);
  registerServiceWorkerLater();
}

void start();
