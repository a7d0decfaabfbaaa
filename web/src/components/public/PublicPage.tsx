import { useEffect, useState } from 'react';
import { Box, Button, Skeleton, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Permissions } from '../../../../machines/permissions';
import { api } from '../../api/client';
import { apiQuery, useApi } from '../../api/query';
import type { paths } from '../../api/schema.gen';
import { useCan } from '../../session/use-session';
import { PageContainer, PageHeader, type Crumb } from '../PageHeader';
import { notify } from '../toaster';
import { ContentText } from './ContentText';
import { EditDialog, type EditField } from './EditDialog';
import { useLocalized } from './localized';
import type { ContentPageData } from './public-api';

type PageKey = paths['/api/public/pages/{key}']['get']['parameters']['path']['key'];

/** Keeps <meta name="description"> on the page's summary (the server sends it too, for the first load). */
export function useMetaDescription(description: string | undefined) {
  useEffect(() => {
    if (!description) return;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.appendChild(meta);
    }
    meta.content = description;
  }, [description]);
}

export interface PublicPageProps {
  /** content_pages key (server/modules/public/page-meta.ts). */
  /** A managed page of the public site (the server's list of page keys). */
  pageKey: PageKey;
  /** Label of the page while its content loads, and in the breadcrumb. */
  fallbackTitle: string;
  /** Show the page's editable text above `children` (default true). */
  showBody?: boolean;
  /** Crumbs between Home and this page. */
  parents?: Crumb[];
  /** Extra buttons beside the title (administrators' add buttons). */
  actions?: React.ReactNode;
  children?: React.ReactNode;
}

/**
 * The frame of every public page: title and summary from the managed content (in the UI language), breadcrumbs,
 * the page text, and for administrators an "edit this page" dialog that saves both languages at once.
 */
export function PublicPage({ pageKey, fallbackTitle, showBody = true, parents = [], actions, children }: PublicPageProps) {
  const { t } = useTranslation('public');
  const l = useLocalized();
  const canEdit = useCan(Permissions.admin.manage);
  const content = useApi(apiQuery('/api/public/pages/{key}', { params: { path: { key: pageKey } } }));
  const page: ContentPageData | undefined = content.data;
  const [editing, setEditing] = useState(false);
  const title = page ? l(page.titleAr, page.titleEn) : fallbackTitle;
  const summary = page ? l(page.summaryAr, page.summaryEn) : undefined;
  // isLoading: no answer yet (a refetch after an edit keeps the page drawn).
  const waiting = content.isLoading;
  useMetaDescription(summary);

  const fields: EditField[] = [
    { name: 'titleAr', label: t('edit.titleAr'), dir: 'rtl', required: true, maxLength: 200 },
    { name: 'titleEn', label: t('edit.titleEn'), dir: 'ltr', required: true, maxLength: 200 },
    { name: 'summaryAr', label: t('edit.summaryAr'), dir: 'rtl', required: true, maxLength: 500, rows: 2 },
    { name: 'summaryEn', label: t('edit.summaryEn'), dir: 'ltr', required: true, maxLength: 500, rows: 2 },
    { name: 'bodyAr', label: t('edit.bodyAr'), dir: 'rtl', rows: 10, helper: t('edit.bodyHelp') },
    { name: 'bodyEn', label: t('edit.bodyEn'), dir: 'ltr', rows: 10, helper: t('edit.bodyHelp') },
  ];

  const save = async (values: Record<string, string>) => {
    await api.PUT('/api/public/pages/{key}', { params: { path: { key: pageKey } }, body: { ...values, version: page!.version } as never }); // the dialog's fields are the body's
    setEditing(false);
    notify.success(t('edit.saved'));
    await content.refetch();
  };

  return (
    <PageContainer>
      <PageHeader
        title={title}
        description={summary}
        breadcrumbs={[{ label: t('nav.home'), to: '/home' }, ...parents, { label: title }]}
        actions={
          <>
            {actions}
            {canEdit && page && (
              <Button variant="outline" colorPalette="brand" size="sm" onClick={() => setEditing(true)} data-testid="edit-page">
                {t('edit.editPage')}
              </Button>
            )}
          </>
        }
      />
      {waiting ? (
        // Until the page's text is here the rest waits too (mounted, so its own calls run meanwhile): the summary
        // it brings lands above the content, and drawing the content first made all of it jump (CLS 0.15 on
        // /hs-code).
        <Stack gap="3" maxW="4xl">
          <Skeleton height="4" />
          <Skeleton height="4" />
          <Skeleton height="4" width="60%" />
        </Stack>
      ) : (
        showBody && page && l(page.bodyAr, page.bodyEn).trim() && (
          <Box mb="8">
            <ContentText text={l(page.bodyAr, page.bodyEn)} />
          </Box>
        )
      )}
      <Box display={waiting ? 'none' : undefined}>{children}</Box>
      {page && (
        <EditDialog
          open={editing}
          title={t('edit.dialogTitle', { title })}
          fields={fields}
          initial={{
            titleAr: page.titleAr,
            titleEn: page.titleEn,
            summaryAr: page.summaryAr,
            summaryEn: page.summaryEn,
            bodyAr: page.bodyAr,
            bodyEn: page.bodyEn,
          }}
          onSave={save}
          onClose={() => setEditing(false)}
          testId="edit-page-dialog"
        />
      )}
    </PageContainer>
  );
}
