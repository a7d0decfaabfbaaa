import { Badge, Box, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { HistoryItem } from './requests-api';
import { formatDate } from '../../lib/dates';

/** Saves of a draft by the same person less than this apart belong to one sitting. */
const SITTING_MS = 60 * 60_000;

/** Consecutive draft saves (EDIT) of one person in one sitting, as one entry with the count and the last time. */
export function collapseEdits(items: readonly HistoryItem[]): (HistoryItem & { count: number })[] {
  const out: (HistoryItem & { count: number })[] = [];
  for (const h of items) {
    const last = out.at(-1);
    if (
      last &&
      h.event === 'EDIT' &&
      last.event === 'EDIT' &&
      last.actor.userId === h.actor.userId &&
      last.from?.code === h.from?.code &&
      last.to.code === h.to.code &&
      new Date(h.at).getTime() - new Date(last.at).getTime() < SITTING_MS
    ) {
      out[out.length - 1] = { ...h, count: last.count + 1 };
    } else out.push({ ...h, count: 1 });
  }
  return out;
}

/**
 * The history timeline of a request: who, when, from which status to which, and the note or reason given. `startLabel`
 * names the first entry where it is not a request's creation (a certificate's lifecycle).
 */
export function HistoryTimeline({ items, startLabel }: { items: readonly HistoryItem[]; startLabel?: string }) {
  const { t, i18n } = useTranslation(['requests', 'machines']);
  return (
    <Box as="section" aria-labelledby="history-title">
      <Heading as="h2" size="lg" id="history-title" mb="4">
        {t('requests:history.title')}
      </Heading>
      <Stack as="ol" gap="0" data-testid="history" borderInlineStartWidth="2px" borderColor="brand.muted" ps="5">
        {collapseEdits(items).reverse().map((h) => {
          const text = h.note ?? (typeof h.payload.reason === 'string' ? h.payload.reason : typeof h.payload.note === 'string' ? h.payload.note : null);
          return (
            <Box as="li" key={h.seq} listStyleType="none" py="3" position="relative" data-testid="history-item" data-event={h.event}>
              <Box position="absolute" insetStart="-27px" top="5" w="3" h="3" borderRadius="full" bg="brand.solid" />
              <Flex gap="2" wrap="wrap" align="center">
                <Text fontWeight="semibold">
                  {h.event === 'EDIT' ? t('requests:history.edits', { count: h.count }) : t(`machines:events.${h.event}`, { defaultValue: h.event === 'START' ? (startLabel ?? t('requests:history.started')) : h.event })}
                </Text>
                {h.from && <Badge variant="outline">{h.from.label}</Badge>}
                {h.from && <Text aria-hidden>{i18n.dir() === 'rtl' ? '←' : '→'}</Text>}
                <Badge colorPalette="brand">{h.to.label}</Badge>
              </Flex>
              <Text fontSize="sm" color="fg.muted">
                {t('requests:history.by', { name: h.actor.name, at: formatDate(h.at, i18n.language, 'dateTime') })}
              </Text>
              {text && (
                <Text mt="1" data-testid="history-note">
                  {text}
                </Text>
              )}
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
