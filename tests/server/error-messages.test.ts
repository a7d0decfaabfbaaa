import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registeredErrorCodes } from '../../server/errors';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * Bad input gets a clear message in the user's language: every error code a module registers (with its HTTP status)
 * has a message in both languages, so no answer shows a bare code such as "ServiceNotStartable".
 */
const messages = (lang: string) => JSON.parse(readFileSync(join(__dirname, `../../locales/${lang}/errors.json`), 'utf8')) as Record<string, string>;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('error messages', () => {
  it('every registered error code has an Arabic and an English message', () => {
    const codes = registeredErrorCodes();
    expect(codes.length).toBeGreaterThan(20);
    for (const lang of ['ar', 'en']) expect(codes.filter((c) => !messages(lang)[c]), lang).toEqual([]);
  });

  it('starting a service that does not exist is refused in the user’s language', async () => {
    const applicant = await t.login('internal.main');
    const res = await applicant.post('/api/requests', { kind: 'nope', facilityId: 'inf-almarai-foods' }, { headers: { 'accept-language': 'ar' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'ServiceNotStartable', message: 'لا يمكن طلب هذه الخدمة.' });
  });

  // A client that switches language says a refusal again from its key and parameters (the web's wizards do); the
  // parameters are only what the message shows (zod's issue also holds the refused text itself, which the message does not show).
  it('a coded refusal carries the parameters of its message', async () => {
    const admin = await t.login('admin');
    const res = await admin.put('/api/admin/texts?lang=en', { lang: 'en', namespace: 'shell', key: 'menu.noSuchThing', value: 'Nothing' });
    expect(res.json().error).toEqual({
      code: 'TextKeyUnknown',
      message: 'There is no text shell:menu.noSuchThing in both Arabic and English: only an existing text can be overridden.',
      params: { key: 'shell:menu.noSuchThing' },
    });
  });

  it('a validation refusal carries each message\'s key and the parameters it shows, and no others', async () => {
    const admin = await t.login('admin');
    const res = await admin.put('/api/admin/texts?lang=en', { lang: 'en', namespace: 'shell', key: 'menu.home', value: 'x'.repeat(4001) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.validationErrors).toEqual([{ members: ['value'], message: 'The maximum length is 4000 characters', key: 'validation:maxLength', params: { max: 4000 } }]);
  });
});
