import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, screenshot, signIn, startServer, waitForIdle, type RunningServer } from './harness';

/**
 * Issue 15 item 5 in real Chromium: the administrator overrides a menu label in Arabic and in English on
 * language-management and sees it in the header after a reload, in both languages; a template whose variable was
 * removed cannot be saved; account, saas and openiddict say what the portal uses instead, in both languages.
 */
const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const menuText = async (page: Page) => (await testId(page, 'main-menu').innerText()).trim();

describe('text overrides in the browser', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('an administrator overrides the Home menu label in Arabic and English and sees it after reload', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signIn(page, 'admin');
    expect(await menuText(page)).toContain('الرئيسية');
    await page.goto('/language-management');
    await waitForIdle(page);
    await page.locator('input[name="search"]').fill('menu.home');
    await page.locator('select[name="namespace"]').selectOption('shell');
    await testId(page, 'texts-search').click();
    await testId(page, 'edit-shell:menu.home').click();
    const editor = testId(page, 'text-editor');
    await editor.waitFor();
    await editor.locator('textarea[name="value-ar"]').fill('الصفحة الأولى');
    await editor.locator('textarea[name="value-en"]').fill('Front page');
    expect(await testId(page, 'preview-ar').innerText()).toBe('الصفحة الأولى');
    expect(await testId(page, 'preview-ar').getAttribute('dir')).toBe('rtl');
    expect(await testId(page, 'preview-en').getAttribute('dir')).toBe('ltr');
    await screenshot(page, 'texts-edit-menu-label');
    await testId(page, 'text-save').click();
    await editor.waitFor({ state: 'detached' });
    await testId(page, 'overridden-ar').first().waitFor();

    await page.reload();
    await waitForIdle(page);
    expect(await menuText(page)).toContain('الصفحة الأولى');
    expect(await menuText(page)).not.toContain('الرئيسية');
    await testId(page, 'language-toggle').click();
    await page.waitForFunction(() => document.documentElement.dir === 'ltr');
    await page.reload();
    await waitForIdle(page);
    expect(await menuText(page)).toContain('Front page');
    await screenshot(page, 'texts-menu-label-en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a template without one of its variables cannot be saved, and the preview fills the variables', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signIn(page, 'admin');
    await page.goto('/text-template-management?lang=en');
    await waitForIdle(page);
    await page.locator('input[name="search"]').fill('account.sms.register');
    await testId(page, 'texts-search').click();
    await testId(page, 'edit-shell:account.sms.register').click();
    const editor = testId(page, 'text-editor');
    await editor.locator('textarea[name="value-en"]').fill('Your code is {{code}}.');
    expect(await editor.getByTestId('field-error').innerText()).toContain('{{code}} {{minutes}}');
    expect(await testId(page, 'text-save').isDisabled()).toBe(true);
    await editor.locator('textarea[name="value-en"]').fill('Your code is {{code}}, valid {{minutes}} minutes.');
    expect(await testId(page, 'preview-en').innerText()).toBe('Your code is 482913, valid 5 minutes.');
    expect(await testId(page, 'text-save').isDisabled()).toBe(false);
    await screenshot(page, 'texts-template-preview');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('account, saas and openiddict say what the portal uses instead, in Arabic and English', async () => {
    const { page, context, errors } = await openPage(browser, server.url);
    await signIn(page, 'admin');
    for (const [path, ar, en] of [
      ['/account', 'صفحة تسجيل الدخول الخاصة بالبوابة', "the portal's own sign-in page"],
      ['/saas', 'جهة واحدة هي مركز الحلال', 'one organisation, the Halal center'],
      ['/openiddict', 'لا تشغّل البوابة خادم OpenID Connect', 'runs no OpenID Connect or OAuth server'],
    ]) {
      await page.goto(`${path}?lang=ar`);
      await waitForIdle(page);
      expect(await testId(page, 'instead-page').innerText()).toContain(ar);
      expect(await testId(page, 'placeholder-page').count()).toBe(0);
      await page.goto(`${path}?lang=en`);
      await waitForIdle(page);
      expect(await testId(page, 'instead-page').innerText()).toContain(en);
    }
    await screenshot(page, 'texts-openiddict-en');
    expect(errors).toEqual([]);
    await context.close();
  });
});
