import { useEffect, useState } from 'react';
import { createToaster } from '@chakra-ui/react';
import { lazyPart, useLazyPart } from './lazy-when-open';

const loadToastList = lazyPart(() => import('./ToastList'));

/** The portal's one toaster; put <Toaster /> once (main.tsx does) and call `notify.*` anywhere. */
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

/**
 * Put <Toaster /> once (main.tsx does). The toast machinery loads with the first toast, not with every page: a
 * toast created meanwhile waits in the store and shows when the list mounts.
 */
export function Toaster() {
  const [used, setUsed] = useState(() => toaster.getVisibleToasts().length > 0);
  useEffect(() => (used ? undefined : toaster.subscribe(() => setUsed(true))), [used]);
  // A list whose code did not load is tried again with the next toast; the toasts wait in the store meanwhile.
  return used ? <ToastListWhenLoaded onFailed={() => setUsed(false)} /> : null;
}

function ToastListWhenLoaded({ onFailed }: { onFailed: () => void }) {
  const loaded = useLazyPart(loadToastList, onFailed);
  return loaded ? <loaded.ToastList /> : null;
}
