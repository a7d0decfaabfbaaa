import { useState } from 'react';
import { Button, Input, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { ApiError, refusalOf, saysOf } from '../../api/errors';
import { FormField } from '../../components/form/FormField';
import { fieldMessages, serverFieldMessages, type FieldMessage, type Said } from '../../components/form/validation-messages';
import { ZForgotSendCode, ZResetPassword } from '../../../../machines/forms/account';
import { LOGIN_PATH } from '../../session/access';
import { AccountCard, CODE_ERRORS, CodeField, useTimeOf, withRecaptcha, type CodeSent } from './account-ui';
import { ltr } from '../../components/Bidi';

type Field = 'identifier' | 'code' | 'password' | 'repeat';

/**
 * account/forgot-password: the national/resident id or e-mail, then the code sent by SMS to the account's mobile and
 * a new password. The page never says whether an account matched (the server answers alike); a reset ends every
 * session of the account.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation('shell');
  const [identifier, setIdentifier] = useState('');
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, FieldMessage | string>>>({});
  const [failure, setFailure] = useState<Said[] | null>(null);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);
  const expiresAt = useTimeOf(sent?.expiresAt);

  const run = async (fn: () => Promise<void>) => {
    setPending(true);
    setFailure(null);
    try {
      await fn();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.validationErrors.length) setErrors(serverFieldMessages(err.validationErrors));
      else if (CODE_ERRORS.has(err.code)) setErrors({ code: refusalOf(err) || saysOf(err)[0]! });
      else setFailure(saysOf(err));
    } finally {
      setPending(false);
    }
  };

  const sendCode = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = ZForgotSendCode.safeParse({ identifier, recaptchaToken: '-' });
    const found = parsed.success ? {} : fieldMessages(parsed.error.issues);
    setErrors(found);
    if (Object.keys(found).length) return;
    void run(async () => {
      const answer = await withRecaptcha((recaptchaToken) =>
        data(api.POST('/api/account/forgot-password/send-code', { body: { identifier, recaptchaToken }, handleErrors: [400, 429, 502] })),
      );
      setSent(answer);
    });
  };

  const resend = () =>
    void run(async () => {
      const answer = await withRecaptcha((recaptchaToken) =>
        data(api.POST('/api/account/forgot-password/resend-code', { body: { challengeId: sent!.challengeId, recaptchaToken }, handleErrors: [400, 429, 502] })),
      );
      setErrors({});
      setSent(answer);
    });

  const reset = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = ZResetPassword.safeParse({ challengeId: sent!.challengeId, code, password });
    const found: Partial<Record<Field, FieldMessage | string>> = parsed.success ? {} : fieldMessages(parsed.error.issues);
    if (!repeat) found.repeat = { key: 'required' };
    else if (repeat !== password) found.repeat = { key: 'shell:account.register.mismatch' };
    setErrors(found);
    if (Object.keys(found).length) return;
    void run(async () => {
      await data(api.POST('/api/account/forgot-password/reset', { body: { challengeId: sent!.challengeId, code, password }, handleErrors: [400, 429] }));
      setDone(true);
    });
  };

  if (done) {
    return (
      <AccountCard title={t('account.forgot.title')} testId="forgot-page" back={false}>
        <Text data-testid="reset-done">{t('account.forgot.done')}</Text>
        <Button asChild colorPalette="brand">
          <Link to={LOGIN_PATH} data-testid="reset-sign-in">
            {t('login.submit')}
          </Link>
        </Button>
      </AccountCard>
    );
  }

  return (
    <AccountCard title={t('account.forgot.title')} subtitle={sent ? undefined : t('account.forgot.subtitle')} failure={failure} testId="forgot-page">
      {!sent ? (
        <form onSubmit={sendCode} noValidate data-testid="forgot-form">
          <Stack gap="4">
            <FormField label={t('account.forgot.identifier')} required error={errors.identifier}>
              <Input name="identifier" autoComplete="username" dir="ltr" value={identifier} onChange={(e) => setIdentifier(e.target.value)} />
            </FormField>
            <Button type="submit" colorPalette="brand" loading={pending} data-testid="forgot-send-code">
              {t('account.forgot.sendCode')}
            </Button>
          </Stack>
        </form>
      ) : (
        <form onSubmit={reset} noValidate data-testid="reset-form">
          <Stack gap="4">
            <Text data-testid="code-sent">{t('account.forgot.codeSent', { time: ltr(expiresAt) })}</Text>
            <CodeField label={t('account.forgot.code')} value={code} onChange={setCode} error={errors.code} sent={sent} onResend={resend} pending={pending} />
            <FormField label={t('account.forgot.password')} required error={errors.password} helper={t('account.passwordRule')}>
              <Input name="password" type="password" autoComplete="new-password" dir="ltr" value={password} onChange={(e) => setPassword(e.target.value)} />
            </FormField>
            <FormField label={t('account.forgot.repeat')} required error={errors.repeat}>
              <Input name="repeat" type="password" autoComplete="new-password" dir="ltr" value={repeat} onChange={(e) => setRepeat(e.target.value)} />
            </FormField>
            <Button type="submit" colorPalette="brand" loading={pending} data-testid="reset-submit">
              {t('account.forgot.submit')}
            </Button>
          </Stack>
        </form>
      )}
    </AccountCard>
  );
}
