import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { preloadFonts, serviceWorker } from './web/build/shell-plugins';
import { chakraSystemWithoutGlobalCss } from './web/build/chakra-system';

const GLOBAL_CSS = 'virtual:chakra-global.css';

/**
 * `import 'virtual:chakra-global.css'` (main.tsx): the Chakra system's global CSS written at build time
 * (web/src/global-css.ts), so the first render does not serialise and insert it through emotion. A change to
 * web/src/theme.ts needs a restart of the dev server to show here.
 */
function chakraGlobalCss(): Plugin {
  return {
    name: 'halal-chakra-global-css',
    resolveId: (id) => (id === GLOBAL_CSS ? `\0${GLOBAL_CSS}` : undefined),
    async load(id) {
      if (id !== `\0${GLOBAL_CSS}`) return undefined;
      const { chakraGlobalCss: css } = await import('./web/src/global-css');
      return css();
    },
  };
}

/** The server's prerender of public pages (`vite build --ssr`): web/src/prerender/render.tsx, loaded by server/plugins/prerender.ts. */
export const SSR_ENTRY = 'web/src/prerender/render.tsx';

// The web app lives in web/; in development /api is proxied to the Fastify server (npm run dev).
// The build writes gzip and brotli copies of every text asset next to it; the server sends them as they are
// (server/plugins/web.ts, preCompressed), so no request pays for compression.
// `vite build --ssr` builds the prerender into web/dist-ssr (the server looks for it beside web/dist).
/** zod's sources carry `@__PURE__` comments Rollup cannot place: harmless, and they filled `npm start`'s first screen. */
function withoutZodAnnotations(warning: Rollup.RollupLog, warn: (w: Rollup.RollupLog) => void) {
  if (warning.code !== 'INVALID_ANNOTATION') warn(warning);
}

export default defineConfig(({ isSsrBuild }) =>
  isSsrBuild
    ? {
        root: 'web',
        plugins: [react()],
        publicDir: false,
        // Self-contained (dependencies bundled in): it runs wherever it was written, e.g. the E2E run's temporary folder.
        ssr: { noExternal: true },
        // i18n-iso-countries' Node entry requires every language file dynamically, which the bundle cannot hold: the
        // prerender takes the browser's entry, as the app does (web/src/lib/countries.ts registers the two it needs).
        resolve: { alias: [{ find: /^i18n-iso-countries$/, replacement: fileURLToPath(new URL('node_modules/i18n-iso-countries/index.js', import.meta.url)) }] },
        build: {
          ssr: true,
          outDir: 'dist-ssr',
          emptyOutDir: true,
          rollupOptions: {
            input: SSR_ENTRY,
            output: { entryFileNames: 'render.js' },
            onwarn: withoutZodAnnotations,
          },
        },
      }
    : {
        root: 'web',
        plugins: [react(), chakraSystemWithoutGlobalCss(), chakraGlobalCss(), preloadFonts(), serviceWorker(), compression({ algorithms: ['gzip', 'brotliCompress'], include: /\.(js|css|html|svg|json|txt|xml)$/, threshold: 1024 })],
        // CSS is not minified: the Chakra global CSS comes out of emotion already compact, and left as it is it stays
        // rule for rule what the provider would insert (tests/e2e/public.e2e.ts compares them).
        build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000, cssMinify: false, rollupOptions: { onwarn: withoutZodAnnotations } },
        server: { port: 5173, proxy: { '/api': 'http://localhost:3000', '/simulators': 'http://localhost:3000' } },
      },
);
