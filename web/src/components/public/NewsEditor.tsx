import { useState } from 'react';
import { Checkbox, Input, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { api, data } from '../../api/client';
import { FormField } from '../form/FormField';
import { notify } from '../toaster';
import { EditDialog, type EditField } from './EditDialog';
import type { NewsItem } from './public-api';

const MAX_IMAGE_BYTES = 2 * 1024 * 1024;

function readAsBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** datetime-local wants "YYYY-MM-DDTHH:mm" in local time. */
function toLocalInput(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export interface NewsEditorProps {
  open: boolean;
  /** The item to edit, or null to add one. */
  item: NewsItem | null;
  onClose: () => void;
  onSaved: (item: NewsItem) => void;
}

/** Administrators' editor of a news item: both languages, publication date and the image (checked on the server). */
export function NewsEditor({ open, item, onClose, onSaved }: NewsEditorProps) {
  const { t } = useTranslation('public');
  const [file, setFile] = useState<File | null>(null);
  const [removeImage, setRemoveImage] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);

  const fields: EditField[] = [
    { name: 'titleAr', label: t('edit.titleAr'), dir: 'rtl', required: true, maxLength: 200 },
    { name: 'titleEn', label: t('edit.titleEn'), dir: 'ltr', required: true, maxLength: 200 },
    { name: 'summaryAr', label: t('edit.summaryAr'), dir: 'rtl', required: true, maxLength: 500, rows: 2 },
    { name: 'summaryEn', label: t('edit.summaryEn'), dir: 'ltr', required: true, maxLength: 500, rows: 2 },
    { name: 'bodyAr', label: t('edit.bodyAr'), dir: 'rtl', rows: 8, helper: t('edit.bodyHelp') },
    { name: 'bodyEn', label: t('edit.bodyEn'), dir: 'ltr', rows: 8, helper: t('edit.bodyHelp') },
    { name: 'imageAltAr', label: t('news.imageAltAr'), dir: 'rtl', maxLength: 300 },
    { name: 'imageAltEn', label: t('news.imageAltEn'), dir: 'ltr', maxLength: 300 },
    { name: 'publishedAt', label: t('news.publishedAt'), dir: 'ltr', type: 'datetime-local', required: true },
  ];

  const initial: Record<string, string> = item
    ? { ...Object.fromEntries(fields.map((f) => [f.name, String(item[f.name as keyof NewsItem] ?? '')])), publishedAt: toLocalInput(item.publishedAt) }
    : { publishedAt: toLocalInput(new Date().toISOString()) };

  const close = () => {
    setFile(null);
    setRemoveImage(false);
    setFileError(null);
    onClose();
  };

  const save = async (values: Record<string, string>) => {
    if (file && file.size > MAX_IMAGE_BYTES) {
      setFileError(t('errors:InvalidNewsImage'));
      throw new Error('image too large');
    }
    const body: Record<string, unknown> = { ...values, publishedAt: new Date(values.publishedAt).toISOString() };
    if (file) body.imageBase64 = await readAsBase64(file);
    else if (removeImage) body.imageBase64 = null;
    // The form's values are strings checked by the server's own schema (400 names the field); the body is sent as built.
    const saved: NewsItem = item
      ? await data(api.PUT('/api/public/news/{id}', { params: { path: { id: item.id } }, body: { ...body, version: item.version } as never }))
      : await data(api.POST('/api/public/news', { body: body as never }));
    notify.success(t('edit.saved'));
    setFile(null);
    setRemoveImage(false);
    onSaved(saved);
  };

  return (
    <EditDialog
      open={open}
      title={item ? t('news.edit') : t('news.add')}
      fields={fields}
      initial={initial}
      onSave={save}
      onClose={close}
      testId="news-editor"
      extra={
        <Stack gap="2">
          <FormField label={t('news.image')} error={fileError}>
            <Input
              type="file"
              accept="image/png,image/jpeg,image/webp"
              p="1"
              onChange={(e) => {
                setFileError(null);
                setFile(e.target.files?.[0] ?? null);
              }}
            />
          </FormField>
          {item?.imageUrl && !file && (
            <Checkbox.Root checked={removeImage} onCheckedChange={(e) => setRemoveImage(!!e.checked)}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label>
                <Text>{t('news.removeImage')}</Text>
              </Checkbox.Label>
            </Checkbox.Root>
          )}
        </Stack>
      }
    />
  );
}
