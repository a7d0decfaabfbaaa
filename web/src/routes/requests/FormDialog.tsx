import { useState } from 'react';
import { Button, Dialog, Portal } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export interface FormDialogProps {
  title: string;
  children: React.ReactNode;
  submitLabel: string;
  /** Rejects to keep the dialog open (the api client already showed the error). */
  onSubmit: () => Promise<void>;
  onClose: () => void;
  submitDisabled?: boolean;
  /** Extra buttons before submit (wizard back / next). */
  extraButtons?: React.ReactNode;
  size?: 'md' | 'lg' | 'xl' | 'full';
  tone?: 'danger' | 'primary';
  testId?: string;
}

/** A dialog holding an event's form: cancel, optional wizard buttons, and the submit that sends the event. */
export function FormDialog(props: FormDialogProps) {
  const { title, children, submitLabel, onSubmit, onClose, submitDisabled, extraButtons, size = 'lg', tone = 'primary', testId } = props;
  const { t } = useTranslation('common');
  const [pending, setPending] = useState(false);
  const submit = async () => {
    setPending(true);
    try {
      await onSubmit();
    } catch {
      // shown by the api client or next to the fields; the dialog stays open
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog.Root open onOpenChange={(e) => !e.open && !pending && onClose()} size={size} placement="center" closeOnInteractOutside={false} scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId ?? 'event-dialog'}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={pending} data-testid="dialog-cancel">
                {t('actions.cancel')}
              </Button>
              {extraButtons}
              <Button
                colorPalette={tone === 'danger' ? 'red' : 'brand'}
                onClick={() => void submit()}
                loading={pending}
                disabled={submitDisabled}
                data-testid="dialog-submit"
              >
                {submitLabel}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
