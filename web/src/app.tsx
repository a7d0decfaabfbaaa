import { StrictMode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { RouterProvider, type AnyRouter } from '@tanstack/react-router';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { FullPageLoader } from './components/FullPageLoader';
import { Toaster } from './components/toaster';
import { system } from './theme';

/**
 * The whole app: the browser renders it (main.tsx) and the server prerenders public pages with it
 * (prerender/render.tsx), so both trees are the same element for element and the browser can hydrate the server's.
 */
export function App({ router, queryClient }: { router: AnyRouter; queryClient: QueryClient }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <ChakraProvider value={system}>
          <RouterProvider router={router} />
          <FullPageLoader />
          <Toaster />
        </ChakraProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
