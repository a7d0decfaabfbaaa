import { useState } from 'react';
import { Alert, Box, Button, Card, Flex, Heading, Input, Link as ChakraLink, Stack, Text } from '@chakra-ui/react';
import { Link, useRouter, useSearch } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useRefusal } from '../../api/errors';
import { FormField } from '../../components/form/FormField';
import type { FieldMessage } from '../../components/form/validation-messages';
import { PageContainer } from '../../components/PageHeader';
import { landingPath, safeReturnUrl } from '../../session/access';
import { signIn } from '../../session/session-store';

/**
 * The sign-in page (/account/login?returnUrl=...). The original portal used its identity server's page; this one
 * signs in against POST /api/auth/login and then returns to where the user was going, or to their start page. A
 * refusal is kept as it came and said when drawn, so it follows a language switch.
 */
export function LoginPage() {
  const { t } = useTranslation('shell');
  const router = useRouter();
  const search = useSearch({ strict: false }) as { returnUrl?: unknown };
  const [userName, setUserName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ userName?: FieldMessage; password?: FieldMessage }>({});
  const failure = useRefusal();
  const [pending, setPending] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const missing = {
      userName: userName.trim() ? undefined : { key: 'required' },
      password: password ? undefined : { key: 'required' },
    };
    setErrors(missing);
    if (missing.userName || missing.password) return;
    setPending(true);
    failure.clear();
    try {
      const session = await signIn(userName.trim(), password);
      const target = safeReturnUrl(search.returnUrl) ?? landingPath(session);
      await router.invalidate();
      router.history.push(target);
    } catch (err) {
      failure.refuse(err);
      setPassword('');
    } finally {
      setPending(false);
    }
  };

  return (
    <PageContainer>
      <Box maxW="md" mx="auto">
        <Card.Root>
          <Card.Body>
            <form onSubmit={(e) => void submit(e)} noValidate data-testid="login-form">
              <Stack gap="5">
                <Box>
                  <Heading as="h1" size="xl" data-testid="page-title">
                    {t('login.title')}
                  </Heading>
                  <Text mt="2" color="fg.muted">
                    {t('login.subtitle')}
                  </Text>
                </Box>
                {failure.messages.length > 0 && (
                  <Alert.Root status="error" data-testid="login-error">
                    <Alert.Indicator />
                    <Alert.Description>{failure.messages.join(' ')}</Alert.Description>
                  </Alert.Root>
                )}
                <FormField label={t('login.userName')} required error={errors.userName}>
                  <Input name="userName" autoComplete="username" value={userName} onChange={(e) => setUserName(e.target.value)} dir="ltr" />
                </FormField>
                <FormField label={t('login.password')} required error={errors.password}>
                  <Input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} dir="ltr" />
                </FormField>
                <Button type="submit" colorPalette="brand" loading={pending} data-testid="login-submit">
                  {t('login.submit')}
                </Button>
                <Flex justify="space-between" gap="3" wrap="wrap">
                  <ChakraLink asChild colorPalette="brand" textDecoration="underline">
                    <Link to="/account/forgot-password" data-testid="forgot-password-link">
                      {t('account.forgotPassword')}
                    </Link>
                  </ChakraLink>
                  <Text>
                    {t('account.noAccount')}{' '}
                    <ChakraLink asChild colorPalette="brand" textDecoration="underline" fontWeight="semibold">
                      <Link to="/account/register" data-testid="register-link">
                        {t('account.createAccount')}
                      </Link>
                    </ChakraLink>
                  </Text>
                </Flex>
              </Stack>
            </form>
          </Card.Body>
        </Card.Root>
      </Box>
    </PageContainer>
  );
}
