import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import { horizontalOverflow, launchBrowser, listCells, openPage, screenshot, signIn, startServer, waitForIdle, type RunningServer } from './harness';
import { DEMO_VERIFICATION_CODES } from '../../db/seed-public';
import { chakraGlobalCss } from '../../web/src/global-css';

/** The public site (issue 7): HS codes, accredited CBs, verification, content pages, the assistant, accessibility. */

const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const htmlLangDir = (page: Page) => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
const ARABIC = /[\u0600-\u06FF]/;

/** Waits until a counter shows a number different from `previous` and returns it. */
async function countChange(page: Page, id: string, previous: string | null): Promise<string> {
  await page.waitForFunction(
    ([sel, prev]) => {
      const el = document.querySelector(sel as string);
      const v = el?.getAttribute('data-count');
      return !!v && v !== prev;
    },
    [`[data-testid="${id}"]`, previous],
    { timeout: 30_000 },
  );
  return (await testId(page, id).getAttribute('data-count'))!;
}

async function open(page: Page, path: string) {
  await page.goto(path);
  await waitForIdle(page);
  await testId(page, 'page-title').first().waitFor();
}

describe('public site', () => {
  let server: RunningServer;
  let browser: Browser;
  let newsPath: string;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const news = (await (await fetch(`${server.url}/api/public/news?pageSize=1`)).json()) as { items: { id: string }[] };
    newsPath = `/media-center/${news.items[0].id}`;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('searches HS codes and the count of matches changes as the visitor types', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await open(page, '/hs-code?lang=en');
    const all = await countChange(page, 'hs-count', null);
    expect(Number(all)).toBe(96 + 1228 + 5612);

    await testId(page, 'hs-search').fill('0201');
    expect(await countChange(page, 'hs-count', all)).toBe('4');
    await expect.poll(() => testId(page, 'data-table').locator('tbody tr').count()).toBe(4);
    expect(await testId(page, 'hs-halal').count()).toBe(4);

    await testId(page, 'hs-search').fill('bovine');
    const bovine = await countChange(page, 'hs-count', '4');
    await testId(page, 'hs-search').fill('bovine frozen');
    const narrower = await countChange(page, 'hs-count', bovine);
    expect(Number(narrower)).toBeLessThan(Number(bovine));
    await screenshot(page, 'public-hs-code-en');

    // The tree: open section I, then chapter 02, and see pork flagged apart from beef.
    await testId(page, 'hs-view-tree').click();
    await page.locator('[data-testid="hs-tree-node"][data-code="I"] > button').click();
    await page.locator('[data-testid="hs-tree-node"][data-code="02"] > button').click();
    await page.locator('[data-testid="hs-tree-node"][data-code="0203"]').waitFor();
    expect(await page.locator('[data-testid="hs-tree-node"][data-code="0201"]').innerText()).toContain('Halal-eligible');
    expect(await page.locator('[data-testid="hs-tree-node"][data-code="0203"] > button').innerText()).not.toContain('Halal-eligible');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('searches HS codes in Arabic', async () => {
    const { page, context } = await openPage(browser, server.url);
    await open(page, '/hs-code?lang=ar');
    expect(await htmlLangDir(page)).toEqual(['ar', 'rtl']);
    const all = await countChange(page, 'hs-count', null);
    await testId(page, 'hs-search').fill('ألبان');
    await countChange(page, 'hs-count', all);
    expect(await testId(page, 'data-table').innerText()).toContain('ألبان ومنتجاتها');
    expect(await testId(page, 'hs-count').innerText()).toMatch(/عدد الرموز المطابقة/);
    await screenshot(page, 'public-hs-code-ar');
    await context.close();
  });

  it('lists accredited conformity bodies and filters them by country', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await open(page, '/accredited-cb?lang=en');
    const all = await countChange(page, 'cb-count', null);
    expect(all).toBe('8');
    await testId(page, 'cb-country').selectOption('TR');
    expect(await countChange(page, 'cb-count', all)).toBe('1');
    const table = await testId(page, 'data-table').innerText();
    expect(table).toContain('Istanbul Halal Accreditation Institute');
    expect(table).toContain('Active');
    await testId(page, 'cb-country').selectOption('MY');
    expect(await countChange(page, 'cb-count', '1')).toBe('2');
    expect(await testId(page, 'data-table').innerText()).toContain('Suspended');
    await screenshot(page, 'public-accredited-cb-en');

    // The certificate number opens its verification page.
    await page.getByRole('link', { name: /HC-CB-000012/ }).click();
    await testId(page, 'verify-result').waitFor();
    expect(await testId(page, 'verify-result').getAttribute('data-status')).toBe('active');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('verifies an active certificate: number, holder, products, dates in Gregorian and Hijri', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await open(page, `/verify/${DEMO_VERIFICATION_CODES.active}?lang=en`);
    await testId(page, 'verify-result').waitFor();
    expect(await testId(page, 'verify-result').getAttribute('data-status')).toBe('active');
    expect(await testId(page, 'verify-number').innerText()).toBe('HC-INT-2025-000118');
    expect(await testId(page, 'verify-holder').innerText()).toContain('Najd Dairy Company');
    expect(await testId(page, 'verify-status-text').innerText()).toContain('genuine and valid');
    expect(await testId(page, 'verify-products').locator('tbody tr').count()).toBe(3);
    expect(await testId(page, 'verify-expires-hijri').innerText()).toMatch(/\d+ [A-Za-z' -]+ 1\d{3} AH/);
    await screenshot(page, 'public-verify-active-en');

    await open(page, `/verify/${DEMO_VERIFICATION_CODES.active}?lang=ar`);
    await testId(page, 'verify-result').waitFor();
    expect(await testId(page, 'certificate-status').first().innerText()).toBe('سارية');
    expect(await testId(page, 'verify-expires-hijri').innerText()).toMatch(/هـ/);
    await screenshot(page, 'public-verify-active-ar');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the other statuses, and says plainly that an unknown code does not exist', async () => {
    const { page, context } = await openPage(browser, server.url);
    for (const [code, status] of [
      [DEMO_VERIFICATION_CODES.expiringSoon, 'expiringSoon'],
      [DEMO_VERIFICATION_CODES.expired, 'expired'],
      [DEMO_VERIFICATION_CODES.suspended, 'suspended'],
      [DEMO_VERIFICATION_CODES.markValidSoon, 'validSoon'],
    ]) {
      await open(page, `/verify/${code}?lang=en`);
      await testId(page, 'verify-result').waitFor();
      expect(await testId(page, 'verify-result').getAttribute('data-status'), code).toBe(status);
    }

    await open(page, '/verify/FORGED1234?lang=en');
    await testId(page, 'verify-not-found').waitFor();
    expect(await testId(page, 'verify-not-found').innerText()).toContain('No such certificate');
    expect(await testId(page, 'verify-not-found').innerText()).toContain('FORGED1234');
    expect(await testId(page, 'error-screen').count()).toBe(0);
    await screenshot(page, 'public-verify-unknown-en');

    // Typing a number on the home page leads to the same page.
    await open(page, '/home?lang=ar');
    await testId(page, 'verify-input').fill('HC-EXT-2024-004271');
    await testId(page, 'verify-submit').click();
    await testId(page, 'verify-result').waitFor();
    expect(new URL(page.url()).pathname).toBe('/verify/HC-EXT-2024-004271');
    expect(await testId(page, 'verify-result').getAttribute('data-status')).toBe('expiringSoon');
    await context.close();
  });

  it("shows a public list and a certificate's products on a phone as a card per row: every value on screen beside its column name, in both languages", async () => {
    for (const lang of ['ar', 'en'] as const) {
      const { page, context, errors } = await openPage(browser, server.url, { viewport: { width: 390, height: 844 } });
      // The verification page is what a shopper opens from a QR code on a product: a phone first.
      for (const path of ['/hs-code', '/accredited-cb', '/our-customers', `/verify/${DEMO_VERIFICATION_CODES.active}`]) {
        await open(page, `${path}?lang=${lang}`);
        await page.locator('table[role="table"] tbody tr').first().waitFor();
        const cells = await listCells(page);
        expect(cells.total, `${lang} ${path}`).toBeGreaterThan(3);
        // As a table, the last columns (a CB's certificate status, a customer's city) sat off screen in the table's own scroll.
        expect(cells.offScreen, `${lang} ${path}`).toEqual([]);
        expect(cells.unlabelled, `${lang} ${path}`).toEqual([]);
        expect(await horizontalOverflow(page), `${lang} ${path}`).toBeLessThanOrEqual(0);
        const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 2).join(' | ')}`), `${lang} ${path}`).toEqual([]);
      }
      await screenshot(page, `public-verify-${lang}-390`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('shows every public page in Arabic right-to-left and English left-to-right, from its own host only', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    const foreign: string[] = [];
    page.on('request', (r) => {
      // Network requests only: the browser's own PDF viewer loads chrome:// and chrome-extension:// resources.
      const url = r.url();
      if (/^(https?|wss?):/.test(url) && !url.startsWith(server.url)) foreign.push(url);
    });
    const paths = ['/home', '/user-manual', '/hs-code', '/accredited-cb', '/our-customers', '/media-center', newsPath, '/about-center', '/contact-us', '/privacy', '/faq', `/verify/${DEMO_VERIFICATION_CODES.mark}`, '/public/about-center'];
    for (const lang of ['ar', 'en'] as const) {
      for (const path of paths) {
        await open(page, `${path}?lang=${lang}`);
        expect(await htmlLangDir(page), `${path} ${lang}`).toEqual([lang, lang === 'ar' ? 'rtl' : 'ltr']);
        const title = await testId(page, 'page-title').first().innerText();
        expect(title.length, path).toBeGreaterThan(2);
        expect(ARABIC.test(title), `${path} ${lang}: ${title}`).toBe(lang === 'ar');
        expect(await testId(page, 'error-screen').count(), path).toBe(0);
        expect(await page.title(), path).toMatch(lang === 'ar' ? ARABIC : /National Halal Center/);
        if (path === '/home') {
          await screenshot(page, `public-home-${lang}`);
          // The footer's links wrap as whole links, never inside one: at 1280 px every Arabic link was drawn on two
          // lines ("سياسة" / "الخصوصية"). A link is a flex item, so its height tells, not its client rects.
          for (const width of [1280, 1180, 900]) {
            await page.setViewportSize({ width, height: 800 });
            const broken = await testId(page, 'footer')
              .locator('nav a')
              .evaluateAll((links) => links.filter((a) => a.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(a).lineHeight)).map((a) => a.textContent));
            expect(broken, `${lang} ${width}`).toEqual([]);
          }
          await page.setViewportSize({ width: 1280, height: 800 });
        }
      }
    }
    await open(page, '/about-center?lang=ar');
    await screenshot(page, 'public-about-ar');
    await open(page, '/media-center?lang=en');
    expect(await testId(page, 'news-card').count()).toBe(6);
    await testId(page, 'news-next').click();
    await expect.poll(() => testId(page, 'news-page').innerText()).toBe('Page 2 of 2');
    await screenshot(page, 'public-media-center-en');
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws with the Chakra global CSS of the build stylesheet, rule for rule what the provider would insert', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await open(page, '/home?lang=en');
    // Each rule as the browser reads it back (nested rules after their @layer or @media), in order.
    const rules = (css: string | null) =>
      page.evaluate((text) => {
        const out: string[] = [];
        const walk = (list: CSSRuleList) => {
          for (const rule of Array.from(list)) {
            const group = rule as CSSGroupingRule & { name?: string; conditionText?: string };
            if (group.cssRules?.length) {
              out.push(`${rule.constructor.name} ${group.name ?? group.conditionText ?? ''}`);
              walk(group.cssRules);
            } else out.push(rule.cssText);
          }
        };
        if (text === null) {
          for (const link of Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]'))) walk(link.sheet!.cssRules);
        } else {
          const sheet = new CSSStyleSheet();
          sheet.replaceSync(text);
          walk(sheet.cssRules);
        }
        return out;
      }, css);
    const expected = await rules(chakraGlobalCss());
    const served = await rules(null);
    expect(expected.length).toBeGreaterThan(100);
    // The layer order first, then the reset, keyframes, global styles and the token variables the components use.
    expect(served.indexOf(expected[0]!)).toBeLessThan(served.indexOf(expected[1]!));
    expect(served.filter((r) => expected.includes(r))).toEqual(expected);
    expect(served.join('\n')).toContain('--chakra-colors-brand-solid: var(--chakra-colors-brand-700)');
    // And emotion inserted none of it again at the first render.
    const inserted = await page.evaluate(() =>
      Array.from(document.querySelectorAll('style[data-emotion]')).flatMap((s) => Array.from((s as HTMLStyleElement).sheet!.cssRules).map((r) => r.cssText)),
    );
    expect(inserted.filter((r) => r.includes('--chakra-colors-brand-solid:'))).toEqual([]);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('Inter');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('serves each public page with its title and description in the HTML, before the app runs', async () => {
    const en = await (await fetch(`${server.url}/accredited-cb`, { headers: { cookie: 'lang=en' } })).text();
    expect(en).toContain('<title>Accredited conformity bodies | National Halal Center</title>');
    expect(en).toContain('<html lang="en" dir="ltr"');
    const ar = await (await fetch(`${server.url}/hs-code`)).text();
    expect(ar).toContain('<title>رموز النظام المنسق | المركز الوطني للحلال</title>');
    expect(ar).toMatch(/<meta name="description" content="ابحثوا/);
  });

  it('embeds the user manual PDF with a download link', async () => {
    const { page, context } = await openPage(browser, server.url);
    await open(page, '/user-manual?lang=en');
    expect(await testId(page, 'manual-viewer').getAttribute('data')).toBe('/user-manual-en.pdf');
    const href = await testId(page, 'manual-download').getAttribute('href');
    const pdf = await fetch(`${server.url}${href}`);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    await open(page, '/user-manual?lang=ar');
    expect(await testId(page, 'manual-viewer').getAttribute('data')).toBe('/user-manual-ar.pdf');
    await context.close();
  });

  it('the assistant answers from the FAQ in the UI language, limits input to 70 characters and hides while scrolling', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    const chatCalls: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/public/chat')) chatCalls.push(r.headers()['recaptcha-token']);
    });
    await open(page, '/faq?lang=en');
    await testId(page, 'chat-button').click();
    const window = testId(page, 'chat-window');
    expect(await window.evaluate((el) => [el.getBoundingClientRect().width, el.getBoundingClientRect().height])).toEqual([400, 700]);
    await testId(page, 'chat-input').fill('How do I pay an invoice?');
    await testId(page, 'chat-send').click();
    await expect.poll(() => testId(page, 'chat-answer').count()).toBe(2);
    expect(await testId(page, 'chat-user').innerText()).toContain('How do I pay an invoice?');
    expect(await testId(page, 'chat-answer').last().innerText()).toContain('government payment portal');

    await testId(page, 'chat-input').fill('x'.repeat(90));
    expect((await testId(page, 'chat-input').inputValue()).length).toBe(70);
    expect(await testId(page, 'chat-counter').innerText()).toContain('0');
    expect(chatCalls.length).toBeGreaterThanOrEqual(2);
    expect(chatCalls.every((h) => !!h)).toBe(true);
    await screenshot(page, 'public-chat-en');

    await testId(page, 'chat-close').click();
    await page.setViewportSize({ width: 1280, height: 500 });
    // Keep scrolling: the button stays while the scrolling is under a second old, hides once it is over a second, then
    // comes back once scrolling stops. Scrolled until it hides (at most ~6 s), not a fixed count: on a loaded machine a
    // wheel can take longer than the 400 ms pause that counts as stopping, and the second starts again.
    const scrollingSince = Date.now();
    await page.mouse.wheel(0, 300);
    expect(await testId(page, 'chat-button').getAttribute('data-hidden')).toBe('false');
    for (let i = 1; i < 60 && (await testId(page, 'chat-button').getAttribute('data-hidden')) !== 'true'; i++) {
      await page.mouse.wheel(0, i % 2 ? -300 : 300);
      await page.waitForTimeout(100);
    }
    expect(await testId(page, 'chat-button').getAttribute('data-hidden')).toBe('true');
    expect(Date.now() - scrollingSince).toBeGreaterThanOrEqual(1000);
    await expect.poll(() => testId(page, 'chat-button').getAttribute('data-hidden'), { timeout: 5000 }).toBe('false');

    await open(page, '/faq?lang=ar');
    await testId(page, 'chat-button').click();
    await testId(page, 'chat-input').fill('كيف أتحقق من الشهادة؟');
    await testId(page, 'chat-send').click();
    await expect.poll(() => testId(page, 'chat-answer').count()).toBe(2);
    expect(await testId(page, 'chat-answer').last().innerText()).toContain('رمز الاستجابة السريعة');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets an administrator edit a page, and visitors see the change', async () => {
    const { page, context } = await openPage(browser, server.url);
    await signIn(page, 'admin');
    await open(page, '/privacy?lang=en');
    await testId(page, 'edit-page').click();
    const dialog = testId(page, 'edit-page-dialog');
    await dialog.locator('input[name="titleEn"]').fill('Privacy and data protection');
    await dialog.locator('[data-testid="edit-save"]').click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => testId(page, 'page-title').innerText()).toBe('Privacy and data protection');

    const visitor = await openPage(browser, server.url);
    await open(visitor.page, '/privacy?lang=en');
    expect(await testId(visitor.page, 'page-title').innerText()).toBe('Privacy and data protection');
    expect(await testId(visitor.page, 'edit-page').count()).toBe(0);
    await visitor.context.close();
    await context.close();
  });

  it('has no serious or critical accessibility violation on any public page, in either language', async () => {
    const { page, context } = await openPage(browser, server.url);
    const paths = ['/home', '/user-manual', '/hs-code', '/accredited-cb', '/our-customers', '/media-center', newsPath, '/about-center', '/contact-us', '/privacy', '/faq', `/verify/${DEMO_VERIFICATION_CODES.active}`, '/verify/UNKNOWN123'];
    const found: string[] = [];
    for (const lang of ['ar', 'en'] as const) {
      for (const path of paths) {
        await open(page, `${path}?lang=${lang}`);
        if (path.startsWith('/verify/')) await page.locator('[data-testid="verify-result"], [data-testid="verify-not-found"]').first().waitFor();
        const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        for (const v of result.violations) {
          if (v.impact === 'serious' || v.impact === 'critical') {
            found.push(`${lang} ${path}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
          }
        }
      }
    }
    // The open assistant window is part of every page too.
    await open(page, '/home?lang=en');
    await testId(page, 'chat-button').click();
    await testId(page, 'chat-window').waitFor();
    const chat = await new AxeBuilder({ page }).include('[data-testid="chat-window"]').analyze();
    for (const v of chat.violations) if (v.impact === 'serious' || v.impact === 'critical') found.push(`chat: ${v.id}`);
    expect(found).toEqual([]);
    await context.close();
  });
});
