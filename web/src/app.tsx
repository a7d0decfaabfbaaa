import { StrictMode, useEffect } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ShellAtOnce } from './components/AppShell';
import { FullPageLoader } from './components/FullPageLoader';
import { Toaster } from './components/toaster';
import { appSystem } from './theme';
import { announceHydrated } from './prerender/hydrated';

/**
 * The whole app: the browser renders it (main.tsx) and the server prerenders public pages with it
 * (prerender/render.tsx), so both trees are the same element for element and the browser can hydrate the server's.
 * `painted`: the server paints this page, or the browser hydrates what it painted (AppShell's ShellAtOnce).
 */
export function App({ router, queryClient, painted = false }: { router: AnyRouter; queryClient: QueryClient; painted?: boolean }) {
  // Runs once the browser's hydration of a painted page's frame has committed (prerender/hydrated.ts).
  useEffect(() => {
    if (painted) announceHydrated('root');
  }, [painted]);
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ChakraProvider value={appSystem()}>
          <ShellAtOnce.Provider value={painted}>
            <RouterProvider router={router} />
          </ShellAtOnce.Provider>
          <FullPageLoader />
          <Toaster />
        </ChakraProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
