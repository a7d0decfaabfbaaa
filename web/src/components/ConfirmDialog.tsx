import { useEffect, useId, useState } from 'react';
import { Button, Dialog, Field, Portal, Text, Textarea } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: React.ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** 'danger' paints the confirm button red (delete, reject, sign out). */
  tone?: 'danger' | 'primary';
  /** Also ask for a reason (e.g. a committee decision); `required` keeps confirm disabled while it is empty. */
  reason?: { label: string; required?: boolean; maxLength?: number };
  /** May return a promise: the dialog shows progress and stays open if it rejects. */
  onConfirm: (reason: string) => void | Promise<void>;
  onCancel: () => void;
  /** data-testid of the dialog content, for E2E tests. */
  testId?: string;
}

/** A question with cancel and confirm (alertdialog); the base of every confirmation in the portal. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, message, confirmLabel, cancelLabel, tone = 'primary', reason, onConfirm, onCancel, testId } = props;
  const { t } = useTranslation('common');
  const [pending, setPending] = useState(false);
  const [text, setText] = useState('');
  const reasonId = useId();

  useEffect(() => {
    if (open) setText('');
  }, [open]);

  const missingReason = !!reason?.required && text.trim() === '';
  const confirm = async () => {
    if (missingReason) return;
    setPending(true);
    try {
      await onConfirm(text.trim());
    } catch {
      // The api client already showed what went wrong; keep the dialog open to retry.
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      onOpenChange={(e) => {
        if (!e.open && !pending) onCancel();
      }}
      placement="center"
      closeOnInteractOutside={false}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {typeof message === 'string' ? <Text>{message}</Text> : message}
              {reason && (
                <Field.Root required={reason.required} invalid={false} mt="4">
                  <Field.Label htmlFor={reasonId}>
                    {reason.label}
                    {reason.required && <Field.RequiredIndicator />}
                  </Field.Label>
                  <Textarea id={reasonId} value={text} maxLength={reason.maxLength} onChange={(e) => setText(e.target.value)} />
                </Field.Root>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onCancel} disabled={pending}>
                {cancelLabel ?? t('actions.cancel')}
              </Button>
              <Button
                colorPalette={tone === 'danger' ? 'red' : 'brand'}
                onClick={() => void confirm()}
                loading={pending}
                disabled={missingReason}
              >
                {confirmLabel ?? t('actions.confirm')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
