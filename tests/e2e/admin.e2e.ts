import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import postgres from 'postgres';
import type { Browser, Page } from 'playwright-core';
import type { InjectOptions } from 'fastify';
import { DEMO_PASSWORD, launchBrowser, openPage, screenshot, signIn, startServer, waitForIdle, type RunningServer } from './harness';
import { completeDraft, send } from '../helpers/requests';
import type { Client } from '../helpers/app';

/**
 * Issue 15 in real Chromium, in Arabic and in English: the administrator creates a staff user who then acts with the
 * granted role; changes the VAT rate and a new bill uses it; finds a failed sign-in in the audit log; a read-only
 * auditor sees a request whose history was tampered with flagged as broken (and an intact one verified), with the
 * state diagram of its machine. The server runs on its own PostgreSQL database so the test can tamper with a
 * history row the way someone with database access would. Also: the dashboard's figures for staff and for an
 * applicant, and an applicant downloading their personal data.
 */
type Lang = 'ar' | 'en';
const testId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const PG = process.env.E2E_ADMIN_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const FACILITY = 'inf-almarai-foods';

/** A client of the running server over HTTP with the shape of the server tests' client (tests/helpers/app.ts). */
async function httpClient(base: string, userName: string, password = DEMO_PASSWORD): Promise<Client> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userName, password }) });
  if (!login.ok) throw new Error(`login ${userName}: ${login.status}`);
  keep(login);
  const s = await fetch(`${base}/api/auth/session`, { headers: { cookie: cookie() } });
  keep(s);
  const csrf = ((await s.json()) as { csrfToken: string }).csrfToken;
  const request = async (opts: InjectOptions) => {
    const method = opts.method ?? 'GET';
    const raw = opts.payload;
    const isBuffer = Buffer.isBuffer(raw);
    const headers: Record<string, string> = { cookie: cookie(), 'x-csrf-token': csrf, ...(opts.headers as Record<string, string> | undefined) };
    if (raw !== undefined && !isBuffer) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${opts.url as string}`, { method, headers, body: raw === undefined ? undefined : isBuffer ? new Uint8Array(raw) : JSON.stringify(raw) });
    const body = await res.text();
    return { statusCode: res.status, body, json: () => JSON.parse(body), headers: Object.fromEntries(res.headers) } as never;
  };
  return {
    cookie: cookie(),
    csrf,
    request,
    get: (url, opts = {}) => request({ ...opts, method: 'GET', url }),
    post: (url, payload, opts = {}) => request({ ...opts, method: 'POST', url, payload: payload as never }),
    put: (url, payload, opts = {}) => request({ ...opts, method: 'PUT', url, payload: payload as never }),
  };
}

describe('administration, audit logs and auditors', () => {
  let server: RunningServer;
  let browser: Browser;
  let sql: postgres.Sql;
  let dbName: string;
  let admin: Client;
  const opened: Page[] = [];

  beforeAll(async () => {
    const root = postgres(PG, { max: 1, onnotice: () => {} });
    dbName = `e2e_admin_${Date.now().toString(36)}`;
    await root.unsafe(`create database ${dbName}`);
    await root.end();
    const url = new URL(PG);
    url.pathname = `/${dbName}`;
    sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const before = process.env.E2E_DATABASE_URL;
    process.env.E2E_DATABASE_URL = url.toString();
    try {
      server = await startServer();
    } finally {
      if (before === undefined) delete process.env.E2E_DATABASE_URL;
      else process.env.E2E_DATABASE_URL = before;
    }
    browser = await launchBrowser();
    admin = await httpClient(server.url, 'admin');
    const created = await admin.post('/api/identity/users', { userName: 'inspector', name: 'Inspector', email: 'inspector@example.org', password: 'Inspect@2026', roles: ['readOnlyAuditor'] });
    expect(created.statusCode).toBe(200);
  }, 180_000);

  afterAll(async () => {
    for (const [i, p] of opened.entries()) await screenshot(p, `admin-last-${i}`).catch(() => undefined);
    await browser?.close();
    await server?.stop();
    await sql?.end();
    const root = postgres(PG, { max: 1, onnotice: () => {} });
    await root.unsafe(`drop database if exists ${dbName} with (force)`);
    await root.end();
  });

  async function userPage(userName: string, lang: Lang, password = DEMO_PASSWORD): Promise<Page> {
    const { page, errors } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
    opened.push(page);
    await signIn(page, userName, { password });
    await page.goto(`/home?lang=${lang}`);
    await waitForIdle(page);
    expect(errors).toEqual([]);
    return page;
  }
  async function go(page: Page, path: string) {
    await page.goto(path);
    await waitForIdle(page);
  }

  /** A submitted internal certificate request of the demo facility (its application bill issued). */
  async function submittedRequest(): Promise<{ id: string; number: string }> {
    const applicant = await httpClient(server.url, 'internal.main');
    const r = await completeDraft(applicant, 'internalCertificate', FACILITY);
    const res = await send(applicant, r.id, 'SUBMIT', r.version, { agreementAccepted: true });
    expect(res.statusCode).toBe(200);
    return { id: r.id, number: r.number };
  }

  /** The request the applicant had when they first asked for their data (the copy prepared then is downloaded in both languages). */
  let gdprRequestNumber: string | undefined;
  for (const lang of ['ar', 'en'] as const) {
    it(`[${lang}] a staff user created on the identity screen acts with the granted role`, async () => {
      const page = await userPage('admin', lang);
      await go(page, '/identity');
      const userName = `registrar.${lang}`;
      await page.locator('[name="userName"]').fill(userName);
      await page.locator('[name="name"]').fill(lang === 'ar' ? 'موظف تسجيل جديد' : 'New Registrar');
      await page.locator('[name="email"]').fill(`${userName}@example.org`);
      await page.locator('[name="password"]').fill('Staff@2026x');
      await testId(page, 'new-role-registrationEmployee').click();
      // Only the ticked role is ticked (inside a form field every box once took the field's id: the click ticked "admin").
      const ticked = () => page.locator('[data-testid^="new-role-"][data-state="checked"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
      expect(await ticked()).toEqual(['new-role-registrationEmployee']);
      await testId(page, 'create-user-submit').click();
      await testId(page, `user-actions-${userName}`).waitFor();
      await screenshot(page, `admin-identity-${lang}`);
      // Every row but the administrator's own offers Lock (the server refuses locking oneself: OwnAccountNotLocked).
      expect(await page.locator(`[data-testid="user-actions-${userName}"] [data-testid="user-lock"]`).count()).toBe(1);
      expect(await page.locator('[data-testid="user-actions-admin"] [data-testid="user-lock"]').count()).toBe(0);

      // The new user signs in, lands on the staff start page and may grant a discount on a request waiting for payment.
      const r = await submittedRequest();
      const staff = await userPage(userName, lang, 'Staff@2026x');
      await go(staff, `/requests/${r.id}`);
      await testId(staff, 'action-GRANT_DISCOUNT').waitFor();

      // The role editor takes the permission from the role in the browser; the user's next request no longer has it.
      const grants = async () => (await admin.get('/api/identity/roles')).json().find((x: { name: string }) => x.name === 'registrationEmployee').permissions as string[];
      const original = await grants();
      try {
        await go(page, '/identity');
        await testId(page, 'tab-roles').click();
        await testId(page, 'role-registrationEmployee').click();
        await testId(page, 'perm-PaymentManagement.GrantDiscount').click();
        await testId(page, 'role-save').click();
        await expect.poll(async () => (await grants()).includes('PaymentManagement.GrantDiscount')).toBe(false);
        // The same session of the staff user loses it on its next request: the request page offers no discount.
        await go(staff, `/requests/${r.id}`);
        await testId(staff, 'action-ADD_NOTE').waitFor();
        expect(await testId(staff, 'action-GRANT_DISCOUNT').count()).toBe(0);
      } finally {
        // Back as it was for the other language's run.
        await admin.put('/api/identity/roles/registrationEmployee', { permissions: original, readOnly: false });
      }

      // Their registration role taken away on the identity screen, the request they hold goes back to the registration
      // queue, and the administrator is told so (server/modules/admin/release-assignments.ts).
      const waived = await send(admin, r.id, 'GRANT_DISCOUNT', (await admin.get(`/api/requests/${r.id}`)).json().version, { percent: 100, reason: 'Waived' });
      expect(waived.statusCode, waived.body).toBe(200);
      const taken = await send(await httpClient(server.url, userName, 'Staff@2026x'), r.id, 'ASSIGN_TO_ME', waived.json().version);
      expect(taken.statusCode, taken.body).toBe(200);
      await go(page, '/identity');
      await testId(page, `user-actions-${userName}`).locator('[data-testid="user-edit-roles"]').click();
      await testId(page, 'edit-role-registrationEmployee').click();
      await testId(page, 'edit-role-auditEmployee').click();
      await testId(page, 'edit-roles-save').click();
      const returned = lang === 'ar' ? 'أُعيد طلب مفتوح واحد إلى قائمته.' : '1 open request returned to its queue.';
      await expect.poll(() => testId(page, 'toast').allInnerTexts(), { timeout: 20_000 }).toContainEqual(expect.stringContaining(returned));
      await screenshot(page, `admin-identity-released-${lang}`);
      expect((await admin.get(`/api/requests/${r.id}`)).json().assigneeUserId).toBeNull();
    }, 240_000);

    it(`[${lang}] a new VAT rate set on the settings screen is used by the next bill`, async () => {
      const rate = lang === 'ar' ? 20 : 25;
      const page = await userPage('admin', lang);
      await go(page, '/setting-management');
      await page.locator('[name="vatRate"]').fill(String(rate));
      const saved = page.waitForResponse((res) => res.url().endsWith('/api/admin/settings') && res.request().method() === 'PUT');
      await testId(page, 'settings-save').click();
      expect((await saved).status()).toBe(200);
      await testId(page, 'toast').first().waitFor();
      await screenshot(page, `admin-settings-${lang}`);

      const r = await submittedRequest();
      const applicant = await userPage('internal.main', lang);
      await go(applicant, `/requests/${r.id}`);
      await testId(applicant, 'bill').first().waitFor();
      const num = async (id: string) => Number((await testId(applicant, id).first().innerText()).replace(/[^\d.]/g, ''));
      expect(await num('bill-vat')).toBeCloseTo((await num('bill-amount')) * (rate / 100), 2);
    }, 240_000);

    it(`[${lang}] registration waives a bill awaiting payment in the discount dialog, and the applicant's bill is cancelled`, async () => {
      const r = await submittedRequest();
      const staff = await userPage('registration', lang);
      await go(staff, `/requests/${r.id}`);
      const before = await testId(staff, 'request-status').getAttribute('data-code');
      await testId(staff, 'action-GRANT_DISCOUNT').click();
      const dialog = testId(staff, 'event-dialog');
      await dialog.waitFor();
      // While the bill awaits payment only a full waiver is taken: the percentage is fixed at 100 and the dialog says why.
      const percent = dialog.locator('[name="percent"]');
      expect(await percent.inputValue()).toBe('100');
      expect(await percent.getAttribute('readonly')).not.toBeNull();
      expect(await dialog.innerText()).toContain(lang === 'ar' ? 'لا يمكن الآن إلا الإعفاء الكامل' : 'only a full waiver (100 %) is possible now');
      // The reason is required: nothing is sent without it.
      expect(await testId(staff, 'dialog-submit').isDisabled()).toBe(true);
      await dialog.locator('textarea[name="reason"]').fill(lang === 'ar' ? 'إعفاء بقرار الهيئة' : 'Waived by the authority’s decision');
      await testId(staff, 'dialog-submit').click();
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => testId(staff, 'request-status').getAttribute('data-code'), { timeout: 20_000 }).not.toBe(before);
      await screenshot(staff, `admin-discount-${lang}`);
      // Past the payment a discount on the fees still to come may be partial: the percentage is the user's to type, 1–100.
      await testId(staff, 'action-GRANT_DISCOUNT').click();
      await dialog.waitFor();
      const later = dialog.locator('[name="percent"]');
      expect(await later.getAttribute('readonly')).toBeNull();
      await dialog.locator('textarea[name="reason"]').fill(lang === 'ar' ? 'خصم جزئي' : 'A partial discount');
      await later.fill('150');
      expect(await testId(staff, 'dialog-submit').isDisabled()).toBe(true);
      await later.fill('30');
      expect(await testId(staff, 'dialog-submit').isDisabled()).toBe(false);
      await staff.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      // The applicant's bill reads cancelled in their language, and nothing is left to pay.
      const applicant = await httpClient(server.url, 'internal.main');
      const bills = (await applicant.get(`/api/bills?requestId=${r.id}&lang=${lang}`)).json().items as { status: { code: number; label: string } }[];
      expect(bills).toHaveLength(1);
      expect(bills[0].status).toEqual({ code: 4, label: lang === 'ar' ? 'ملغاة' : 'Cancelled' });
      const page = await userPage('internal.main', lang);
      await go(page, `/requests/${r.id}`);
      await testId(page, 'bill').first().waitFor();
      expect(await testId(page, 'bill').first().getAttribute('data-status')).toBe('4');
      expect(await testId(page, 'pay-bill').count()).toBe(0);
    }, 240_000);

    it(`[${lang}] a failed sign-in is found in the audit log`, async () => {
      const { page: anon } = await openPage(browser, server.url, { locale: lang === 'ar' ? 'ar-SA' : 'en-US' });
      opened.push(anon);
      const typed = `ghost.${lang}`;
      await go(anon, `/account/login?lang=${lang}`);
      await anon.locator('input[name="userName"]').fill(typed);
      await anon.locator('input[name="password"]').fill('not-the-password');
      const answered = anon.waitForResponse((res) => res.url().endsWith('/api/auth/login'));
      await anon.locator('[data-testid="login-submit"]').click();
      expect((await answered).status()).toBe(401);

      const page = await userPage('admin', lang);
      await go(page, '/audit-logs');
      await page.locator('[name="search"]').fill(typed);
      await page.locator('select[name="outcome"]').selectOption('failure');
      await testId(page, 'audit-search').click();
      const row = page.locator('[data-testid="data-table"] tbody tr', { hasText: typed });
      await row.first().waitFor();
      expect(await row.count()).toBe(1);
      await expect.poll(() => row.locator('[data-testid="audit-outcome"]').innerText()).toContain('401');
      await screenshot(page, `admin-audit-logs-${lang}`);
    }, 240_000);

    it(`[${lang}] the read-only auditor sees a tampered history flagged and the lifecycle diagram`, async () => {
      const intact = await submittedRequest();
      const tampered = await submittedRequest();
      await sql`update request_history set note = 'changed later' where request_id = ${tampered.id} and seq = 2`;

      const page = await userPage('inspector', lang, 'Inspect@2026');
      await go(page, `/requests/${intact.id}`);
      await expect.poll(() => testId(page, 'history-verified').getAttribute('data-ok'), { timeout: 20_000 }).toBe('true');
      await testId(page, 'lifecycle-diagram').waitFor();
      expect(await testId(page, 'diagram-current').getAttribute('data-code')).toBe('2');
      expect(await testId(page, 'diagram-edge-taken').count()).toBeGreaterThan(0);
      // Every status's label is drawn whole inside its box ("204 · Under Registration" ran past it).
      const labels = testId(page, 'diagram-label');
      expect(await labels.count()).toBeGreaterThan(3);
      const cut = await labels.evaluateAll((els) => els.filter((e) => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1).map((e) => `${e.textContent} ${e.scrollWidth}/${e.clientWidth} ${e.scrollHeight}/${e.clientHeight}`));
      expect(cut).toEqual([]);
      // The auditor is read only: no action is offered.
      expect(await page.locator('[data-testid^="action-"]').count()).toBe(0);

      await go(page, `/requests/${tampered.id}`);
      await expect.poll(() => testId(page, 'history-verified').getAttribute('data-ok'), { timeout: 20_000 }).toBe('false');
      const reason = await testId(page, 'history-broken-reason').innerText();
      expect(reason).toContain('2');
      await testId(page, 'auditor-panel').scrollIntoViewIfNeeded();
      await screenshot(page, `admin-history-broken-${lang}`);

      // The auditor reads the audit log too, and it links to the request's history.
      await go(page, `/audit-logs`);
      await page.locator('[name="search"]').fill(tampered.id);
      await testId(page, 'audit-search').click();
      await testId(page, 'audit-request-link').first().click();
      await waitForIdle(page);
      expect(new URL(page.url()).pathname).toBe(`/requests/${tampered.id}`);
    }, 240_000);

    it(`[${lang}] the dashboard shows figures to staff and to an applicant, who downloads their data and cannot yet delete the account`, async () => {
      const r = await submittedRequest();
      const figure = async (page: Page, id: string) => Number((await testId(page, `${id}-value`).innerText()).replace(/[^\d]/g, ''));

      // Staff: the host dashboard, reached from the menu, with the figures of every facility.
      const staff = await userPage('registration', lang);
      await staff.locator('[data-testid="main-menu"] a[href="/dashboard"]').click();
      await testId(staff, 'dashboard').waitFor();
      expect(await testId(staff, 'dashboard').getAttribute('data-audience')).toBe('staff');
      const host = (await (await httpClient(server.url, 'registration')).get('/api/dashboard/staff')).json() as { byQueue: { queue: string; count: number }[]; bills: { unpaid: { count: number } }; overdue: number };
      await expect.poll(() => figure(staff, 'dash-open')).toBe(host.byQueue.reduce((n, q) => n + q.count, 0));
      expect(await figure(staff, 'dash-unpaid')).toBe(host.bills.unpaid.count);
      expect(Number(await testId(staff, 'dash-queue-payment').getAttribute('data-value'))).toBe(host.byQueue.find((q) => q.queue === 'payment')!.count);
      expect(await figure(staff, 'dash-unpaid')).toBeGreaterThan(0);
      expect(await figure(staff, 'dash-overdue')).toBe(host.overdue);
      expect(await staff.evaluate(() => document.documentElement.dir)).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      await screenshot(staff, `admin-dashboard-staff-${lang}`);

      // The applicant: their own facility's open requests (the new one listed by number) and unpaid bills.
      const applicant = await userPage('internal.main', lang);
      await go(applicant, '/dashboard');
      await testId(applicant, 'dashboard').waitFor();
      expect(await testId(applicant, 'dashboard').getAttribute('data-audience')).toBe('facility');
      const tenant = (await (await httpClient(server.url, 'internal.main')).get('/api/dashboard/facility')).json() as { openRequests: { count: number }; unpaidBills: { count: number } };
      await expect.poll(() => figure(applicant, 'dash-open')).toBe(tenant.openRequests.count);
      expect(await figure(applicant, 'dash-unpaid')).toBe(tenant.unpaidBills.count);
      await applicant.getByRole('link', { name: r.number }).waitFor();
      await screenshot(applicant, `admin-dashboard-applicant-${lang}`);
      // On a phone each bar's label is read whole: "External facility …" five times told the rows apart by nothing.
      await applicant.setViewportSize({ width: 390, height: 844 });
      const labels = applicant.locator('[data-testid="bar-label"]');
      expect(await labels.count()).toBeGreaterThan(0);
      const cut = await labels.evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1).map((e) => e.textContent));
      expect(cut, lang).toEqual([]);

      // Their personal data, from the profile page: asked for, prepared in the background, downloaded as one JSON
      // file with their profile and their request. The second language's visit finds the first request still
      // pending (once a day) and downloads the copy already prepared.
      await go(applicant, '/personal-profile/personal-data');
      await testId(applicant, 'gdpr-link').click();
      const first = !gdprRequestNumber;
      gdprRequestNumber ??= r.number;
      await testId(applicant, 'gdpr-request').click();
      if (first) await applicant.getByText(lang === 'ar' ? 'استُلم طلبك' : 'Your request was received').first().waitFor();
      else expect(await testId(applicant, 'gdpr-message').innerText()).toContain(lang === 'ar' ? 'ما زال قائمًا' : 'still pending');
      await applicant.locator('[data-testid="gdpr-requests"] tr[data-status="ready"]').first().waitFor();
      const [download] = await Promise.all([applicant.waitForEvent('download'), testId(applicant, 'gdpr-download').first().click()]);
      expect(download.suggestedFilename()).toMatch(/^my-data-.*\.json$/);
      const data = JSON.parse(await readFile((await download.path())!, 'utf8'));
      expect(data.profile.userName).toBe('internal.main');
      expect(data.requests.map((x: { number: string }) => x.number)).toContain(gdprRequestNumber);
      expect(JSON.stringify(data)).not.toContain('registration@');
      await screenshot(applicant, `admin-gdpr-${lang}`);

      // Deleting the account is confirmed in a dialog, then refused while the facility has open requests, with the count.
      await testId(applicant, 'gdpr-delete').click();
      const dialog = testId(applicant, 'gdpr-confirm');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: lang === 'ar' ? 'حذف حسابي' : 'Delete my account' }).click();
      await testId(applicant, 'gdpr-refused').waitFor();
      expect(await testId(applicant, 'gdpr-refused').innerText()).toContain(String(tenant.openRequests.count));
      await screenshot(applicant, `admin-gdpr-refused-${lang}`);
      if (lang === 'ar') {
        // The refusal on screen is said again in the language the user switches to, counts included.
        expect(await testId(applicant, 'gdpr-refused').innerText()).toContain('لا يمكن حذف حسابك الآن');
        await testId(applicant, 'language-toggle').click();
        await expect.poll(() => testId(applicant, 'gdpr-refused').innerText()).toContain('Your account cannot be deleted yet');
        expect(await testId(applicant, 'gdpr-refused').innerText()).toContain(`${tenant.openRequests.count} open requests`);
        expect(await testId(applicant, 'gdpr-refused').innerText()).not.toContain('لا يمكن حذف حسابك الآن');
      }
      expect((await (await httpClient(server.url, 'internal.main')).get('/api/auth/session')).json().authenticated).toBe(true);
    }, 240_000);
  }
});
