import { useEffect, useState } from 'react';
import { AspectRatio, Box, Button, Image, Link as ChakraLink, Text } from '@chakra-ui/react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Permissions } from '../../../../machines/permissions';
import { api, data } from '../../api/client';
import { apiQuery, useApi } from '../../api/query';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { PageContainer, PageHeader } from '../../components/PageHeader';
import { notify } from '../../components/toaster';
import { ContentText } from '../../components/public/ContentText';
import { NewsEditor } from '../../components/public/NewsEditor';
import { useMetaDescription } from '../../components/public/PublicPage';
import { useLocalized } from '../../components/public/localized';
import { useRouteParams } from '../../route-params';
import { useCan } from '../../session/use-session';
import { formatDate } from '../../lib/dates';

/** One news item (media-center/$newsId); administrators edit or delete it here. */
export function NewsItemPage() {
  const { t, i18n } = useTranslation('public');
  const l = useLocalized();
  const navigate = useNavigate();
  const { newsId } = useRouteParams('media-center/$newsId');
  const canEdit = useCan(Permissions.admin.manage);
  const { data: item, refetch: reload } = useApi(apiQuery('/api/public/news/{id}', { params: { path: { id: newsId } } }));
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const title = item ? l(item.titleAr, item.titleEn) : '';
  useMetaDescription(item ? l(item.summaryAr, item.summaryEn) : undefined);
  // Braces matter: newer Chromium returns a Promise from scrollTo, which React would take for a clean-up.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [newsId]);

  if (!item) return <PageContainer>{null}</PageContainer>;
  return (
    <PageContainer>
      <PageHeader
        title={title}
        description={
          <Text mt="2" color="fg.muted">
            {t('news.publishedOn', { date: formatDate(item.publishedAt, i18n.language, 'long') })}
          </Text>
        }
        breadcrumbs={[{ label: t('nav.home'), to: '/home' }, { label: t('nav.mediaCenter'), to: '/media-center' }, { label: title }]}
        actions={
          canEdit && (
            <>
              <Button variant="outline" colorPalette="brand" size="sm" onClick={() => setEditing(true)} data-testid="news-edit">
                {t('news.edit')}
              </Button>
              <Button variant="outline" colorPalette="red" size="sm" onClick={() => setDeleting(true)} data-testid="news-delete">
                {t('news.delete')}
              </Button>
            </>
          )
        }
      />
      <Box maxW="4xl">
        {item.imageUrl && (
          <AspectRatio ratio={16 / 9} mb="6" borderRadius="lg" overflow="hidden">
            <Image src={item.imageUrl} alt={l(item.imageAltAr, item.imageAltEn)} objectFit="cover" />
          </AspectRatio>
        )}
        <Text fontSize="lg" fontWeight="semibold" mb="4">
          {l(item.summaryAr, item.summaryEn)}
        </Text>
        <ContentText text={l(item.bodyAr, item.bodyEn)} />
        <ChakraLink asChild color="brand.fg" fontWeight="semibold" mt="8" display="inline-block">
          <Link to="/media-center">{t('news.back')}</Link>
        </ChakraLink>
      </Box>
      <NewsEditor
        open={editing}
        item={item}
        onClose={() => setEditing(false)}
        onSaved={() => {
          setEditing(false);
          void reload();
        }}
      />
      <ConfirmDialog
        open={deleting}
        tone="danger"
        title={t('news.delete')}
        message={t('news.deleteConfirm', { title })}
        onCancel={() => setDeleting(false)}
        onConfirm={async () => {
          await data(api.DELETE('/api/public/news/{id}', { params: { path: { id: item.id } } }));
          setDeleting(false);
          notify.success(t('edit.deleted'));
          await navigate({ to: '/media-center' });
        }}
      />
    </PageContainer>
  );
}
