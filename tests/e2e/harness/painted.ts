import type { Page } from 'playwright-core';

/**
 * For pages the server painted (server/plugins/prerender.ts), which ask for the app's entry script when the visitor
 * engages (web/public/after-paint.js): hold the entry back to look at or act on the painted page first, watch layout
 * shifts across the takeover, and wait until the painted page is what the visitor sees.
 */

/** Holds every request for the app's entry script until `release()`; `asked()` says whether one was made. */
export async function holdEntry(page: Page): Promise<{ release: () => void; asked: () => boolean }> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  return { release, asked: () => asked };
}

/** From the page's start, adds up the layout shifts not caused by input; read and reset with `layoutShift`. */
export async function watchLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { shift: number };
    w.shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) if (!e.hadRecentInput) w.shift += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift added up since the page started or since the last reset. */
export async function layoutShift(page: Page, { reset = false } = {}): Promise<number> {
  return page.evaluate((r) => {
    const w = window as unknown as { shift: number };
    const shift = w.shift;
    if (r) w.shift = 0;
    return shift;
  }, reset);
}

/**
 * Waits until the painted page is what the visitor sees: its stylesheets applied and a frame drawn (the browser draws
 * nothing before that; a layout read earlier sees the unstyled page), and every font face loaded (a face not asked
 * for yet, a heading's bold, would swap in later, app or not).
 */
export async function paintSettled(page: Page): Promise<void> {
  await page.waitForFunction(() => Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')).every((l) => l.sheet !== null));
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.evaluate(() => Promise.all(Array.from(document.fonts).map((f) => f.load())).then(() => document.fonts.ready).then(() => undefined));
}
