import { useState } from 'react';
import { Alert, Box, Button, Card, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { messageText, type Said } from '../../components/form/validation-messages';
import { ApiError, saysOf } from '../../api/errors';
import { apiQuery, useApi } from '../../api/query';
import { useRouteParams } from '../../route-params';
import { FormField } from '../../components/form/FormField';
import { PageContainer } from '../../components/PageHeader';

/**
 * delegate-invitation/{token}: the link a new delegate gets by SMS when a delegation created their account. They
 * choose a password once (the link then stops working) and sign in with their national or resident id.
 */
export function DelegateInvitationPage() {
  const { t } = useTranslation('facilities');
  const { token } = useRouteParams('delegate-invitation/$token');
  const invitation = useApi(apiQuery('/api/delegate-invitations/{token}', { params: { path: { token } }, handleErrors: [400, 404] }));
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ password?: string; repeat?: string }>({});
  const [failure, setFailure] = useState<Said[] | null>(null);
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const errs = {
      password: password ? undefined : t('validation:required'),
      repeat: repeat === password ? undefined : t('invitation.mismatch'),
    };
    setErrors(errs);
    if (errs.password || errs.repeat) return;
    setPending(true);
    setFailure(null);
    try {
      await data(api.POST('/api/delegate-invitations/{token}', { params: { path: { token } }, body: { password }, handleErrors: [400, 404, 429] }));
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError) setFailure(saysOf(err));
    } finally {
      setPending(false);
    }
  };

  return (
    <PageContainer>
      <Box maxW="md" mx="auto">
        <Card.Root>
          <Card.Body>
            <Stack gap="5">
              <Heading as="h1" size="xl" data-testid="page-title">
                {t('invitation.title')}
              </Heading>
              {invitation.error && (
                <Alert.Root status="error" data-testid="invitation-invalid">
                  <Alert.Indicator />
                  <Alert.Description>{t('errors:InvitationInvalid')}</Alert.Description>
                </Alert.Root>
              )}
              {done && (
                <Stack gap="4" data-testid="invitation-done">
                  <Text>{t('invitation.done', { userName: invitation.data?.userName })}</Text>
                  <Button asChild colorPalette="brand">
                    <Link to="/account/login">{t('invitation.signIn')}</Link>
                  </Button>
                </Stack>
              )}
              {invitation.data && !done && (
                <form onSubmit={(e) => void submit(e)} noValidate>
                  <Stack gap="4">
                    <Text>{t('invitation.greeting', { name: invitation.data.name, userName: invitation.data.userName })}</Text>
                    {failure && (
                      <Alert.Root status="error">
                        <Alert.Indicator />
                        <Alert.Description>{failure.map((m) => messageText(t, m)).join(' ')}</Alert.Description>
                      </Alert.Root>
                    )}
                    <FormField label={t('invitation.password')} required error={errors.password} helper={t('errors:PasswordTooWeak')}>
                      <Input name="password" type="password" autoComplete="new-password" dir="ltr" value={password} onChange={(e) => setPassword(e.target.value)} />
                    </FormField>
                    <FormField label={t('invitation.repeat')} required error={errors.repeat}>
                      <Input name="repeat" type="password" autoComplete="new-password" dir="ltr" value={repeat} onChange={(e) => setRepeat(e.target.value)} />
                    </FormField>
                    <Button type="submit" colorPalette="brand" loading={pending} data-testid="set-password">
                      {t('invitation.submit')}
                    </Button>
                  </Stack>
                </form>
              )}
            </Stack>
          </Card.Body>
        </Card.Root>
      </Box>
    </PageContainer>
  );
}
