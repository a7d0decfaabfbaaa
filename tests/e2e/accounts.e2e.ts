import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import arShell from '../../locales/ar/shell.json';
import enShell from '../../locales/en/shell.json';
import arValidation from '../../locales/ar/validation.json';
import enValidation from '../../locales/en/validation.json';
import arErrors from '../../locales/ar/errors.json';
import enErrors from '../../locales/en/errors.json';
import { horizontalOverflow, launchBrowser, openPage, overlaps, screenshot, waitForIdle, type RunningServer, startServer } from './harness';

/**
 * Issue 17 items 6 and 7: a new applicant signs up (mobile confirmed by the code the SMS simulator received),
 * signs in, is offered the circular letter once ("Later" remembered), and resets the password; once in Arabic at
 * 390 px and once in English at 1280 px.
 */
const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const pathOf = (page: Page) => new URL(page.url()).pathname;
const fieldError = (page: Page, name: string) =>
  page.locator(`[data-part="root"]:has(input[name="${name}"]) [data-testid="field-error"]`).first();

/** axe's serious and critical findings on the page as it is now. */
async function axeFindings(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

const TEXT = {
  ar: { shell: arShell, validation: arValidation, errors: arErrors },
  en: { shell: enShell, validation: enValidation, errors: enErrors },
};

describe('self-service accounts', () => {
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

  /** The newest SMS to the number, read from the simulator's page (a phone, for this test) in another tab. */
  async function latestCode(context: BrowserContext, e164: string): Promise<string> {
    const phone = await context.newPage();
    await phone.goto(`${server.url}/simulators/sms?to=${encodeURIComponent(e164)}`);
    const text = (await phone.locator('[data-testid="sms"] .text').first().innerText()).trim();
    await phone.close();
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    expect(code, text).toBeTruthy();
    return code!;
  }
  const smsCount = async (e164: string) =>
    ((await (await fetch(`${server.url}/simulators/sms/messages?to=${encodeURIComponent(e164)}`)).json()) as { items: unknown[] }).items.length;

  const runs = [
    { lang: 'ar' as const, width: 390, dir: 'rtl', seq: 1 },
    { lang: 'en' as const, width: 1280, dir: 'ltr', seq: 2 },
  ];

  for (const { lang, width, dir, seq } of runs) {
    it(`signs up, signs in, answers the circular letter once and resets the password (${lang}, ${width} px)`, async () => {
      const tx = TEXT[lang];
      const nationalId = withLuhnDigit(`1${String(55_000_000 + seq).padStart(8, '0')}`);
      const local = `05${String(77_000_000 + seq).padStart(8, '0')}`;
      const e164 = `+966${local.slice(1)}`;
      const email = `applicant${seq}@example.com`;
      const password = 'Applicant#2026';
      const newPassword = 'Renewed#2027';
      const { page, context, errors } = await openPage(browser, server.url, { viewport: { width, height: 900 }, locale: lang === 'ar' ? 'ar-SA' : 'en-GB' });

      // Sign-in links to the sign-up page.
      await page.goto(`/account/login?lang=${lang}`);
      await waitForIdle(page);
      expect(await page.evaluate(() => document.documentElement.dir)).toBe(dir);
      expect(await testId(page, 'forgot-password-link').innerText()).toBe(tx.shell.account.forgotPassword);
      await screenshot(page, `accounts-login-links-${lang}-${width}`);
      await testId(page, 'register-link').click();
      await page.waitForURL('**/account/register');
      await waitForIdle(page);
      expect(await testId(page, 'page-title').innerText()).toBe(tx.shell.account.register.title);

      // Bad input: a message next to each field in the page's language, and no SMS goes out.
      await page.locator('input[name="nationalId"]').fill('1234567890');
      await page.locator('input[name="name"]').fill(lang === 'ar' ? 'سمير الحداد' : 'Samir Haddad');
      await page.locator('input[name="phone"]').fill('0112345678');
      await page.locator('input[name="email"]').fill(email);
      await page.locator('input[name="password"]').fill('weakpass');
      await page.locator('input[name="repeat"]').fill('weakpass');
      // The floating chat button never covers the form's action, scrolled to the end.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      expect(await overlaps(page, 'register-send-code', 'chat-button')).toBe(false);
      await testId(page, 'register-send-code').click();
      expect(await fieldError(page, 'nationalId').innerText()).toBe(tx.validation.nationalOrResidentId);
      expect(await fieldError(page, 'phone').innerText()).toBe(tx.validation.saudiMobile);
      expect(await fieldError(page, 'password').innerText()).toBe(tx.validation.strongPassword);
      expect(await smsCount('+966112345678')).toBe(0);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await screenshot(page, `accounts-register-errors-${lang}-${width}`);
      expect(await axeFindings(page)).toEqual([]);

      // Two different passwords: said next to the repeat field, and said again in the other language after a switch.
      await page.locator('input[name="password"]').fill(password);
      await page.locator('input[name="repeat"]').fill(`${password}x`);
      await testId(page, 'register-send-code').click();
      expect(await fieldError(page, 'repeat').innerText()).toBe(tx.shell.account.register.mismatch);
      const other = lang === 'ar' ? 'en' : 'ar';
      await testId(page, 'language-toggle').click();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(other);
      expect(await fieldError(page, 'repeat').innerText()).toBe(TEXT[other].shell.account.register.mismatch);
      await testId(page, 'language-toggle').click();
      await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe(lang);

      await page.locator('input[name="nationalId"]').fill(nationalId);
      await page.locator('input[name="phone"]').fill(local);
      await page.locator('input[name="password"]').fill(password);
      await page.locator('input[name="repeat"]').fill(password);
      await testId(page, 'register-send-code').click();
      await testId(page, 'code-sent').waitFor();
      expect(await testId(page, 'code-sent').innerText()).toContain(local.slice(-4));
      const code = await latestCode(context, e164);

      // A wrong code is refused next to the code field and creates nothing.
      await testId(page, 'otp-code').fill(code === '000000' ? '111111' : '000000');
      await testId(page, 'register-submit').click();
      await expect.poll(() => fieldError(page, 'code').isVisible()).toBe(true);
      expect(await fieldError(page, 'code').innerText()).toBe(tx.errors.OtpInvalid.replace('{{attemptsLeft}}', '4'));
      await screenshot(page, `accounts-register-code-${lang}-${width}`);
      expect(await axeFindings(page)).toEqual([]);

      await testId(page, 'otp-code').fill(code);
      await testId(page, 'register-submit').click();
      await testId(page, 'register-done').waitFor();
      await screenshot(page, `accounts-register-done-${lang}-${width}`);

      // Signs in with the new account; the circular letter is offered, "Later" is remembered by the server.
      await testId(page, 'register-sign-in').click();
      await page.waitForURL('**/account/login');
      await page.locator('input[name="userName"]').fill(nationalId);
      await page.locator('input[name="password"]').fill(password);
      await testId(page, 'login-submit').click();
      await page.waitForURL((url) => !url.pathname.startsWith('/account/login'));
      await waitForIdle(page);
      expect(pathOf(page)).toBe('/associated-facilities');
      const circular = testId(page, 'circular-letter-dialog');
      await circular.waitFor();
      // The floating chat button steps aside while a modal dialog is open (it would cover the dialog's actions).
      expect(await testId(page, 'chat-button').isVisible()).toBe(false);
      await circular.getByRole('button', { name: tx.shell.circular.later }).click();
      await circular.waitFor({ state: 'hidden' });
      // A full load in a fresh tab (no sessionStorage): the server says it was answered, and it is not offered.
      const again = await context.newPage();
      const asked = again.waitForResponse('**/api/app/halal-user/is-external-user-downloaded-circular');
      await again.goto('/associated-facilities');
      expect(await (await asked).json()).toBe(true);
      await waitForIdle(again);
      await again.waitForLoadState('networkidle');
      expect(await testId(again, 'circular-letter-dialog').count()).toBe(0);
      await again.close();

      // Forgot password, in a browser with no session; the signed-in one above loses its session.
      const anon = await openPage(browser, server.url, { viewport: { width, height: 900 }, locale: lang === 'ar' ? 'ar-SA' : 'en-GB' });
      const p2 = anon.page;
      await p2.goto(`/account/login?lang=${lang}`);
      await waitForIdle(p2);
      await testId(p2, 'forgot-password-link').click();
      await p2.waitForURL('**/account/forgot-password');
      await waitForIdle(p2);
      await testId(p2, 'forgot-send-code').click();
      expect(await fieldError(p2, 'identifier').innerText()).toBe(tx.validation.required);
      await p2.locator('input[name="identifier"]').fill(email);
      await testId(p2, 'forgot-send-code').click();
      await testId(p2, 'code-sent').waitFor();
      // The page does not say where the code went.
      expect(await testId(p2, 'code-sent').innerText()).not.toContain(local.slice(-4));
      await testId(p2, 'otp-code').fill(await latestCode(anon.context, e164));
      await p2.locator('input[name="password"]').fill('short');
      await p2.locator('input[name="repeat"]').fill('short');
      await testId(p2, 'reset-submit').click();
      expect(await fieldError(p2, 'password').innerText()).toBe(tx.validation.strongPassword);
      expect(await horizontalOverflow(p2)).toBeLessThanOrEqual(0);
      expect(await axeFindings(p2)).toEqual([]);
      await p2.locator('input[name="password"]').fill(newPassword);
      await p2.locator('input[name="repeat"]').fill(newPassword);
      await testId(p2, 'reset-submit').click();
      await testId(p2, 'reset-done').waitFor();
      await screenshot(p2, `accounts-reset-done-${lang}-${width}`);

      // The old password no longer signs in; the new one does; the earlier session has ended.
      await testId(p2, 'reset-sign-in').click();
      await p2.waitForURL('**/account/login');
      await p2.locator('input[name="userName"]').fill(email);
      await p2.locator('input[name="password"]').fill(password);
      await testId(p2, 'login-submit').click();
      await testId(p2, 'login-error').waitFor();
      await p2.locator('input[name="password"]').fill(newPassword);
      await testId(p2, 'login-submit').click();
      await p2.waitForURL((url) => !url.pathname.startsWith('/account/login'));
      await waitForIdle(p2);
      expect(pathOf(p2)).toBe('/associated-facilities');
      const old = await page.evaluate(() => fetch('/api/auth/session').then((r) => r.json()));
      expect(old).toMatchObject({ authenticated: false });

      expect(errors).toEqual([]);
      expect(anon.errors).toEqual([]);
      await anon.context.close();
      await context.close();
    }, 90_000);
  }
});
