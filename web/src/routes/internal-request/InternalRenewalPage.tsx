import { Alert, Box, Button, Stack, Text } from '@chakra-ui/react';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useApiQuery } from '../../api/hooks';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import type { RequestDetail } from '../requests/requests-api';

interface Renewable {
  number: string;
  expiresAt: string;
  daysLeft: number;
  open: boolean;
}

/**
 * internal-renewal-request/{facilityPublicId}/{certificateId}: the renewal (type 202) of an internal certificate. It
 * opens when fewer than 60 days remain; starting it copies the certified request's data into a renewal draft and
 * opens the same wizard.
 */
export function InternalRenewalPage() {
  const { certificateId } = useParams({ strict: false }) as { certificateId: string };
  const { t, i18n } = useTranslation(['requests', 'shell']);
  const navigate = useNavigate();
  const info = useApiQuery<Renewable>(`/api/internal-requests/renewals/${certificateId}`);
  const start = async () => {
    const r = await api.post<RequestDetail>('/api/internal-requests/renewals', { certificateId });
    await navigate({ to: '/internal-halal-request/$requestId', params: { requestId: r.id } });
  };
  const c = info.data;
  return (
    <PageContainer>
      <PageHeader title={t('requests:renewal.title')} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: t('requests:renewal.title') }]} />
      {c && (
        <Stack gap="4" maxW="2xl">
          <Box>
            <Text>{t('requests:renewal.certificate', { number: c.number })}</Text>
            <Text color="fg.muted">
              {t('requests:renewal.expires', { date: new Date(c.expiresAt).toLocaleDateString(i18n.language === 'ar' ? 'ar-SA-u-nu-latn' : 'en-GB'), count: Math.max(c.daysLeft, 0) })}
            </Text>
          </Box>
          {c.open ? (
            <Button alignSelf="start" colorPalette="brand" onClick={() => void start()} data-testid="start-renewal">
              {t('requests:renewal.start')}
            </Button>
          ) : (
            <Alert.Root status="info" data-testid="renewal-not-open">
              <Alert.Indicator />
              <Alert.Title>{t('requests:renewal.notOpen')}</Alert.Title>
            </Alert.Root>
          )}
        </Stack>
      )}
    </PageContainer>
  );
}
