import { Box, Button, Flex, Heading, Text } from '@chakra-ui/react';
import { Link, useParams } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PageContainer, PageHeader } from './PageHeader';
import { ToolsIcon } from './icons';
import { markPlaceholder } from '../screens';

/**
 * The page a route shows until its screen is built in a later issue: it names the screen and says plainly that
 * the service is being prepared, in the user's language, so nobody mistakes it for a broken page.
 */
export function PlaceholderPage({ screen }: { screen: string }) {
  const { t } = useTranslation('shell');
  const params = useParams({ strict: false }) as Record<string, string | undefined>;
  const shown = Object.entries(params).filter(([k, v]) => k !== '_splat' && !!v);
  const name = t(`screens.${screen}`);
  return (
    <PageContainer>
      <PageHeader title={name} breadcrumbs={[{ label: t('menu.home'), to: '/home' }, { label: name }]} />
      <Flex
        direction="column"
        align="center"
        textAlign="center"
        gap="4"
        py="14"
        px="6"
        borderWidth="1px"
        borderStyle="dashed"
        borderColor="brand.emphasized"
        borderRadius="lg"
        bg="bg"
        data-testid="placeholder-page"
        data-screen={screen}
      >
        <Box color="brand.fg">
          <ToolsIcon boxSize="12" />
        </Box>
        <Heading as="h2" size="xl">
          {t('placeholder.title')}
        </Heading>
        <Text color="fg.muted" maxW="xl">
          {t('placeholder.description', { screen: name })}
        </Text>
        {shown.length > 0 && (
          <Text fontSize="sm" color="fg.subtle" dir="ltr">
            {shown.map(([k, v]) => `${k}: ${v}`).join(' · ')}
          </Text>
        )}
        <Button asChild colorPalette="brand" variant="outline" mt="2">
          <Link to="/">{t('errorScreen.home')}</Link>
        </Button>
      </Flex>
    </PageContainer>
  );
}

/** A route component for a screen that is not built yet (router.tsx: `component: placeholder('hsCode')`). */
export function placeholder(screen: string): () => React.JSX.Element {
  const Component = () => <PlaceholderPage screen={screen} />;
  Component.displayName = `Placeholder(${screen})`;
  markPlaceholder(Component);
  return Component;
}
