/**
 * What screens reuse from the shell. A screen lives in web/src/routes/<screen>/ and replaces its placeholder in
 * router.tsx. Calls go through `api` and `useApi(apiQuery(...))` (web/src/api/README.md), which show the loader and
 * the spec's error handling for you; the session is `useSession()` / `useCan(policy)` (web/src/session).
 */
export { PageHeader, PageContainer, type Crumb, type PageHeaderProps } from './PageHeader';
export { DataTable, pageCount, usePaging, type Column, type Paging, type DataTableProps } from './DataTable';
export { FormField, type FormFieldProps } from './form/FormField';
export { fieldMessages, messageOfIssue, serverFieldMessages, type FieldMessage } from './form/validation-messages';
export { ConfirmDialog, type ConfirmDialogProps } from './ConfirmDialog';
export { ModalNotice, type ModalNoticeProps } from './ModalNotice';
export { notify, toaster } from './toaster';
export { ErrorScreen } from './ErrorScreen';
export { PlaceholderPage, placeholder } from './PlaceholderPage';
export { Logo } from './Logo';
export * from './icons';
