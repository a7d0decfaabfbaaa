import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { preloadFonts, serviceWorker } from './web/build/shell-plugins';

/** The server's prerender of public pages (`vite build --ssr`): web/src/prerender/render.tsx, loaded by server/plugins/prerender.ts. */
export const SSR_ENTRY = 'web/src/prerender/render.tsx';

// The web app lives in web/; in development /api is proxied to the Fastify server (npm run dev).
// The build writes gzip and brotli copies of every text asset next to it; the server sends them as they are
// (server/plugins/web.ts, preCompressed), so no request pays for compression.
// `vite build --ssr` builds the prerender into web/dist-ssr (the server looks for it beside web/dist).
export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        root: 'web',
        plugins: [react()],
        publicDir: false,
        // Self-contained (dependencies bundled in): it runs wherever it was written, e.g. the E2E run's temporary folder.
        ssr: { noExternal: true },
        build: {
          ssr: true,
          outDir: 'dist-ssr',
          emptyOutDir: true,
          rollupOptions: {
            input: SSR_ENTRY,
            output: { entryFileNames: 'render.js' },
            // Bundling dependencies in shows zod's comments Rollup cannot place (harmless; the client build drops them silently).
            onwarn(warning, warn) {
              if (warning.code !== 'INVALID_ANNOTATION') warn(warning);
            },
          },
        },
      }
    : {
        root: 'web',
        plugins: [react(), preloadFonts(), serviceWorker(), compression({ algorithms: ['gzip', 'brotliCompress'], include: /\.(js|css|html|svg|json|txt|xml)$/, threshold: 1024 })],
        build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
        server: { port: 5173, proxy: { '/api': 'http://localhost:3000', '/simulators': 'http://localhost:3000' } },
      },
);
