import { AspectRatio, Box, Card, Image, Link as ChakraLink, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useLocalized } from './localized';
import type { NewsItem } from './public-api';
import { formatDate } from '../../lib/dates';

/** A news item in a list: image, date, title (the link) and summary. */
export function NewsCard({ item, headingLevel = 'h2' }: { item: NewsItem; headingLevel?: 'h2' | 'h3' }) {
  const { t, i18n } = useTranslation('public');
  const l = useLocalized();
  const title = l(item.titleAr, item.titleEn);
  return (
    <Card.Root overflow="hidden" h="full" data-testid="news-card" position="relative" _hover={{ boxShadow: 'md' }}>
      {item.imageUrl ? (
        <AspectRatio ratio={16 / 9}>
          <Image src={item.imageUrl} alt={l(item.imageAltAr, item.imageAltEn)} objectFit="cover" loading="lazy" />
        </AspectRatio>
      ) : (
        <AspectRatio ratio={16 / 9}>
          <Box bg="brand.subtle" />
        </AspectRatio>
      )}
      <Card.Body gap="2">
        <Text fontSize="sm" color="fg.muted">
          <time dateTime={item.publishedAt}>{formatDate(item.publishedAt, i18n.language, 'long')}</time>
        </Text>
        <Card.Title as={headingLevel} fontSize="lg">
          {/* The title link covers the card, so the whole card opens the item with one link in the tab order. */}
          <ChakraLink asChild color="fg" _after={{ content: '""', position: 'absolute', inset: 0 }}>
            <Link to="/media-center/$newsId" params={{ newsId: item.id }} aria-label={t('news.readMore', { title })}>
              {title}
            </Link>
          </ChakraLink>
        </Card.Title>
        <Card.Description>{l(item.summaryAr, item.summaryEn)}</Card.Description>
      </Card.Body>
    </Card.Root>
  );
}
