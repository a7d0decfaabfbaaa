import { Portal, Stack, Toast, Toaster as ChakraToaster, createToaster } from '@chakra-ui/react';

/** The portal's one toaster; put <Toaster /> once in the shell (AppShell does) and call `notify.*` anywhere. */
export const toaster = createToaster({ placement: 'top-end', pauseOnPageIdle: true, max: 5 });

type Message = string | string[];
const describe = (m: Message) => (Array.isArray(m) ? m.join('\n') : m);

/** Short confirmations and non-blocking errors (blocking ones use ErrorScreen or a dialog). */
export const notify = {
  success: (message: Message, title?: string) => toaster.success({ title, description: describe(message), closable: true }),
  error: (message: Message, title?: string) => toaster.error({ title, description: describe(message), closable: true, duration: 8000 }),
  info: (message: Message, title?: string) => toaster.info({ title, description: describe(message), closable: true }),
  warning: (message: Message, title?: string) => toaster.warning({ title, description: describe(message), closable: true }),
};

export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }} data-testid="toast">
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description whiteSpace="pre-line">{toast.description}</Toast.Description>}
            </Stack>
            {toast.closable && <Toast.CloseTrigger />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
