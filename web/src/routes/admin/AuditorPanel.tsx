import { useState } from 'react';
import { Badge, Box, Button, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { LifecycleDiagram } from './LifecycleDiagram';

/** "Verified" when the history's hash chain recomputes (GET /history/verify), else where and why it breaks. */
export function HistoryVerification({ requestId }: { requestId: string }) {
  const { t } = useTranslation('admin');
  const q = useApi(apiQuery('/api/requests/{id}/history/verify', { params: { path: { id: requestId } }, silent: true, handleErrors: false }));
  if (!q.data) return null;
  const v = q.data;
  return v.ok ? (
    <Badge colorPalette="green" size="lg" data-testid="history-verified" data-ok="true">
      {t('verify.ok', { count: v.rows })}
    </Badge>
  ) : (
    <Box borderWidth="1px" borderColor="red.muted" bg="red.subtle" borderRadius="md" p="3" data-testid="history-verified" data-ok="false">
      <Badge colorPalette="red" size="lg">
        {t('verify.broken')}
      </Badge>
      <Text mt="2" data-testid="history-broken-reason">
        {t(`verify.reasons.${v.reason ?? 'hash'}`, { seq: v.firstBrokenSeq })}
      </Text>
    </Box>
  );
}

/**
 * What an auditor looks at on a request page: whether its history is intact, and the state diagram of its machine
 * (and of its bills and certificate) with the current status and the path taken.
 */
export function AuditorPanel({ requestId, related = [] }: { requestId: string; related?: { id: string; label: string }[] }) {
  const { t } = useTranslation('admin');
  const bills = useApi(apiQuery('/api/bills', { params: { query: { requestId, pageSize: 20 } }, silent: true, handleErrors: false }));
  const lifecycles = [
    { id: requestId, label: t('diagram.request') },
    ...(bills.data?.items ?? []).map((b) => ({ id: b.id, label: t('diagram.bill', { number: b.number }) })),
    ...related,
  ];
  const [shown, setShown] = useState(requestId);
  const current = lifecycles.find((l) => l.id === shown) ?? lifecycles[0];
  return (
    <Box as="section" aria-labelledby="auditor-title" data-testid="auditor-panel">
      <Stack gap="3">
        <Flex gap="3" align="center" wrap="wrap">
          <Heading as="h2" size="lg" id="auditor-title">
            {t('diagram.title')}
          </Heading>
          <HistoryVerification requestId={requestId} />
        </Flex>
        {lifecycles.length > 1 && (
          <Flex gap="2" wrap="wrap">
            {lifecycles.map((l) => (
              <Button key={l.id} size="xs" variant={l.id === current.id ? 'solid' : 'outline'} colorPalette="brand" onClick={() => setShown(l.id)} data-testid="diagram-pick">
                {l.label}
              </Button>
            ))}
          </Flex>
        )}
        <Text fontSize="sm" color="fg.muted">
          {t('diagram.legend')}
        </Text>
        <LifecycleDiagram key={current.id} id={current.id} title={`${t('diagram.title')}: ${current.label}`} />
      </Stack>
    </Box>
  );
}
