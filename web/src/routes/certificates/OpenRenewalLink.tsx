import { Button, Link as ChakraLink } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { OpenRenewalJson } from '../../../../machines/forms/records';
import { ltr } from '../../components/Bidi';

/**
 * The link to a certificate's renewal already open (the server's `openRenewal`), shown instead of a second renewal: a
 * button among the certificate page's actions, a plain link in the facility's certificates tab.
 */
export function OpenRenewalLink({ request, look }: { request: OpenRenewalJson; look: 'button' | 'link' }) {
  const { t } = useTranslation('requests');
  const link = (
    <Link to="/requests/$requestId" params={{ requestId: request.id }} data-testid="open-renewal">
      {t('requests:renewal.open', { number: ltr(request.number) })}
    </Link>
  );
  return look === 'button' ? (
    <Button asChild variant="outline" colorPalette="brand">
      {link}
    </Button>
  ) : (
    <ChakraLink asChild colorPalette="brand" fontSize="sm">
      {link}
    </ChakraLink>
  );
}
