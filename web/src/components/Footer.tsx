import { Box, Flex, HStack, IconButton, Link as ChakraLink, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { InstagramIcon, LinkedInIcon, XIcon, YouTubeIcon } from './icons';
import { CHAT_CLEARANCE } from './chat/clearance';

/** Footer links of spec 01 section 1: privacy, FAQ, contact, HS codes and the CB certificate list. */
const FOOTER_LINKS = [
  { to: '/privacy', labelKey: 'footer.privacy' },
  { to: '/faq', labelKey: 'footer.faq' },
  { to: '/contact-us', labelKey: 'footer.contact' },
  { to: '/hs-code', labelKey: 'footer.hsCodes' },
  { to: '/accredited-cb', labelKey: 'footer.cbCertificates' },
] as const;

/**
 * The authority's social accounts. The specification does not name them; these are the platforms' addresses
 * until the operator sets the accounts here.
 */
export const SOCIAL_LINKS = [
  { href: 'https://x.com/', labelKey: 'footer.social.x', Icon: XIcon },
  { href: 'https://www.youtube.com/', labelKey: 'footer.social.youtube', Icon: YouTubeIcon },
  { href: 'https://www.linkedin.com/', labelKey: 'footer.social.linkedin', Icon: LinkedInIcon },
  { href: 'https://www.instagram.com/', labelKey: 'footer.social.instagram', Icon: InstagramIcon },
] as const;

export function Footer() {
  const { t } = useTranslation('shell');
  const year = new Date().getFullYear();
  return (
    <Box as="footer" bg="brand.900" color="white" mt="auto" data-testid="footer">
      <Flex maxW="7xl" mx="auto" px={{ base: '4', lg: '6' }} py="8" gap="6" direction={{ base: 'column', lg: 'row' }} justify="space-between">
        <Stack gap="2" maxW="md">
          <Text fontWeight="bold" fontSize="lg">
            {t('appName')}
          </Text>
          <Text fontSize="sm" color="whiteAlpha.800">
            {t('footer.about')}
          </Text>
        </Stack>
        {/* Whole links wrap to a second row; a link's own words never do (the Arabic row had no room to spare). */}
        <Stack
          as="nav"
          aria-label={t('footer.linksLabel')}
          direction={{ base: 'column', md: 'row' }}
          wrap={{ md: 'wrap' }}
          columnGap="6"
          rowGap="2"
          align={{ md: 'center' }}
        >
          {FOOTER_LINKS.map((l) => (
            <ChakraLink key={l.to} asChild color="white" fontSize="sm" textDecoration="underline" textUnderlineOffset="4px" whiteSpace="nowrap">
              <Link to={l.to}>{t(l.labelKey)}</Link>
            </ChakraLink>
          ))}
        </Stack>
        <HStack gap="1" aria-label={t('footer.socialLabel')} role="group">
          {SOCIAL_LINKS.map(({ href, labelKey, Icon }) => (
            <IconButton key={href} asChild variant="ghost" color="white" _hover={{ bg: 'whiteAlpha.200' }} size="sm" aria-label={t(labelKey)}>
              <a href={href} target="_blank" rel="noopener noreferrer">
                <Icon />
              </a>
            </IconButton>
          ))}
        </HStack>
      </Flex>
      <Box borderTopWidth="1px" borderColor="whiteAlpha.300">
        {/* The page's last line: kept clear of the floating chat button at its inline end. */}
        <Text maxW="7xl" mx="auto" ps={{ base: '4', lg: '6' }} pe={CHAT_CLEARANCE} py="4" fontSize="sm" color="whiteAlpha.800" data-testid="copyright">
          {t('footer.copyright', { year })}
        </Text>
      </Box>
    </Box>
  );
}
