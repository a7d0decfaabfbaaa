import { lazyWhenOpen } from '../lazy-when-open';
import type { EditDialogProps } from './EditDialogForm';

export type { EditDialogProps, EditField } from './EditDialogForm';

/** The administrators' editor of public content; its dialog code loads when first opened, not with each public page. */
export const EditDialog = lazyWhenOpen<EditDialogProps>(() => import('./EditDialogForm').then((m) => m.EditDialogForm));
