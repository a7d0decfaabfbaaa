import { useState } from 'react';
import { Button, Input, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { ApiError, refusalOf, saysOf } from '../../api/errors';
import { FormField } from '../../components/form/FormField';
import { fieldMessages, serverFieldMessages, type FieldMessage, type Said } from '../../components/form/validation-messages';
import { ZRegistration } from '../../../../machines/forms/account';
import { LOGIN_PATH } from '../../session/access';
import { AccountCard, CODE_ERRORS, CodeField, useTimeOf, withRecaptcha, type CodeSent } from './account-ui';
import { ltr } from '../../components/Bidi';

type Field = 'nationalId' | 'name' | 'phone' | 'email' | 'password' | 'repeat' | 'code';
const EMPTY = { nationalId: '', name: '', phone: '', email: '', password: '', repeat: '' };
/** Which field a refusal of the server is about, so its message is shown next to that field. */
const FIELD_OF_CODE: Record<string, Field> = {
  AccountNationalIdTaken: 'nationalId',
  AccountEmailTaken: 'email',
  AccountMobileTaken: 'phone',
  PhoneInvalid: 'phone',
  NationalIdInvalid: 'nationalId',
  PasswordTooWeak: 'password',
};

/**
 * account/register: a new applicant creates their account. The form is checked here and by the server with the same
 * schema (machines/forms/account.ts); a code then goes by SMS to the mobile, and the form with the code creates the
 * account (role applicant). A refusal is shown next to its field and changes nothing.
 */
export function RegisterPage() {
  const { t } = useTranslation('shell');
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, FieldMessage | string>>>({});
  const [failure, setFailure] = useState<Said[] | null>(null);
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [code, setCode] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const expiresAt = useTimeOf(sent?.expiresAt);

  const set = (k: keyof typeof EMPTY) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [k]: e.target.value }));

  /** Shows a refusal: next to its field when it has one, else above the form. Returns the field, if any. */
  const showRefusal = (err: unknown): Field | undefined => {
    if (!(err instanceof ApiError)) throw err;
    if (err.validationErrors.length) {
      setErrors(serverFieldMessages(err.validationErrors));
      return;
    }
    const field = CODE_ERRORS.has(err.code) ? 'code' : FIELD_OF_CODE[err.code];
    if (field) setErrors({ [field]: refusalOf(err) || saysOf(err)[0]! });
    else setFailure(saysOf(err));
    return field;
  };

  const run = async (fn: () => Promise<void>) => {
    setPending(true);
    setFailure(null);
    try {
      await fn();
    } catch (err) {
      const field = showRefusal(err);
      // A taken id, e-mail or mobile is corrected on the form.
      if (field && field !== 'code') setSent(null);
    } finally {
      setPending(false);
    }
  };

  const sendCode = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = ZRegistration.safeParse(form);
    const found: Partial<Record<Field, FieldMessage | string>> = parsed.success ? {} : fieldMessages(parsed.error.issues);
    if (!form.repeat) found.repeat = { key: 'required' };
    else if (form.repeat !== form.password) found.repeat = { key: 'shell:account.register.mismatch' };
    setErrors(found);
    if (Object.keys(found).length) return;
    void run(async () => {
      const { repeat: _repeat, ...body } = form;
      const answer = await withRecaptcha((recaptchaToken) =>
        data(api.POST('/api/account/register/send-code', { body: { ...body, recaptchaToken }, handleErrors: [400, 409, 429, 502] })),
      );
      setCode('');
      setSent(answer);
    });
  };

  const resend = () =>
    void run(async () => {
      const answer = await withRecaptcha((recaptchaToken) =>
        data(api.POST('/api/account/register/resend-code', { body: { challengeId: sent!.challengeId, recaptchaToken }, handleErrors: [400, 409, 429, 502] })),
      );
      setErrors({});
      setSent(answer);
    });

  const create = (e: React.FormEvent) => {
    e.preventDefault();
    if (!/^\d{6}$/.test(code)) {
      setErrors({ code: { key: 'otpCode' } });
      return;
    }
    setErrors({});
    void run(async () => {
      const { repeat: _repeat, ...body } = form;
      const answer = await data(api.POST('/api/account/register', { body: { ...body, challengeId: sent!.challengeId, code }, handleErrors: [400, 409, 429] }));
      setDone(answer.userName);
    });
  };

  if (done) {
    return (
      <AccountCard title={t('account.register.title')} testId="register-page" back={false}>
        <Text data-testid="register-done">{t('account.register.done', { userName: done })}</Text>
        <Button asChild colorPalette="brand">
          <Link to={LOGIN_PATH} data-testid="register-sign-in">
            {t('login.submit')}
          </Link>
        </Button>
      </AccountCard>
    );
  }

  return (
    <AccountCard title={t('account.register.title')} subtitle={t('account.register.subtitle')} failure={failure} testId="register-page">
      {!sent ? (
        <form onSubmit={sendCode} noValidate data-testid="register-form">
          <Stack gap="4">
            <FormField label={t('account.register.nationalId')} required error={errors.nationalId} helper={t('account.register.nationalIdHelper')}>
              <Input name="nationalId" inputMode="numeric" autoComplete="off" maxLength={10} dir="ltr" value={form.nationalId} onChange={set('nationalId')} />
            </FormField>
            <FormField label={t('account.register.name')} required error={errors.name}>
              <Input name="name" autoComplete="name" value={form.name} onChange={set('name')} />
            </FormField>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
              <FormField label={t('account.register.phone')} required error={errors.phone} helper={t('account.register.phoneHelper')}>
                <Input name="phone" type="tel" inputMode="tel" autoComplete="tel" dir="ltr" value={form.phone} onChange={set('phone')} />
              </FormField>
              <FormField label={t('account.register.email')} required error={errors.email}>
                <Input name="email" type="email" autoComplete="email" dir="ltr" value={form.email} onChange={set('email')} />
              </FormField>
              <FormField label={t('account.register.password')} required error={errors.password} helper={t('account.passwordRule')}>
                <Input name="password" type="password" autoComplete="new-password" dir="ltr" value={form.password} onChange={set('password')} />
              </FormField>
              <FormField label={t('account.register.repeat')} required error={errors.repeat}>
                <Input name="repeat" type="password" autoComplete="new-password" dir="ltr" value={form.repeat} onChange={set('repeat')} />
              </FormField>
            </SimpleGrid>
            <Button type="submit" colorPalette="brand" loading={pending} data-testid="register-send-code">
              {t('account.register.sendCode')}
            </Button>
          </Stack>
        </form>
      ) : (
        <form onSubmit={create} noValidate data-testid="register-code-form">
          <Stack gap="4">
            <Text data-testid="code-sent">
              {t('account.register.codeSent', { phone: ltr(sent.maskedPhone), time: ltr(expiresAt) })}
            </Text>
            <CodeField label={t('account.register.code')} value={code} onChange={setCode} error={errors.code} sent={sent} onResend={resend} pending={pending} />
            <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
              <Button type="submit" colorPalette="brand" loading={pending} data-testid="register-submit">
                {t('account.register.submit')}
              </Button>
              <Button variant="ghost" onClick={() => setSent(null)} disabled={pending}>
                {t('account.register.edit')}
              </Button>
            </Stack>
          </Stack>
        </form>
      )}
    </AccountCard>
  );
}
