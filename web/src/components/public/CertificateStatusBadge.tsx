import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { PublicStatus } from './public-api';

const PALETTE: Record<PublicStatus, string> = {
  active: 'green',
  expiringSoon: 'orange',
  expired: 'red',
  suspended: 'red',
  validSoon: 'blue',
  cancelled: 'red',
  withdrawn: 'red',
};

/** A certificate's status as a coloured badge; the word, not the colour, carries the meaning. */
export function CertificateStatusBadge({ status, size = 'md' }: { status: PublicStatus; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useTranslation('public');
  return (
    <Badge colorPalette={PALETTE[status]} variant="subtle" size={size} data-testid="certificate-status" data-status={status}>
      {t(`status.${status}`)}
    </Badge>
  );
}
