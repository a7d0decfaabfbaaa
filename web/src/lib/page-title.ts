/**
 * The page's title (PageHeader's "<title> | <portal name>"). In the browser it is the tab's title, set once the page
 * is drawn. During the server's render of a page (web/src/prerender/render.tsx) no effect runs, so the title is
 * kept here for the HTML's <title>: a painted page has its own title before the app has loaded.
 */
let rendered: string | null = null;

/** Called while rendering: only a server render (no document) keeps it. */
export function renderingTitle(title: string): void {
  if (typeof document === 'undefined') rendered = title;
}

/** The title the last server render set, if any; cleared for the next render. */
export function takeRenderedTitle(): string | null {
  const title = rendered;
  rendered = null;
  return title;
}
