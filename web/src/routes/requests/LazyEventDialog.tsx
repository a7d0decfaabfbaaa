import { Suspense, lazy, type ComponentProps } from 'react';
import { lazyPart } from '../../components/lazy-when-open';
import type { EventDialog as EventDialogType } from './EventDialog';

/**
 * The code of the action dialogs (every event's form, the dialog machinery, checkbox, steps, uploads: ~40 KB brotli
 * and their evaluation), fetched the first time an action is about to be used rather than with the request page:
 * the page is drawn without it. `preloadEventDialog` starts the fetch when the pointer or the focus reaches the
 * action bar; fetchLazyPartsLater fetches it too once the page has settled, so an action still opens when the
 * server has become unreachable or a new build has replaced this one's files.
 */
export const preloadEventDialog = lazyPart(() => import('./EventDialog'));
const Loaded = lazy(async () => ({ default: (await preloadEventDialog()).EventDialog }));

/** EventDialog, mounted (as before) only while an action is open; nothing is drawn until its code is in. */
export function EventDialog(props: ComponentProps<typeof EventDialogType>) {
  return (
    <Suspense fallback={null}>
      <Loaded {...props} />
    </Suspense>
  );
}
