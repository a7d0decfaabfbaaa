import { useEffect, useState } from 'react';
import { Alert, Box, Button, Card, Link as ChakraLink, Flex, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { CHAT_CLEARANCE } from '../../components/chat/clearance';
import { ApiError } from '../../api/errors';
import type { ApiResponse } from '../../api/query';
import { dropRecaptchaToken, recaptchaToken } from '../../components/chat/recaptcha-token';
import { FormField } from '../../components/form/FormField';
import { type FieldMessage, messageText, type Said } from '../../components/form/validation-messages';
import { PageContainer } from '../../components/PageHeader';
import { LOGIN_PATH } from '../../session/access';
import { formatDate } from '../../lib/dates';

/** What the server says about a code it sent (machines/forms/account.ts ZCodeSent). */
export type CodeSent = ApiResponse<'/api/account/register/send-code', 'post'>;

/** Errors of the code itself: shown next to the code field. */
export const CODE_ERRORS = new Set(['OtpInvalid', '1005', '1006', 'OtpMobileChanged']);

/** Calls `fn` with a reCAPTCHA token (reused under 110 s, spec 01 section 9), renewing it once if refused. */
export async function withRecaptcha<T>(fn: (token: string) => Promise<T>): Promise<T> {
  try {
    return await fn(await recaptchaToken());
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'RecaptchaInvalid') throw e;
    dropRecaptchaToken();
    return fn(await recaptchaToken());
  }
}

export function useSecondsUntil(iso: string | undefined): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!iso) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [iso]);
  return iso ? Math.max(0, Math.ceil((Date.parse(iso) - now) / 1000)) : 0;
}

/** The time a code expires, in the reader's language (digits kept left to right inside Arabic text). */
export function useTimeOf(iso: string | undefined): string {
  const { i18n } = useTranslation();
  if (!iso) return '';
  return formatDate(iso, i18n.language, 'time');
}

/** The card every account page sits in: a title, a subtitle, the page-level error and a way back to sign-in. */
export function AccountCard({ title, subtitle, failure, children, testId, back = true }: { title: string; subtitle?: string; failure?: Said[] | null; children: React.ReactNode; testId: string; back?: boolean }) {
  const { t } = useTranslation('shell');
  return (
    <PageContainer>
      {/* Room below the form, so its last button can always scroll clear of the floating chat button. */}
      <Box maxW="lg" mx="auto" pb={CHAT_CLEARANCE} data-testid={testId}>
        <Card.Root>
          <Card.Body px={{ base: '4', md: '6' }}>
            <Stack gap="5">
              <Box>
                <Heading as="h1" size="xl" data-testid="page-title">
                  {title}
                </Heading>
                {subtitle && (
                  <Text mt="2" color="fg.muted">
                    {subtitle}
                  </Text>
                )}
              </Box>
              {failure && failure.length > 0 && (
                <Alert.Root status="error" data-testid="account-error" role="alert">
                  <Alert.Indicator />
                  <Alert.Description>{failure.map((m) => messageText(t, m)).join(' ')}</Alert.Description>
                </Alert.Root>
              )}
              {children}
              {back && (
                <ChakraLink asChild colorPalette="brand" textDecoration="underline" alignSelf="flex-start">
                  <Link to={LOGIN_PATH} data-testid="back-to-sign-in">
                    {t('account.backToSignIn')}
                  </Link>
                </ChakraLink>
              )}
            </Stack>
          </Card.Body>
        </Card.Root>
      </Box>
    </PageContainer>
  );
}

/** The 6-digit code field with its "send a new code" button (enabled when the resend interval has passed). */
export function CodeField({
  label,
  value,
  onChange,
  error,
  sent,
  onResend,
  pending,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: FieldMessage | string;
  sent: CodeSent;
  onResend: () => void;
  pending: boolean;
}) {
  const { t } = useTranslation('shell');
  const resendIn = useSecondsUntil(sent.resendAvailableAt);
  return (
    <Stack gap="2">
      <FormField label={label} required error={error}>
        <Input
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          dir="ltr"
          value={value}
          onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
          data-testid="otp-code"
        />
      </FormField>
      <Flex justify="flex-start">
        <Button variant="outline" size="sm" disabled={resendIn > 0 || pending} onClick={onResend} data-testid="otp-resend">
          {resendIn > 0 ? t('account.register.resendIn', { seconds: resendIn }) : t('account.register.resend')}
        </Button>
      </Flex>
    </Stack>
  );
}
