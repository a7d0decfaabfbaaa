import type { Plugin } from 'vite';

/** Chakra's createSystem (node_modules/@chakra-ui/react/dist/esm/styled-system/system.js) and the line it computes the global CSS in. */
const SYSTEM_MODULE = /@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]system\.js$/;
const GLOBAL_LINE = 'const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];';

/**
 * Chakra's `createSystem` serialises the whole global CSS (reset, global styles and ~690 token variables through
 * its `css` function) every time it runs, whether or not the provider will insert it: ~55% of the call, ~140 ms
 * of the entry script's evaluation at 4× CPU. The app's system carries no global CSS (the build writes it to a
 * stylesheet, vite.config.ts; `system` in web/src/theme.ts), so in the browser build `_global` is left empty and
 * never computed. `getTokenCss`/`getGlobalCss`/`getPreflightCss` stay on the system and still compute it when
 * called. The build's stylesheet is taken in Node, from the untouched module (web/src/global-css.ts).
 *
 * The build fails if Chakra's module no longer has that line (an upgrade changed it): look at `createSystem` again.
 */
export function chakraSystemWithoutGlobalCss(): Plugin {
  return {
    name: 'halal-chakra-system-without-global-css',
    enforce: 'pre',
    transform(code, id) {
      if (!SYSTEM_MODULE.test(id.split('?')[0]!)) return undefined;
      if (!code.includes(GLOBAL_LINE)) this.error(`${id}: Chakra's createSystem changed (no "${GLOBAL_LINE}"); see web/build/chakra-system.ts`);
      return { code: code.replace(GLOBAL_LINE, 'const _global = [];'), map: null };
    },
  };
}
