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
