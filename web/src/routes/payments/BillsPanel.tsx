import { Badge, Box, Button, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { useApi, type ApiResponse } from '../../api/query';
import { requestQueries } from '../requests/requests-api';
import { Ltr, ltr } from '../../components/Bidi';
import { formatDate } from '../../lib/dates';
import { moneyFormat } from '../../lib/numbers';

export type BillView = ApiResponse<'/api/bills'>['items'][number];

/** Bill status 1 is open (awaiting payment); 2 paid, 3 expired, 4 cancelled. */
const OPEN = 1;

/**
 * The request's bills: SAR amounts with VAT shown separately and the totals without and with VAT; an open bill is
 * paid at the government payment portal (its page, then back here with ?payment=...).
 */
export function BillsPanel({ requestId }: { requestId: string }) {
  const { t, i18n } = useTranslation(['requests', 'payments']);
  const bills = useApi(requestQueries(requestId).bills);
  const money = moneyFormat(i18n.language);
  const sar = (s: string) => `${ltr(money.format(Number(s)))} ${t('payments:bill.currency')}`;
  const items = bills.data?.items ?? [];
  if (items.length === 0) return null;
  const pay = async (bill: BillView) => {
    const r = await data(api.POST('/api/bills/{id}/pay', { params: { path: { id: bill.id } }, body: { returnPath: `/requests/${requestId}` } }));
    window.location.assign(r.redirectUrl);
  };
  return (
    <Box as="section" aria-labelledby="bills-title">
      <Heading as="h2" size="lg" id="bills-title" mb="3">
        {t('requests:payment.bills')}
      </Heading>
      <Stack gap="3">
        {items.map((b) => {
          const vatRate = Math.round((Number(b.vat) / Math.max(Number(b.amount), 0.01)) * 100);
          return (
            <Box key={b.id} borderWidth="1px" borderRadius="md" p="4" data-testid="bill" data-status={b.status.code}>
              <Flex justify="space-between" align="center" wrap="wrap" gap="2" mb="3">
                <Text fontWeight="semibold">
                  {b.feeKind.name} — <Ltr>{b.number}</Ltr>
                </Text>
                <Badge colorPalette={b.status.code === OPEN ? 'orange' : b.status.code === 2 ? 'green' : 'gray'} data-testid="bill-status">
                  {b.status.label}
                </Badge>
              </Flex>
              <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
                <Box>
                  <Text fontSize="sm" color="fg.muted">{t('payments:bill.amount')}</Text>
                  <Text data-testid="bill-amount">{sar(b.amount)}</Text>
                </Box>
                <Box>
                  <Text fontSize="sm" color="fg.muted">{t('payments:bill.vat', { rate: vatRate })}</Text>
                  <Text data-testid="bill-vat">{sar(b.vat)}</Text>
                </Box>
                <Box>
                  <Text fontSize="sm" color="fg.muted">{t('payments:bill.total')}</Text>
                  <Text fontWeight="bold" data-testid="bill-total">{sar(b.total)}</Text>
                </Box>
              </SimpleGrid>
              {b.refunds.map((r) => (
                <Text key={`${r.reference}-${r.refundedOn}`} mt="3" color="blue.fg" data-testid="bill-refund">
                  <Badge colorPalette="blue" me="2">{t('payments:bill.refunded')}</Badge>
                  {t('payments:bill.refundLine', { amount: ltr(money.format(Number(r.amount))), date: formatDate(r.refundedOn, i18n.language), reference: ltr(r.reference) })}
                </Text>
              ))}
              {b.status.code === OPEN && (
                <Flex mt="3" gap="3" align="center" wrap="wrap">
                  <Button colorPalette="brand" onClick={() => void pay(b)} data-testid="pay-bill">
                    {t('requests:payment.pay')}
                  </Button>
                  {b.dueAt && <Text fontSize="sm" color="fg.muted">{t('requests:payment.payBefore', { date: formatDate(b.dueAt, i18n.language) })}</Text>}
                </Flex>
              )}
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}
