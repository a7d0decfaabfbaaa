import { lazyWhenOpen } from './lazy-when-open';
import type { ModalNoticeProps } from './ModalNoticeDialog';

export type { ModalNoticeProps } from './ModalNoticeDialog';

/** A shell modal that waits for an answer (session expired, idle warning, new version, circular letter). */
export const ModalNotice = lazyWhenOpen<ModalNoticeProps>(() => import('./ModalNoticeDialog').then((m) => m.ModalNoticeDialog));
