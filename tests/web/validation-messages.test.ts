import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import i18next from 'i18next';
import { fieldMessages, messageText, serverFieldMessages } from '../../web/src/components/form/validation-messages';
import enShell from '../../locales/en/shell.json';
import en from '../../locales/en/validation.json';

/** Form messages come from the validation namespace whatever zod reports (spec 01 section 5). */

const schema = z.object({
  name: z.string().min(1),
  nameAr: z.string().min(3, 'nameLike'),
  email: z.email(),
  weight: z.number().min(1).max(100),
  code: z.string().max(12),
  phone: z.string().optional(),
});

describe('validation messages', () => {
  it('maps zod issues to keys of the validation namespace with their parameters', () => {
    const result = schema.safeParse({ name: '', nameAr: 'ab', email: 'nope', weight: 500, code: '1234567890123' });
    expect(result.success).toBe(false);
    const messages = fieldMessages(result.error!.issues);
    expect(messages.name).toEqual({ key: 'required' });
    expect(messages.nameAr.key).toBe('nameLike');
    expect(messages.email).toEqual({ key: 'email' });
    expect(messages.weight).toEqual({ key: 'max', params: { max: 100 } });
    expect(messages.code).toEqual({ key: 'maxLength', params: { max: 12 } });
    for (const m of Object.values(messages)) expect(Object.keys(en)).toContain(m.key);
  });

  it('reports a missing value as required', () => {
    const result = schema.safeParse({ nameAr: 'abc', email: 'a@b.co', weight: 5, code: '1' });
    expect(fieldMessages(result.error!.issues)).toEqual({ name: { key: 'required' } });
  });

  it("keeps the server's localized messages by field", () => {
    expect(serverFieldMessages([{ message: 'هذا الحقل مطلوب', members: ['name'] }, { message: 'x', members: ['name'] }])).toEqual({ name: 'هذا الحقل مطلوب' });
  });

  it('puts a message into words: a validation key with its parameters, a key of another namespace, the server\'s text', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({ resources: { en: { validation: en, shell: enShell } }, lng: 'en', defaultNS: 'shell', interpolation: { escapeValue: false } });
    expect(messageText(i18n.t, { key: 'required' })).toBe(en.required);
    expect(messageText(i18n.t, { key: 'maxLength', params: { max: 12 } })).toContain('12');
    // The sign-up form's "the two passwords differ" lives with its screen's texts.
    expect(messageText(i18n.t, { key: 'shell:account.register.mismatch' })).toBe(enShell.account.register.mismatch);
    expect(messageText(i18n.t, 'Already in the registry')).toBe('Already in the registry');
  });
});
