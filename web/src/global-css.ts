import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import { fullSystem } from './theme';

/**
 * The Chakra system's global CSS exactly as its provider inserts it through emotion at the first render (the
 * cascade layer order, then reset, keyframes, global styles and token variables), taken from a server render of
 * the provider. The build writes it to a stylesheet (vite.config.ts); the app's system carries none (theme.ts).
 */
export function chakraGlobalCss(): string {
  const html = renderToStaticMarkup(createElement(ChakraProvider, { value: fullSystem(), children: null }));
  return [...html.matchAll(/<style data-emotion="[^"]*"[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
}
