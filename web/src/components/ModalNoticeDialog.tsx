import { Button, Dialog, Flex, Portal, Text } from '@chakra-ui/react';

export interface ModalNoticeProps {
  open: boolean;
  title: string;
  message: React.ReactNode;
  icon?: React.ReactNode;
  /** Buttons, primary last. */
  actions: { label: string; onClick: () => void; primary?: boolean; href?: string; download?: boolean }[];
  /** Escape / outside click; omit to make the modal wait for a button. */
  onDismiss?: () => void;
  testId?: string;
}

/** (Loaded when first opened: ModalNotice.tsx.) A shell modal that waits for an answer (session expired, idle warning, new version, circular letter). */
export function ModalNoticeDialog({ open, title, message, icon, actions, onDismiss, testId }: ModalNoticeProps) {
  return (
    <Dialog.Root
      role="alertdialog"
      open={open}
      placement="center"
      closeOnInteractOutside={false}
      closeOnEscape={!!onDismiss}
      onOpenChange={(e) => {
        if (!e.open) onDismiss?.();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>
            <Dialog.Header>
              <Flex align="center" gap="3">
                {icon}
                <Dialog.Title>{title}</Dialog.Title>
              </Flex>
            </Dialog.Header>
            <Dialog.Body>{typeof message === 'string' ? <Text>{message}</Text> : message}</Dialog.Body>
            <Dialog.Footer>
              {actions.map((a) =>
                a.href ? (
                  <Button key={a.label} asChild colorPalette="brand" variant={a.primary ? 'solid' : 'outline'}>
                    <a href={a.href} download={a.download || undefined} onClick={a.onClick}>
                      {a.label}
                    </a>
                  </Button>
                ) : (
                  <Button key={a.label} colorPalette="brand" variant={a.primary ? 'solid' : 'outline'} onClick={a.onClick}>
                    {a.label}
                  </Button>
                ),
              )}
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
