import { useState } from 'react';
import { Button, Flex, SimpleGrid, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Permissions } from '../../../../machines/permissions';
import { apiQuery, useApi } from '../../api/query';
import { pageCount } from '../../components/DataTable';
import { NewsCard } from '../../components/public/NewsCard';
import { NewsEditor } from '../../components/public/NewsEditor';
import { PublicPage } from '../../components/public/PublicPage';
import { useCan } from '../../session/use-session';

const PAGE_SIZE = 6;

/** The media center: news items with images, newest first, six per page; administrators add items here. */
export function MediaCenterPage() {
  const { t } = useTranslation('public');
  const { t: tc } = useTranslation('common');
  const canEdit = useCan(Permissions.admin.manage);
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const { data, isFetching: loading, refetch: reload } = useApi(apiQuery('/api/public/news', { params: { query: { pageNumber: page, pageSize: PAGE_SIZE } } }));
  const pages = pageCount(data?.totalCount ?? 0, PAGE_SIZE);

  return (
    <PublicPage
      pageKey="media-center"
      fallbackTitle={t('nav.mediaCenter')}
      actions={
        canEdit && (
          <Button colorPalette="brand" size="sm" onClick={() => setAdding(true)} data-testid="news-add">
            {t('news.add')}
          </Button>
        )
      }
    >
      {!loading && data?.items.length === 0 && <Text color="fg.muted">{t('news.empty')}</Text>}
      <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="5" data-testid="news-list">
        {(data?.items ?? []).map((n) => (
          <NewsCard key={n.id} item={n} />
        ))}
      </SimpleGrid>
      {pages > 1 && (
        <Flex as="nav" aria-label={t('nav.mediaCenter')} justify="center" align="center" gap="3" mt="8">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)} data-testid="news-previous">
            {tc('paging.previous')}
          </Button>
          <Text fontSize="sm" data-testid="news-page">
            {tc('paging.pageOf', { page, pages })}
          </Text>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage((p) => p + 1)} data-testid="news-next">
            {tc('paging.next')}
          </Button>
        </Flex>
      )}
      <NewsEditor
        open={adding}
        item={null}
        onClose={() => setAdding(false)}
        onSaved={() => {
          setAdding(false);
          setPage(1);
          void reload();
        }}
      />
    </PublicPage>
  );
}
