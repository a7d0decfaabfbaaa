import { Box, Spinner, VisuallyHidden } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { pendingRequests } from '../api/activity';
import { useStore } from '../lib/create-store';

/**
 * Spec 01 section 2: a full-page loader for every HTTP request (the api client counts them). It also blocks
 * clicks while a call runs, so a form cannot be sent twice. It fades in, so quick calls do not flash.
 */
export function FullPageLoader() {
  const { t } = useTranslation('common');
  const busy = useStore(pendingRequests) > 0;
  if (!busy) return null;
  return (
    <Box
      position="fixed"
      inset="0"
      zIndex="2000"
      display="flex"
      alignItems="center"
      justifyContent="center"
      bg="blackAlpha.300"
      data-testid="page-loader"
      role="status"
      aria-live="polite"
      css={{ animation: 'fade-in 200ms ease-out 120ms both' }}
    >
      <Spinner size="xl" color="brand.solid" borderWidth="4px" />
      <VisuallyHidden>{t('loading')}</VisuallyHidden>
    </Box>
  );
}
