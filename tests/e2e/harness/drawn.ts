import type { Page } from 'playwright-core';

/**
 * How a code like "2026-000001" is drawn inside the element: it reads left to right in both languages (its first
 * character drawn left of its last one) and on one line (its characters share one top).
 */
export async function numberDrawn(page: Page, selector: string, text: string): Promise<{ leftToRight: boolean; lines: number }> {
  return page.evaluate(
    ({ selector, text }) => {
      const root = document.querySelector(selector);
      if (!root) throw new Error(`no ${selector}`);
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = n.textContent!.indexOf(text);
        if (i < 0) continue;
        const rect = (k: number) => {
          const r = document.createRange();
          r.setStart(n!, k);
          r.setEnd(n!, k + 1);
          return r.getBoundingClientRect();
        };
        const rects = Array.from(text, (_, k) => rect(i + k));
        const lines = new Set(rects.map((r) => Math.round(r.top))).size;
        return { leftToRight: lines === 1 && rects[0].left < rects[rects.length - 1].left, lines };
      }
      throw new Error(`"${text}" not found in ${selector}`);
    },
    { selector, text },
  );
}

/**
 * How each numeric date ("29/11/2026", as Arabic pages write them) under the element is drawn: `dayFirst` when it reads
 * day, month, year in the page's direction (in Arabic: the day rightmost, the year leftmost), each number's digits left
 * to right. An LTR isolate around Intl's Arabic date reorders it ("292026/11/"): that is `scrambled`.
 */
export async function datesDrawn(page: Page, selector: string): Promise<{ text: string; order: 'dayFirst' | 'scrambled' }[]> {
  return page.evaluate((selector) => {
    const rtl = getComputedStyle(document.documentElement).direction === 'rtl';
    const found: { text: string; order: 'dayFirst' | 'scrambled' }[] = [];
    for (const root of document.querySelectorAll(selector)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        for (const m of n.textContent!.matchAll(/(\d{1,2})\u200f?\/(\d{1,2})\u200f?\/(\d{4})/g)) {
          const at = (k: number) => {
            const r = document.createRange();
            r.setStart(n!, k);
            r.setEnd(n!, k + 1);
            return r.getBoundingClientRect().left;
          };
          // Each part (day, month, year): where its first and last digits are drawn.
          const month = m[0].indexOf('/') + 1;
          const year = m[0].indexOf('/', month) + 1;
          const parts = [
            [0, m[1]],
            [month, m[2]],
            [year, m[3]],
          ].map(([offset, digits]) => {
            const start = m.index! + (offset as number);
            return { first: at(start), last: at(start + (digits as string).length - 1) };
          });
          const digitsInOrder = parts.every((q) => q.first <= q.last);
          const [d, mo, y] = parts.map((q) => q.first);
          const dayFirst = rtl ? d > mo && mo > y : d < mo && mo < y;
          found.push({ text: m[0], order: digitsInOrder && dayFirst ? 'dayFirst' : 'scrambled' });
        }
      }
    }
    return found;
  }, selector);
}

/** How far the page scrolls sideways (px); 0 or less when it scrolls only vertically. */
export const horizontalOverflow = (page: Page): Promise<number> =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * The cells of the page's lists and item tables: how many, those not wholly inside the window (what a table leaves
 * to a sideways swipe), and those whose column has a name but that show the value without it.
 */
export const listCells = (page: Page): Promise<{ total: number; offScreen: string[]; unlabelled: string[] }> =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The shown cells of every table drawn as cards on a phone (components/CardTable.tsx), not the one cell across
    // the columns that says a list is empty.
    const cells = ([...document.querySelectorAll('table[role="table"] > tbody > tr > td')] as HTMLTableCellElement[]).filter((td) => td.colSpan === 1 && td.getClientRects().length > 0);
    const text = (td: HTMLTableCellElement) => td.innerText.trim();
    const columnName = (td: HTMLTableCellElement) => td.closest('table')!.querySelector(`thead th:nth-child(${[...td.parentElement!.children].indexOf(td) + 1})`)?.textContent;
    return {
      total: cells.length,
      offScreen: cells.filter((td) => td.getBoundingClientRect().left < 0 || td.getBoundingClientRect().right > width).map(text),
      unlabelled: cells.filter((td) => columnName(td) && !(td.querySelector('[data-testid="cell-label"]') as HTMLElement | null)?.offsetParent).map(text),
    };
  });
