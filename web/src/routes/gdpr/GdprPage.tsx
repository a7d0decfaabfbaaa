import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Card, Heading, List, Stack, Table, Text } from '@chakra-ui/react';
import { CardCell, CardHeader, cardBody, type CardColumn, cardRow, cardTable } from '../../components/CardTable';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { ApiError, useRefusal } from '../../api/errors';
import { apiQuery, useApi } from '../../api/query';
import { PERSONAL_DATA } from '../../../../machines/personal-data';
import { formatDate } from '../../lib/dates';
import { ConfirmDialog, PageContainer, PageHeader, notify } from '../../components';
import { useSession } from '../../session';
import { loadSession } from '../../session/session-store';
import { clearSelectedFacility } from '../../session/selected-facility';

const STATUS_TONE = { preparing: 'orange', ready: 'green', expired: 'gray', failed: 'red' } as const;

/** A refusal the page shows itself (the three GDPR messages of spec 01 §8); anything else is rethrown. */
function conflictOf(e: unknown): ApiError {
  if (e instanceof ApiError && e.status === 409) return e;
  throw e;
}

/**
 * gdpr: the signed-in user asks for a copy of the personal data the portal holds about them (one JSON file, prepared
 * in the background; the list shows each request's state and downloads a ready one with a one-time token), and deletes
 * their account where the law allows. The server refuses while their facilities have open requests or unpaid bills
 * (the refusal is shown here, with the counts) and for Halal-center staff.
 */
export function GdprPage() {
  const { t, i18n } = useTranslation(['admin', 'shell']);
  const requestColumns = [
    { key: 'requestedAt', label: t('admin:gdpr.requestedAt') },
    { key: 'status', label: t('admin:gdpr.statusLabel') },
    { key: 'availableUntil', label: t('admin:gdpr.availableUntil') },
    { key: 'download', label: '', textAlign: 'end' },
  ] as const satisfies readonly CardColumn[];
  const session = useSession();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const refusal = useRefusal();
  const exportMessage = useRefusal();
  const title = t('shell:screens.gdpr');
  const list = useApi(apiQuery('/api/gdpr/requests'));
  const preparing = list.data?.items.some((r) => r.status === 'preparing') ?? false;
  const { refetch: reload } = list;

  // A file being prepared is usually ready within seconds: look again until it is.
  useEffect(() => {
    if (!preparing) return;
    const timer = setInterval(() => void reload(), 2_000);
    return () => clearInterval(timer);
  }, [preparing, reload]);

  const ask = async () => {
    exportMessage.clear();
    try {
      await data(api.POST('/api/gdpr/requests', { handleErrors: [409] }));
      notify.success(t('admin:gdpr.requested'));
    } catch (e) {
      exportMessage.refuse(conflictOf(e));
    }
    await reload();
  };

  const download = async (id: string) => {
    exportMessage.clear();
    let token: string;
    try {
      ({ token } = await data(api.POST('/api/gdpr/requests/{id}/download-token', { params: { path: { id } }, handleErrors: [409] })));
    } catch (e) {
      exportMessage.refuse(conflictOf(e));
      await reload();
      return;
    }
    // A plain link, so the browser saves the file itself (the session cookie and the one-time token authorise it).
    const link = document.createElement('a');
    link.href = `/api/gdpr/requests/${id}/file?token=${encodeURIComponent(token)}`;
    link.download = '';
    document.body.append(link);
    link.click();
    link.remove();
  };

  const remove = async () => {
    refusal.clear();
    try {
      await data(api.POST('/api/gdpr/delete-account', { body: { confirm: true }, handleErrors: [409] }));
    } catch (e) {
      refusal.refuse(conflictOf(e));
      setConfirming(false);
      return;
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
            <Text>{t('admin:gdpr.exportText', { days: PERSONAL_DATA.keepDays })}</Text>
            <List.Root ps="5">
              {(['profile', 'facilities', 'requests', 'sessions', 'audit'] as const).map((k) => (
                <List.Item key={k}>{t(`admin:gdpr.contents.${k}`)}</List.Item>
              ))}
            </List.Root>
            <Button colorPalette="brand" alignSelf="start" onClick={() => void ask()} data-testid="gdpr-request">
              {t('admin:gdpr.request')}
            </Button>
            {list.data?.nextRequestAt && <Text color="fg.muted">{t('admin:gdpr.nextRequest', { after: formatDate(list.data.nextRequestAt, i18n.language, 'stamp') })}</Text>}
            {exportMessage.messages.length > 0 && (
              <Alert.Root status="warning" data-testid="gdpr-message">
                <Alert.Indicator />
                <Alert.Description>{exportMessage.messages.join(' ')}</Alert.Description>
              </Alert.Root>
            )}
            <Heading as="h3" size="sm" mt="2">
              {t('admin:gdpr.requestsTitle')}
            </Heading>
            {list.data && list.data.items.length === 0 && <Text color="fg.muted">{t('admin:gdpr.noRequests')}</Text>}
            {list.data && list.data.items.length > 0 && (
              <Table.ScrollArea>
                <Table.Root size="sm" data-testid="gdpr-requests" {...cardTable}>
                  <CardHeader columns={requestColumns} />
                  <Table.Body {...cardBody}>
                    {list.data.items.map((r) => (
                      <Table.Row key={r.id} data-status={r.status} {...cardRow}>
                        <CardCell label={requestColumns[0].label}>{formatDate(r.requestedAt, i18n.language, 'stamp')}</CardCell>
                        <CardCell label={requestColumns[1].label}>
                          <Badge colorPalette={STATUS_TONE[r.status]}>{t(`admin:gdpr.status.${r.status}`)}</Badge>
                        </CardCell>
                        <CardCell label={requestColumns[2].label}>{r.availableUntil ? formatDate(r.availableUntil, i18n.language, 'stamp') : '—'}</CardCell>
                        <CardCell label={requestColumns[3].label} textAlign={requestColumns[3].textAlign}>
                          {r.status === 'ready' && (
                            <Button size="sm" variant="outline" onClick={() => void download(r.id)} data-testid="gdpr-download">
                              {t('admin:gdpr.download')}
                            </Button>
                          )}
                        </CardCell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Table.ScrollArea>
            )}
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
            {refusal.messages.length > 0 && (
              <Alert.Root status="warning" data-testid="gdpr-refused">
                <Alert.Indicator />
                <Alert.Description>{refusal.messages.join(' ')}</Alert.Description>
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
