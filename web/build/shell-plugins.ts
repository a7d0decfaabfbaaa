import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { OutputBundle, OutputChunk } from 'rollup';
import type { Plugin } from 'vite';

/*
 * Build-time parts of the shell's loading (issue 18 item 1):
 * - serviceWorker(): writes /sw.js from ./service-worker.js with this build's id and its shell files (the page,
 *   the entry script with everything it imports statically, the shell's lazy dialogs, its CSS and the fonts).
 * - preloadFonts(): preload links for the regular weights, so text is drawn in its own font from the first paint
 *   instead of swapping (a layout shift) when the font arrives after the entry script.
 */

const TEMPLATE = new URL('./service-worker.js', import.meta.url);

/**
 * The entry chunk's file and every chunk and CSS file it imports statically, transitively, and the shell's own lazy
 * parts (web/src/components: its dialogs, drawer and toasts, lazy-when-open.tsx) with theirs: an open page of an old
 * build must still open the new-version dialog after a new build has replaced the files on the server.
 */
function shellFiles(bundle: OutputBundle): string[] {
  const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const files = new Set<string>();
  const visit = (chunk: OutputChunk) => {
    if (files.has(chunk.fileName)) return;
    files.add(chunk.fileName);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
    for (const name of chunk.imports) {
      const next = byName.get(name);
      if (next) visit(next);
    }
  };
  chunks.filter((c) => c.isEntry).forEach(visit);
  const lazyParts = [...files]
    .flatMap((file) => byName.get(file)?.dynamicImports ?? [])
    .map((name) => byName.get(name))
    .filter((chunk) => chunk?.facadeModuleId?.includes('/web/src/components/'));
  lazyParts.forEach((chunk) => visit(chunk!));
  return [...files];
}

const fontFiles = (bundle: OutputBundle) => Object.keys(bundle).filter((name) => name.endsWith('.woff2'));

export function serviceWorker(): Plugin {
  return {
    name: 'halal-service-worker',
    apply: 'build',
    generateBundle(_options, bundle) {
      const shell = ['/index.html', ...[...shellFiles(bundle), ...fontFiles(bundle)].map((f) => `/${f}`)];
      // The id changes whenever any output file does, so the browser sees a new worker for a new build.
      const build = createHash('sha256').update(Object.keys(bundle).sort().join('\n')).digest('hex').slice(0, 16);
      const source = readFileSync(TEMPLATE, 'utf8').replace('__BUILD__', build).replace('__SHELL__', JSON.stringify(shell));
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

/**
 * Fonts to preload: the regular and semibold (headings) weights of the Arabic face and of the Latin one. Without
 * the semibold, a heading drawn in the fallback face re-wrapped when its face arrived (CLS 0.2 on /accredited-cb).
 */
const PRELOADED = [/^assets\/noto-sans-arabic-arabic-(400|600)-normal-.*\.woff2$/, /^assets\/inter-latin-(400|600)-normal-.*\.woff2$/];

export function preloadFonts(): Plugin {
  return {
    name: 'halal-preload-fonts',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const fonts = ctx.bundle ? fontFiles(ctx.bundle).filter((f) => PRELOADED.some((re) => re.test(f))) : [];
        return fonts.map((f) => ({
          tag: 'link',
          attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${f}`, crossorigin: '' },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}
