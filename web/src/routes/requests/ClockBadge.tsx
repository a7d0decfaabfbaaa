import { Badge, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { RequestClockView } from './requests-api';

/** Days are shown to one decimal, in Latin digits like the rest of the portal's numbers. */
const days = (n: number) => String(Math.floor(n * 10) / 10);

/**
 * The working-day clock of a request: days used of the limit, red when past it, orange from the renewal warning,
 * with "paused" while the request is with the applicant.
 */
export function ClockBadge({ clock, compact }: { clock: RequestClockView; compact?: boolean }) {
  const { t } = useTranslation('admin');
  const palette = clock.overdue ? 'red' : clock.warning ? 'orange' : 'gray';
  return (
    <HStack gap="2" wrap="wrap" title={t('clock.help')} data-testid="request-clock" data-overdue={clock.overdue} data-paused={clock.paused}>
      <Badge colorPalette={palette} variant={clock.overdue ? 'solid' : 'subtle'} size={compact ? 'sm' : 'lg'}>
        {!compact && `${t('clock.label')}: `}
        {t('clock.value', { used: days(clock.usedDays), limit: clock.limitDays })}
      </Badge>
      {clock.overdue && !compact && <Text color="red.700" fontSize="sm">{t('clock.overdue')}</Text>}
      {clock.warning && !compact && clock.warnDays !== null && <Text color="orange.700" fontSize="sm">{t('clock.warning', { warn: clock.warnDays })}</Text>}
      {clock.paused && (
        <Badge colorPalette="blue" variant="outline" size="sm">
          {t('clock.paused')}
        </Badge>
      )}
      {clock.stopped && !compact && (
        <Badge variant="outline" size="sm">
          {t('clock.stopped')}
        </Badge>
      )}
    </HStack>
  );
}
