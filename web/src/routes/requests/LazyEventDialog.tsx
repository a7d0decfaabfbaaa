import { type ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPart, useLazyPart } from '../../components/lazy-when-open';
import { notify } from '../../components/toaster';
import type { EventDialog as EventDialogType } from './EventDialog';

/**
 * The code of the action dialogs (every event's form, the dialog machinery, checkbox, steps, uploads: ~40 KB brotli
 * and their evaluation), fetched the first time an action is about to be used rather than with the request page:
 * the page is drawn without it. `preloadEventDialog` starts the fetch when the pointer or the focus reaches the
 * action bar; fetchLazyPartsLater fetches it too once the page has settled, so an action still opens when the
 * server has become unreachable or a new build has replaced this one's files.
 */
export const preloadEventDialog = lazyPart(() => import('./EventDialog'));

/**
 * EventDialog, mounted (as before) only while an action is open; nothing is drawn until its code is in. Should the
 * code not load (offline before it was fetched), the action closes with the network message and the page stays;
 * the next click tries again.
 */
export function EventDialog(props: ComponentProps<typeof EventDialogType>) {
  const { t } = useTranslation('shell');
  const loaded = useLazyPart(preloadEventDialog, () => {
    notify.error(t('http.network'));
    props.onClose();
  });
  return loaded ? <loaded.EventDialog {...props} /> : null;
}
