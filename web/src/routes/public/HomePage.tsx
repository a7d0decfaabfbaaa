import { Box, Button, Card, Flex, Heading, Link as ChakraLink, SimpleGrid, Skeleton, SkeletonText, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { apiQuery, useApi } from '../../api/query';
import { PageContainer } from '../../components/PageHeader';
import { parseContent } from '../../components/public/ContentText';
import { NewsCard } from '../../components/public/NewsCard';
import { useMetaDescription } from '../../components/public/PublicPage';
import { VerifyForm } from '../../components/public/VerifyForm';
import { useLocalized } from '../../components/public/localized';
import { landingPath, LOGIN_PATH } from '../../session/access';
import { useSession } from '../../session/use-session';

const QUICK_LINKS = [
  { to: '/hs-code', key: 'hsCode' },
  { to: '/accredited-cb', key: 'accreditedCb' },
  { to: '/user-manual', key: 'userManual' },
  { to: '/faq', key: 'faq' },
] as const;

/** Services as the home page text lists them: each "## heading" with the paragraph under it. */
function servicesOf(text: string): { title: string; text: string }[] {
  const out: { title: string; text: string }[] = [];
  for (const block of parseContent(text)) {
    if (block.kind === 'heading') out.push({ title: block.text, text: '' });
    else if (block.kind === 'paragraph' && out.length) out[out.length - 1].text += (out[out.length - 1].text ? ' ' : '') + block.text;
  }
  return out;
}

/** The landing page (route `home`): managed headline and services, certificate verification, quick links, news. */
export function HomePage() {
  const { t } = useTranslation('public');
  const { t: ts } = useTranslation('shell');
  const l = useLocalized();
  const session = useSession();
  const { data: page } = useApi(apiQuery('/api/public/pages/{key}', { params: { path: { key: 'home' } } }));
  const { data: news } = useApi(apiQuery('/api/public/news', { params: { query: { pageSize: 3 } } }));
  const title = page ? l(page.titleAr, page.titleEn) : ts('home.title');
  const summary = page ? l(page.summaryAr, page.summaryEn) : undefined;
  useMetaDescription(summary);
  useEffect(() => {
    document.title = `${ts('appName')} | ${title}`;
  }, [title, ts]);
  const services = page ? servicesOf(l(page.bodyAr, page.bodyEn)) : [];

  return (
    <>
      <Box bgGradient="to-br" gradientFrom="brand.900" gradientTo="brand.700" color="white">
        <PageContainer>
          <Flex gap={{ base: '8', lg: '12' }} direction={{ base: 'column', lg: 'row' }} align={{ lg: 'center' }} py={{ base: '2', lg: '8' }}>
            <Stack gap="5" flex="1.3">
              <Heading as="h1" size={{ base: '2xl', lg: '4xl' }} lineHeight="shorter" data-testid="page-title">
                {title}
              </Heading>
              {summary ? (
                <Text fontSize={{ base: 'md', lg: 'lg' }} color="whiteAlpha.900">
                  {summary}
                </Text>
              ) : (
                // About the height of the summary on a phone, so the buttons and the card below do not jump (CLS).
                <SkeletonText noOfLines={3} />
              )}
              <Flex gap="3" wrap="wrap">
                <Button asChild bg="white" color="brand.800" _hover={{ bg: 'whiteAlpha.900' }}>
                  {session?.authenticated ? (
                    <Link to={landingPath(session)}>{ts('home.openWorkspace')}</Link>
                  ) : (
                    <Link to={LOGIN_PATH}>{t('home.signIn')}</Link>
                  )}
                </Button>
                <Button asChild variant="outline" color="white" borderColor="whiteAlpha.700" _hover={{ bg: 'whiteAlpha.200' }}>
                  <Link to="/about-center">{t('nav.aboutCenter')}</Link>
                </Button>
              </Flex>
            </Stack>
            <Card.Root flex="1" color="fg" data-testid="home-verify">
              <Card.Body gap="3">
                <Heading as="h2" size="lg">
                  {t('home.verifyTitle')}
                </Heading>
                <Text color="fg.muted" fontSize="sm">
                  {t('home.verifyText')}
                </Text>
                <VerifyForm />
              </Card.Body>
            </Card.Root>
          </Flex>
        </PageContainer>
      </Box>

      <PageContainer>
        <Stack gap="12">
          <Box as="section" aria-labelledby="home-services">
            <Heading as="h2" id="home-services" size="xl" mb="6">
              {t('home.servicesTitle')}
            </Heading>
            <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4" data-testid="home-services">
              {/* Placeholders while the page text loads, so the sections below are not pushed down when it arrives (CLS). */}
              {!page && [0, 1, 2].map((i) => <Skeleton key={i} height="32" borderRadius="lg" />)}
              {services.map((s) => (
                <Box key={s.title} borderWidth="1px" borderRadius="lg" bg="bg" p="5" borderTopWidth="4px" borderTopColor="brand.solid">
                  <Heading as="h3" size="md" color="brand.fg">
                    {s.title}
                  </Heading>
                  <Text mt="2" color="fg.muted" fontSize="sm">
                    {s.text}
                  </Text>
                </Box>
              ))}
            </SimpleGrid>
          </Box>

          <Box as="section" aria-labelledby="home-quick">
            <Heading as="h2" id="home-quick" size="xl" mb="6">
              {t('home.quickTitle')}
            </Heading>
            <SimpleGrid columns={{ base: 1, md: 2, lg: 4 }} gap="4">
              {QUICK_LINKS.map((q) => (
                <Box key={q.to} borderWidth="1px" borderRadius="lg" bg="bg" p="5" position="relative" _hover={{ borderColor: 'brand.solid', boxShadow: 'sm' }}>
                  <Heading as="h3" size="md">
                    <ChakraLink asChild color="brand.fg" _after={{ content: '""', position: 'absolute', inset: 0 }}>
                      <Link to={q.to}>{t(`nav.${q.key}`)}</Link>
                    </ChakraLink>
                  </Heading>
                  <Text mt="2" color="fg.muted" fontSize="sm">
                    {t(`home.quick.${q.key}`)}
                  </Text>
                </Box>
              ))}
            </SimpleGrid>
          </Box>

          <Box as="section" aria-labelledby="home-news">
            <Flex justify="space-between" align="center" mb="6" gap="4">
              <Heading as="h2" id="home-news" size="xl">
                {t('home.newsTitle')}
              </Heading>
              <ChakraLink asChild color="brand.fg" fontWeight="semibold">
                <Link to="/media-center">{t('home.allNews')}</Link>
              </ChakraLink>
            </Flex>
            <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
              {(news?.items ?? []).map((n) => (
                <NewsCard key={n.id} item={n} headingLevel="h3" />
              ))}
            </SimpleGrid>
          </Box>
        </Stack>
      </PageContainer>
    </>
  );
}
