import { Box, Button, Card, Flex, Heading, List, Stack, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer, PageHeader } from '../../components';

type Topic = 'account' | 'saas' | 'openiddict';

/** Where the portal's own way lives, one link per point (null: nothing to open). */
const LINKS: Record<Topic, Record<string, string | null>> = {
  account: { signIn: null, register: null, profile: '/personal-profile/personal-data' },
  saas: { oneTenant: null, identity: '/identity', settings: '/setting-management' },
  openiddict: { noServer: null, session: null, integrations: null },
};

/**
 * account, saas and openiddict (spec 01 section 2 names them after the framework the old portal was built on): the
 * portal has none of these modules, so each route says plainly what it uses instead.
 */
export function InsteadPage({ topic }: { topic: Topic }) {
  const { t } = useTranslation(['admin', 'shell']);
  const title = t(`shell:screens.${topic}`);
  return (
    <PageContainer>
      <PageHeader title={title} breadcrumbs={[{ label: t('shell:menu.home'), to: '/home' }, { label: title }]} />
      <Card.Root data-testid="instead-page" data-topic={topic}>
        <Card.Body>
          <Stack gap="4">
            <Heading as="h2" size="md">
              {t('admin:instead.title')}
            </Heading>
            <Text>{t(`admin:instead.${topic}.body`)}</Text>
            <List.Root gap="2" ps="5">
              {Object.entries(LINKS[topic]).map(([point, to]) => (
                <List.Item key={point}>
                  <Flex gap="3" align="center" wrap="wrap">
                    <Box>{t(`admin:instead.${topic}.points.${point}`)}</Box>
                    {to && (
                      <Button asChild size="xs" variant="outline" colorPalette="brand">
                        <Link to={to}>{t('admin:instead.open')}</Link>
                      </Button>
                    )}
                  </Flex>
                </List.Item>
              ))}
            </List.Root>
          </Stack>
        </Card.Body>
      </Card.Root>
    </PageContainer>
  );
}
