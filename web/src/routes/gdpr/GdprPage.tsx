import { useState } from 'react';
import { Alert, Button, Card, Heading, List, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import { ConfirmDialog, PageContainer, PageHeader, notify } from '../../components';
import { useSession } from '../../session';
import { loadSession } from '../../session/session-store';
import { clearSelectedFacility } from '../../session/selected-facility';

/**
 * gdpr: the signed-in user downloads the personal data the portal holds about them (one JSON file), and deletes
 * their account where the law allows. The server refuses while their facilities have open requests or unpaid bills
 * (the refusal is shown here, with the counts) and for Halal-center staff.
 */
export function GdprPage() {
  const { t } = useTranslation(['admin', 'shell']);
  const session = useSession();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const title = t('shell:screens.gdpr');

  const remove = async () => {
    setRefusal(null);
    try {
      await api.post('/api/gdpr/delete-account', { confirm: true }, { handleErrors: [409] });
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        setConfirming(false);
        setRefusal(e.serverMessage || t(`errors:${e.code}`));
        return;
      }
      throw e;
    }
    setConfirming(false);
    clearSelectedFacility();
    await loadSession();
    notify.success(t('admin:gdpr.deleted'));
    await navigate({ to: '/home' });
  };

  return (
    <PageContainer>
      <PageHeader title={title} description={t('admin:gdpr.description')} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: title }]} />
      <Stack gap="6" maxW="3xl">
        <Card.Root>
          <Card.Body gap="3">
            <Heading as="h2" size="md">
              {t('admin:gdpr.exportTitle')}
            </Heading>
            <Text>{t('admin:gdpr.exportText')}</Text>
            <List.Root ps="5">
              {(['profile', 'facilities', 'requests', 'sessions', 'audit'] as const).map((k) => (
                <List.Item key={k}>{t(`admin:gdpr.contents.${k}`)}</List.Item>
              ))}
            </List.Root>
            <Button asChild colorPalette="brand" alignSelf="start" data-testid="gdpr-download">
              <a href="/api/gdpr/export" download>
                {t('admin:gdpr.download')}
              </a>
            </Button>
          </Card.Body>
        </Card.Root>

        <Card.Root borderColor="red.muted">
          <Card.Body gap="3">
            <Heading as="h2" size="md">
              {t('admin:gdpr.deleteTitle')}
            </Heading>
            <Text>{t('admin:gdpr.deleteText')}</Text>
            {session?.isStaff ? (
              <Text color="fg.muted" data-testid="gdpr-staff">
                {t('errors:GdprStaffAccount')}
              </Text>
            ) : (
              <Button colorPalette="red" variant="outline" alignSelf="start" onClick={() => setConfirming(true)} data-testid="gdpr-delete">
                {t('admin:gdpr.delete')}
              </Button>
            )}
            {refusal && (
              <Alert.Root status="warning" data-testid="gdpr-refused">
                <Alert.Indicator />
                <Alert.Description>{refusal}</Alert.Description>
              </Alert.Root>
            )}
          </Card.Body>
        </Card.Root>
      </Stack>
      <ConfirmDialog
        open={confirming}
        tone="danger"
        title={t('admin:gdpr.confirmTitle')}
        message={t('admin:gdpr.confirmText')}
        confirmLabel={t('admin:gdpr.delete')}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
        testId="gdpr-confirm"
      />
    </PageContainer>
  );
}
