import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, inArray } from 'drizzle-orm';
import { auditLogs, textOverrides } from '../../db/schema';
import { withLuhnDigit } from '../../machines/forms/facilities/formats';
import type { Client } from '../helpers/app';
import { internalCertificateData } from '../services/fixtures';
import { FACILITY, applicant } from '../workflows/fixtures/internal-certificate-scenario';
import { createFacilitiesTestApp, type FacilitiesTestApp } from './facilities-harness';

/**
 * Issue 15 item 5, language-management and text-template-management: an administrator's override changes what the
 * server answers (error messages, the SMS it sends) and what the web loads over its bundled texts, at once; the
 * locale parity rule (key in both languages, same {{variables}}) refuses anything else and changes nothing; every
 * change is audited; only an administrator may do it.
 */
let t: FacilitiesTestApp;
let admin: Client;
beforeAll(async () => {
  t = await createFacilitiesTestApp({ LOGIN_RATE_LIMIT_PER_MINUTE: '500' });
  admin = await t.login('admin');
}, 120_000);
afterAll(() => t?.close());

const put = (body: Record<string, unknown>) => admin.put('/api/admin/texts', body);
const overrides = async () => (await t.anonymous.get('/api/texts/overrides')).json() as Record<'ar' | 'en', Record<string, Record<string, string>>>;
const rows = () => t.database.db.select().from(textOverrides);
const audits = () => t.database.db.select().from(auditLogs).where(inArray(auditLogs.action, ['text.change', 'text.reset'])).orderBy(desc(auditLogs.id));

describe('text overrides', () => {
  it('an Arabic error message overridden by the administrator is what the server answers, and the web receives it', async () => {
    const before = await t.anonymous.get('/api/admin/texts?lang=ar');
    expect(before.statusCode).toBe(401);
    expect(before.json().error.message).toBe('لم يتم التحقق من هويتك. يرجى تسجيل الدخول.');

    const text = 'يرجى تسجيل الدخول أولًا للمتابعة.';
    const res = await put({ lang: 'ar', namespace: 'errors', key: 'NotAuthenticated', value: text });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().entry.texts.ar).toMatchObject({ override: text, original: 'لم يتم التحقق من هويتك. يرجى تسجيل الدخول.' });

    const after = await t.anonymous.get('/api/admin/texts?lang=ar');
    expect(after.json().error.message).toBe(text);
    // English keeps its own text.
    expect((await t.anonymous.get('/api/admin/texts?lang=en')).json().error.message).toBe('You are not authenticated. Please sign in.');
    expect((await overrides()).ar.errors).toEqual({ NotAuthenticated: text });

    const [audit] = await audits();
    expect(audit).toMatchObject({ action: 'text.change', userName: 'admin', outcome: 'success' });
    expect(audit.details).toMatchObject({ lang: 'ar', namespace: 'errors', key: 'NotAuthenticated', changes: [{ old: 'لم يتم التحقق من هويتك. يرجى تسجيل الدخول.', new: text }] });

    // Restoring brings the bundled text back, also audited.
    const reset = await admin.post('/api/admin/texts/reset', { lang: 'ar', namespace: 'errors', key: 'NotAuthenticated' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await t.anonymous.get('/api/admin/texts?lang=ar')).json().error.message).toBe('لم يتم التحقق من هويتك. يرجى تسجيل الدخول.');
    expect((await overrides()).ar).toEqual({});
    expect((await audits())[0]).toMatchObject({ action: 'text.reset', details: { changes: [{ old: text }] } });
  });

  it('a UI label override reaches the web resources by namespace and dotted key', async () => {
    expect((await put({ lang: 'en', namespace: 'shell', key: 'menu.home', value: 'Start page' })).statusCode).toBe(200);
    expect((await overrides()).en.shell).toEqual({ 'menu.home': 'Start page' });
    const list = (await admin.get('/api/admin/texts?namespace=shell&search=start%20page')).json();
    expect(list.items.map((e: { key: string }) => e.key)).toContain('menu.home');
    expect((await admin.post('/api/admin/texts/reset', { lang: 'en', namespace: 'shell', key: 'menu.home' })).statusCode).toBe(200);
  });

  it('an SMS template override is the text the applicant receives, with its variables filled', async () => {
    const value = 'Halal: code {{code}}, valid {{minutes}} min. Keep it private.';
    expect((await put({ lang: 'en', namespace: 'shell', key: 'account.sms.register', value })).statusCode).toBe(200);
    const templates = (await admin.get('/api/admin/texts?templates=true')).json();
    expect(templates.items.every((e: { template: boolean }) => e.template)).toBe(true);
    expect(templates.items.map((e: { namespace: string; key: string }) => `${e.namespace}:${e.key}`)).toEqual(
      expect.arrayContaining(['shell:account.sms.register', 'facilities:sms.delegationOtp']),
    );

    const nationalId = withLuhnDigit('270009001');
    const phone = '0561234987';
    const sent = await t.anonymous.post('/api/account/register/send-code?lang=en', {
      nationalId,
      name: 'Samir Haddad',
      phone,
      email: `${nationalId}@example.com`,
      password: 'Strong#Pass1',
      recaptchaToken: await t.recaptchaToken(),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const [sms] = await t.smsTo('+966561234987');
    expect(sms.text).toMatch(/^Halal: code \d{6}, valid \d+ min\. Keep it private\.$/);
  });

  it('a variable typed without its format keeps the format of the text it replaces: the CR number stays whole in Arabic', async () => {
    const typed = 'لا يوجد سجل تجاري برقم {{crNumber}} في السجل.';
    const res = await put({ lang: 'ar', namespace: 'errors', key: 'CrNotFound', value: typed });
    expect(res.statusCode, res.body).toBe(200);
    const saved = 'لا يوجد سجل تجاري برقم {{crNumber, ltr}} في السجل.';
    expect(res.json().entry.texts.ar.override).toBe(saved);
    expect((await overrides()).ar.errors).toEqual({ CrNotFound: saved });

    const main = await t.login('internal.main');
    const refused = await main.get(`/api/Facility/GetCrData?crEntityNumber=1010799999&recaptchaToken=${encodeURIComponent(await t.recaptchaToken())}&lang=ar`);
    expect(refused.json().error).toMatchObject({ code: 'CrNotFound', message: 'لا يوجد سجل تجاري برقم \u20661010799999\u2069 في السجل.' });

    expect((await admin.post('/api/admin/texts/reset', { lang: 'ar', namespace: 'errors', key: 'CrNotFound' })).statusCode).toBe(200);
  });

  it('refuses a text whose variables differ from the original, an unknown key and an empty text, and changes nothing', async () => {
    const rowsBefore = await rows();
    const auditsBefore = (await audits()).length;

    const missing = await put({ lang: 'ar', namespace: 'facilities', key: 'sms.delegationOtp', value: 'رمزك {{code}} لتفويضك في {{facility}}.' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('TextVariablesDiffer');
    expect(missing.json().error.message).toContain('{{code}} {{facility}} {{minutes}}');

    const renamed = await admin.put('/api/admin/texts?lang=en', { lang: 'en', namespace: 'shell', key: 'account.sms.reset', value: '{{otp}} resets your password in {{minutes}} minutes.' });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error.message).toBe('The text must use exactly the variables of the original: {{code}} {{minutes}} (this text has: {{minutes}} {{otp}}).');

    const unknown = await admin.put('/api/admin/texts?lang=en', { lang: 'en', namespace: 'shell', key: 'menu.noSuchThing', value: 'Nothing' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'TextKeyUnknown', message: expect.stringContaining('shell:menu.noSuchThing') });
    // A whole subtree is not a text either.
    expect((await put({ lang: 'en', namespace: 'shell', key: 'menu', value: 'x' })).json().error.code).toBe('TextKeyUnknown');
    expect((await put({ lang: 'en', namespace: 'nope', key: 'menu.home', value: 'x' })).json().error.code).toBe('TextKeyUnknown');

    const empty = await put({ lang: 'en', namespace: 'shell', key: 'menu.home', value: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('ValidationFailed');

    expect(await rows()).toEqual(rowsBefore);
    expect((await audits()).length).toBe(auditsBefore);
    const sms = await t.anonymous.get('/api/texts/overrides');
    expect(sms.json().ar).toEqual({});
  });

  it('refuses every change and the list to anyone but an administrator', async () => {
    const applicant = await t.login('internal.main');
    const refused = await applicant.put('/api/admin/texts?lang=en', { lang: 'en', namespace: 'shell', key: 'menu.home', value: 'Mine' });
    expect(refused.statusCode).toBe(403);
    expect((await applicant.post('/api/admin/texts/reset', { lang: 'en', namespace: 'shell', key: 'account.sms.register' })).statusCode).toBe(403);
    expect((await applicant.get('/api/admin/texts')).statusCode).toBe(403);
    expect((await overrides()).en.shell?.['menu.home']).toBeUndefined();
    const rowsNow = await rows();
    expect(rowsNow.filter((r) => r.key === 'menu.home')).toEqual([]);
  });

  it("a status label override is in the next request's answer, though the label was shown before (labels are remembered across requests)", async () => {
    const owner = await t.login('internal.main');
    const r = await t.app.engine.start('internalCertificate', { ownerUserId: applicant.userId, facilityId: FACILITY, data: internalCertificateData() }, applicant);
    const status = async () => ((await owner.get(`/api/requests/${r.id}?lang=en`)).json() as { status: { code: number; label: string } }).status;
    const before = await status();
    expect(before.label).not.toBe(String(before.code));
    expect((await put({ lang: 'en', namespace: 'status', key: `internalCertificate.${before.code}`, value: 'Being written' })).statusCode).toBe(200);
    expect(await status()).toEqual({ code: before.code, label: 'Being written' });
    expect((await admin.post('/api/admin/texts/reset', { lang: 'en', namespace: 'status', key: `internalCertificate.${before.code}` })).statusCode).toBe(200);
    expect(await status()).toEqual(before);
  });

  it('an override saved by another server process is in force here after the refresh interval', async () => {
    await t.database.db.insert(textOverrides).values({ lang: 'en', namespace: 'errors', key: 'NotAuthenticated', value: 'Sign in first, please.' });
    await t.app.textStore.refresh();
    expect((await t.anonymous.get('/api/admin/texts?lang=en')).json().error.message).toBe('Sign in first, please.');
    await t.database.db.delete(textOverrides).where(eq(textOverrides.key, 'NotAuthenticated'));
    await t.app.textStore.refresh();
    expect((await t.anonymous.get('/api/admin/texts?lang=en')).json().error.message).toBe('You are not authenticated. Please sign in.');
  });
});
