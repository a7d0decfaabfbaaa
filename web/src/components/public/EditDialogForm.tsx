import { useEffect, useState } from 'react';
import { Button, CloseButton, Dialog, Input, Portal, Stack, Textarea } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../form/FormField';

export interface EditField {
  name: string;
  label: string;
  /** Multi-line text (Textarea) with this many rows. */
  rows?: number;
  /** Arabic fields are typed right-to-left, English ones left-to-right, whatever the UI language. */
  dir: 'rtl' | 'ltr';
  required?: boolean;
  maxLength?: number;
  type?: 'text' | 'number' | 'datetime-local';
  helper?: string;
}

export interface EditDialogProps {
  open: boolean;
  title: string;
  fields: EditField[];
  initial: Record<string, string>;
  /** Extra inputs below the fields (the news image). */
  extra?: React.ReactNode;
  /** Saves; a rejection keeps the dialog open (the api client has shown why). */
  onSave: (values: Record<string, string>) => Promise<void>;
  onClose: () => void;
  testId?: string;
}

/** The administrators' editor of bilingual public content: one labelled input per field, save and cancel. Loaded when first opened (EditDialog.tsx). */
export function EditDialogForm({ open, title, fields, initial, extra, onSave, onClose, testId }: EditDialogProps) {
  const { t } = useTranslation('common');
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [pending, setPending] = useState(false);
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (open) {
      setValues(initial);
      setTouched(false);
    }
    // Reset only when the dialog opens: `initial` is a fresh object on every render of the caller.
  }, [open]);

  const missing = (f: EditField) => !!f.required && !(values[f.name] ?? '').trim();
  const save = async () => {
    setTouched(true);
    if (fields.some(missing)) return;
    setPending(true);
    try {
      await onSave(values);
    } catch {
      // Shown by the api client; stay open so nothing typed is lost.
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && !pending && onClose()} size="lg" scrollBehavior="inside" closeOnInteractOutside={false}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                {fields.map((f) => (
                  <FormField key={f.name} label={f.label} required={f.required} helper={f.helper} error={touched && missing(f) ? { key: 'required' } : null}>
                    {f.rows ? (
                      <Textarea
                        name={f.name}
                        dir={f.dir}
                        rows={f.rows}
                        maxLength={f.maxLength}
                        value={values[f.name] ?? ''}
                        onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
                      />
                    ) : (
                      <Input
                        name={f.name}
                        dir={f.dir}
                        type={f.type ?? 'text'}
                        maxLength={f.maxLength}
                        value={values[f.name] ?? ''}
                        onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
                      />
                    )}
                  </FormField>
                ))}
                {extra}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={pending}>
                {t('actions.cancel')}
              </Button>
              <Button colorPalette="brand" onClick={() => void save()} loading={pending} data-testid="edit-save">
                {t('actions.save')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('actions.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
