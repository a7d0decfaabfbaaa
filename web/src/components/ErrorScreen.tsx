import { useEffect } from 'react';
import { Box, Button, Container, Flex, Heading, Text } from '@chakra-ui/react';
import { Link, useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { ErrorScreenStatus } from '../api/errors';
import { LOGIN_PATH, safeReturnUrl } from '../session/access';
import { messageText, type Said } from './form/validation-messages';
import { LanguageToggle } from './LanguageToggle';
import { Logo } from './Logo';

export interface ErrorScreenProps {
  status: ErrorScreenStatus;
  /** The server's message (refusalOf: its key, said here so it follows a language switch), when a call failed; otherwise the screen's own text. */
  message?: Said;
  /** Called before leaving through one of the screen's buttons (clears a screen raised by a failed call). */
  onLeave?: () => void;
}

/**
 * Spec 01 sections 2 and 8: the full error screen for 401, 403, 404 and 500. It covers the whole page and has no
 * close icon: the way out is a button (home, or sign in for 401).
 */
export function ErrorScreen({ status, message, onLeave }: ErrorScreenProps) {
  const { t } = useTranslation('shell');
  const location = useLocation();
  const returnUrl = safeReturnUrl(location.href);

  useEffect(() => {
    const previous = document.title;
    document.title = `${status} | ${t('appName')}`;
    return () => {
      document.title = previous;
    };
  }, [status, t]);

  return (
    <Box position="fixed" inset="0" zIndex="1400" bg="bg" overflowY="auto" data-testid="error-screen" data-status={status}>
      <Flex as="header" align="center" justify="space-between" px={{ base: '4', lg: '8' }} py="3" borderBottomWidth="1px">
        <Logo />
        <LanguageToggle />
      </Flex>
      <Container maxW="2xl" py={{ base: '12', lg: '20' }} textAlign="center" as="main">
        <Text fontSize={{ base: '6xl', lg: '8xl' }} fontWeight="bold" color="brand.fg" lineHeight="1" aria-hidden>
          {status}
        </Text>
        <Heading as="h1" size="2xl" mt="6">
          {t(`errorScreen.${status}.title`)}
        </Heading>
        <Text mt="4" color="fg.muted" fontSize="lg">
          {message ? messageText(t, message) : t(`errorScreen.${status}.description`)}
        </Text>
        <Flex mt="10" gap="3" justify="center" wrap="wrap">
          {status === 401 && (
            <Button asChild colorPalette="brand">
              <Link to={LOGIN_PATH} search={returnUrl ? { returnUrl } : {}} onClick={onLeave}>
                {t('header.signIn')}
              </Link>
            </Button>
          )}
          <Button asChild colorPalette="brand" variant={status === 401 ? 'outline' : 'solid'}>
            <Link to="/" onClick={onLeave}>
              {t('errorScreen.home')}
            </Link>
          </Button>
          {status === 500 && (
            <Button variant="outline" onClick={() => window.location.reload()}>
              {t('errorScreen.retry')}
            </Button>
          )}
        </Flex>
      </Container>
    </Box>
  );
}
