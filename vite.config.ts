import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';

/** The regular weights of the two fonts, preloaded by index.html (web/src/fonts.css: font-display optional). */
const PRELOADED_FONTS = [/noto-sans-arabic-arabic-400-normal-[\w-]+\.woff2$/, /inter-latin-400-normal-[\w-]+\.woff2$/];

/**
 * Production build only (issue 18, spec 01 section 9): preloads the regular fonts from index.html, and writes
 * sw.js — web/sw/service-worker.js preceded by this build's id and the files every page needs (the entry script
 * and the chunks it imports, its styles, both languages' texts, the preloaded fonts), which the worker caches when
 * it installs.
 */
function shellPlugin(): Plugin {
  return {
    name: 'halal-shell',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const files = Object.keys(ctx.bundle ?? {});
        return PRELOADED_FONTS.flatMap((pattern) => files.filter((f) => pattern.test(f))).map((file) => ({
          tag: 'link',
          attrs: { rel: 'preload', href: `/${file}`, as: 'font', type: 'font/woff2', crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
    generateBundle(_options, bundle) {
      const files = new Set<string>();
      const addChunk = (name: string) => {
        const chunk = bundle[name];
        if (!chunk || files.has(name)) return;
        files.add(name);
        if (chunk.type !== 'chunk') return;
        for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
        chunk.imports.forEach(addChunk);
      };
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk' && (item.isEntry || /locale-bundles/.test(item.facadeModuleId ?? ''))) addChunk(item.fileName);
        if (item.type === 'asset' && PRELOADED_FONTS.some((p) => p.test(item.fileName))) files.add(item.fileName);
      }
      const precache = [...files].sort().map((f) => `/${f}`);
      const build = createHash('sha256').update(Object.keys(bundle).sort().join('\n')).digest('hex').slice(0, 16);
      const worker = readFileSync(new URL('./web/sw/service-worker.js', import.meta.url), 'utf8');
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: `const BUILD = ${JSON.stringify(build)};\nconst PRECACHE = ${JSON.stringify(precache)};\n${worker}`,
      });
    },
  };
}

// The web app lives in web/; in development /api is proxied to the Fastify server (npm run dev).
// The build writes gzip and brotli copies of every text asset next to it; the server sends them as they are
// (server/plugins/web.ts, preCompressed), so no request pays for compression.
export default defineConfig({
  root: 'web',
  plugins: [
    react(),
    shellPlugin(),
    compression({ algorithms: ['gzip', 'brotliCompress'], include: /\.(js|css|html|svg|json|txt|xml)$/, threshold: 1024 }),
  ],
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 2000 },
  server: { port: 5173, proxy: { '/api': 'http://localhost:3000', '/simulators': 'http://localhost:3000' } },
});
