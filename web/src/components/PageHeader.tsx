import { Fragment, useEffect } from 'react';
import { Box, Breadcrumb, Flex, Heading, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Isolated } from './Bidi';
import { renderingTitle } from '../lib/page-title';

export interface Crumb {
  label: string;
  /** Omit on the current page (the last crumb). */
  to?: string;
}

export interface PageHeaderProps {
  title: string;
  description?: React.ReactNode;
  breadcrumbs?: Crumb[];
  /** Buttons at the end of the title row (e.g. "New request"). */
  actions?: React.ReactNode;
}

/** The title block of every screen: breadcrumbs, an h1, an optional description and actions. Sets the tab title. */
export function PageHeader({ title, description, breadcrumbs, actions }: PageHeaderProps) {
  const { t } = useTranslation('shell');
  const tabTitle = `${title} | ${t('appName')}`;
  renderingTitle(tabTitle);
  useEffect(() => {
    document.title = tabTitle;
  }, [tabTitle]);
  return (
    <Box mb="6">
      {breadcrumbs && breadcrumbs.length > 0 && (
        <Breadcrumb.Root mb="3" size="sm" aria-label={t('breadcrumbLabel')} data-testid="breadcrumbs">
          <Breadcrumb.List>
            {breadcrumbs.map((c, i) => (
              <Fragment key={`${c.label}-${i}`}>
                <Breadcrumb.Item>
                  {c.to && i < breadcrumbs.length - 1 ? (
                    <Breadcrumb.Link asChild>
                      <Link to={c.to}>
                        <Isolated text={c.label} />
                      </Link>
                    </Breadcrumb.Link>
                  ) : (
                    <Breadcrumb.CurrentLink>
                      <Isolated text={c.label} />
                    </Breadcrumb.CurrentLink>
                  )}
                </Breadcrumb.Item>
                {i < breadcrumbs.length - 1 && <Breadcrumb.Separator />}
              </Fragment>
            ))}
          </Breadcrumb.List>
        </Breadcrumb.Root>
      )}
      <Flex align={{ base: 'flex-start', md: 'center' }} justify="space-between" gap="4" direction={{ base: 'column', md: 'row' }}>
        <Box>
          <Heading as="h1" size="2xl" data-testid="page-title">
            <Isolated text={title} />
          </Heading>
          {description && (typeof description === 'string' ? <Text mt="2" color="fg.muted">{description}</Text> : description)}
        </Box>
        {actions && <Flex gap="2" wrap="wrap">{actions}</Flex>}
      </Flex>
    </Box>
  );
}

/** The page body container every screen sits in, so widths and margins match across screens. */
export function PageContainer({ children }: { children: React.ReactNode }) {
  return (
    <Box maxW="7xl" mx="auto" px={{ base: '4', lg: '6' }} py={{ base: '6', lg: '10' }}>
      {children}
    </Box>
  );
}
