import { useState } from 'react';
import { Accordion, Button, HStack, Span, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Permissions } from '../../../../machines/permissions';
import { api, data as answer } from '../../api/client';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { notify } from '../../components/toaster';
import { EditDialog, type EditField } from '../../components/public/EditDialog';
import { PublicPage } from '../../components/public/PublicPage';
import { useLocalized } from '../../components/public/localized';
import { useCan } from '../../session/use-session';

type FaqItem = ApiResponse<'/api/public/faq'>['items'][number];

/** Frequently asked questions (also what the assistant answers from); administrators add, edit and delete them. */
export function FaqPage() {
  const { t } = useTranslation('public');
  const l = useLocalized();
  const canEdit = useCan(Permissions.admin.manage);
  const { data, refetch: reload } = useApi(apiQuery('/api/public/faq'));
  const [editing, setEditing] = useState<FaqItem | 'new' | null>(null);
  const [deleting, setDeleting] = useState<FaqItem | null>(null);

  const fields: EditField[] = [
    { name: 'questionAr', label: t('faq.questionAr'), dir: 'rtl', required: true, maxLength: 300 },
    { name: 'questionEn', label: t('faq.questionEn'), dir: 'ltr', required: true, maxLength: 300 },
    { name: 'answerAr', label: t('faq.answerAr'), dir: 'rtl', required: true, maxLength: 3000, rows: 4 },
    { name: 'answerEn', label: t('faq.answerEn'), dir: 'ltr', required: true, maxLength: 3000, rows: 4 },
    { name: 'keywordsAr', label: t('faq.keywordsAr'), dir: 'rtl', maxLength: 500 },
    { name: 'keywordsEn', label: t('faq.keywordsEn'), dir: 'ltr', maxLength: 500 },
    { name: 'sortOrder', label: t('faq.sortOrder'), dir: 'ltr', type: 'number' },
  ];
  const current = editing && editing !== 'new' ? editing : null;
  const initial: Record<string, string> = current
    ? Object.fromEntries(fields.map((f) => [f.name, String(current[f.name as keyof FaqItem] ?? '')]))
    : { sortOrder: String(((data?.items.at(-1)?.sortOrder ?? 0) as number) + 10) };

  const save = async (values: Record<string, string>) => {
    const { questionAr, questionEn, answerAr, answerEn, keywordsAr, keywordsEn } = values;
    const body = { questionAr, questionEn, answerAr, answerEn, keywordsAr, keywordsEn, sortOrder: Number(values.sortOrder) || 0 };
    if (current) await answer(api.PUT('/api/public/faq/{id}', { params: { path: { id: current.id } }, body: { ...body, version: current.version } }));
    else await answer(api.POST('/api/public/faq', { body }));
    setEditing(null);
    notify.success(t('edit.saved'));
    await reload();
  };

  return (
    <PublicPage
      pageKey="faq"
      fallbackTitle={t('nav.faq')}
      actions={
        canEdit && (
          <Button colorPalette="brand" size="sm" onClick={() => setEditing('new')} data-testid="faq-add">
            {t('faq.add')}
          </Button>
        )
      }
    >
      <Accordion.Root collapsible multiple maxW="4xl" variant="enclosed" bg="bg" data-testid="faq-list">
        {(data?.items ?? []).map((f) => (
          <Accordion.Item key={f.id} value={f.id}>
            <h2>
              <Accordion.ItemTrigger>
                <Span flex="1" fontWeight="semibold">
                  {l(f.questionAr, f.questionEn)}
                </Span>
                <Accordion.ItemIndicator />
              </Accordion.ItemTrigger>
            </h2>
            <Accordion.ItemContent>
              <Accordion.ItemBody>
                <Text lineHeight="tall">{l(f.answerAr, f.answerEn)}</Text>
                {canEdit && (
                  <HStack mt="3" gap="2">
                    <Button size="xs" variant="outline" onClick={() => setEditing(f)}>
                      {t('faq.edit')}
                    </Button>
                    <Button size="xs" variant="outline" colorPalette="red" onClick={() => setDeleting(f)}>
                      {t('faq.delete')}
                    </Button>
                  </HStack>
                )}
              </Accordion.ItemBody>
            </Accordion.ItemContent>
          </Accordion.Item>
        ))}
      </Accordion.Root>
      <EditDialog
        open={editing !== null}
        title={current ? t('faq.edit') : t('faq.add')}
        fields={fields}
        initial={initial}
        onSave={save}
        onClose={() => setEditing(null)}
        testId="faq-editor"
      />
      <ConfirmDialog
        open={deleting !== null}
        tone="danger"
        title={t('faq.delete')}
        message={t('faq.deleteConfirm', { question: deleting ? l(deleting.questionAr, deleting.questionEn) : '' })}
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          await answer(api.DELETE('/api/public/faq/{id}', { params: { path: { id: deleting!.id } } }));
          setDeleting(null);
          notify.success(t('edit.deleted'));
          await reload();
        }}
      />
    </PublicPage>
  );
}
