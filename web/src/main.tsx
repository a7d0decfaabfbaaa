import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChakraProvider } from '@chakra-ui/react';
import { RouterProvider } from '@tanstack/react-router';
import { QueryClientProvider } from '@tanstack/react-query';
// Self-hosted fonts (nothing loads from a CDN): Arabic and Latin, regular and bold weights.
import '@fontsource/noto-sans-arabic/arabic-400.css';
import '@fontsource/noto-sans-arabic/arabic-600.css';
import '@fontsource/noto-sans-arabic/arabic-700.css';
import '@fontsource/inter/latin-400.css';
import '@fontsource/inter/latin-600.css';
import '@fontsource/inter/latin-700.css';
// The Chakra system's global CSS and token variables, written at build time (vite.config.ts, theme.ts).
import 'virtual:chakra-global.css';
import { initI18n } from './i18n';
import { configureApi } from './api/client';
import { markReadsStale, queryClient } from './api/query';
import { installProblemHandler } from './components/problem-handler';
import { FullPageLoader } from './components/FullPageLoader';
import { Toaster } from './components/toaster';
import { router } from './router';
import { registerServiceWorkerLater } from './service-worker';
import { system } from './theme';

async function start() {
  await initI18n();
  installProblemHandler();
  configureApi({ afterWrite: markReadsStale });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ChakraProvider value={system}>
          <RouterProvider router={router} />
          <FullPageLoader />
          <Toaster />
        </ChakraProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
  registerServiceWorkerLater();
}

void start();
