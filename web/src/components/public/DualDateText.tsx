import { Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useHijriFormatter } from './localized';
import type { DualDate } from './public-api';
import { formatDate } from '../../lib/dates';

/** A date in the Gregorian calendar with its Umm al-Qura Hijri equivalent underneath. */
export function DualDateText({ date, testId }: { date: DualDate; testId?: string }) {
  const { t, i18n } = useTranslation('public');
  const hijri = useHijriFormatter();
  return (
    <Stack gap="0" data-testid={testId}>
      <Text>
        <time dateTime={date.gregorian}>{formatDate(date.gregorian, i18n.language, 'long')}</time>
        <Text as="span" color="fg.muted" fontSize="sm">
          {' '}
          ({t('verify.gregorian')})
        </Text>
      </Text>
      {date.hijri && (
        <Text data-testid={testId ? `${testId}-hijri` : undefined}>
          {hijri(date)}
          <Text as="span" color="fg.muted" fontSize="sm">
            {' '}
            ({t('verify.hijri')})
          </Text>
        </Text>
      )}
    </Stack>
  );
}
