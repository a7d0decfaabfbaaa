import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChakraProvider } from '@chakra-ui/react';
import { RouterProvider } from '@tanstack/react-router';
// Self-hosted fonts (nothing loads from a CDN): Arabic and Latin subsets, regular, semibold and bold weights.
import './fonts.css';
import { initI18n } from './i18n';
import { installProblemHandler } from './components/problem-handler';
import { FullPageLoader } from './components/FullPageLoader';
import { Toaster } from './components/toaster';
import { router } from './router';
import { registerServiceWorkerWhenStable } from './session/service-worker';
import { system } from './theme';

async function start() {
  await initI18n();
  installProblemHandler();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ChakraProvider value={system}>
        <RouterProvider router={router} />
        <FullPageLoader />
        <Toaster />
      </ChakraProvider>
    </StrictMode>,
  );
  // The worker (sw.js) exists only in a production build: `npm run dev` never registers one.
  if (import.meta.env.PROD) registerServiceWorkerWhenStable(router);
}

void start();
