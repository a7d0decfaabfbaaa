import { Box, Button, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer } from '../../components/PageHeader';
import { useSession } from '../../session/use-session';
import { landingPath, LOGIN_PATH } from '../../session/access';
import { useEffect } from 'react';

const SERVICES = [
  { to: '/hs-code', key: 'hsCodes' },
  { to: '/accredited-cb', key: 'accreditedCb' },
  { to: '/user-manual', key: 'userManual' },
  { to: '/contact-us', key: 'contact' },
] as const;

/**
 * The landing page (route `home`). The public site issue fills it with managed content; until then it states what
 * the portal is for and leads to the public services and to sign-in.
 */
export function HomePage() {
  const { t } = useTranslation('shell');
  const session = useSession();
  useEffect(() => {
    document.title = t('appName');
  }, [t]);
  return (
    <>
      <Box bgGradient="to-b" gradientFrom="brand.800" gradientTo="brand.600" color="white">
        <PageContainer>
          <Stack gap="5" maxW="3xl" py={{ base: '4', lg: '10' }}>
            <Heading as="h1" size={{ base: '2xl', lg: '4xl' }} data-testid="page-title">
              {t('home.title')}
            </Heading>
            <Text fontSize={{ base: 'md', lg: 'lg' }} color="whiteAlpha.900">
              {t('home.lead')}
            </Text>
            <Flex gap="3" wrap="wrap">
              {session?.authenticated ? (
                <Button asChild bg="white" color="brand.800" _hover={{ bg: 'whiteAlpha.900' }}>
                  <Link to={landingPath(session)}>{t('home.openWorkspace')}</Link>
                </Button>
              ) : (
                <Button asChild bg="white" color="brand.800" _hover={{ bg: 'whiteAlpha.900' }}>
                  <Link to={LOGIN_PATH}>{t('header.signIn')}</Link>
                </Button>
              )}
              <Button asChild variant="outline" color="white" borderColor="whiteAlpha.700" _hover={{ bg: 'whiteAlpha.200' }}>
                <Link to="/about-center">{t('home.about')}</Link>
              </Button>
            </Flex>
          </Stack>
        </PageContainer>
      </Box>
      <PageContainer>
        <Heading as="h2" size="xl" mb="6">
          {t('home.servicesTitle')}
        </Heading>
        <SimpleGrid columns={{ base: 1, md: 2, lg: 4 }} gap="4">
          {SERVICES.map((s) => (
            <Link key={s.to} to={s.to}>
              <Box borderWidth="1px" borderRadius="lg" bg="bg" p="5" h="full" _hover={{ borderColor: 'brand.solid', boxShadow: 'sm' }}>
                <Heading as="h3" size="md" color="brand.fg">
                  {t(`home.services.${s.key}.title`)}
                </Heading>
                <Text mt="2" color="fg.muted" fontSize="sm">
                  {t(`home.services.${s.key}.text`)}
                </Text>
              </Box>
            </Link>
          ))}
        </SimpleGrid>
      </PageContainer>
    </>
  );
}
