import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from './ConfirmDialog';

/** Spec 01 section 2: "Are you sure you are logging out of the system?" with cancel and sign out. */
export function SignOutDialog({ open, onCancel, onConfirm }: { open: boolean; onCancel: () => void; onConfirm: () => Promise<void> }) {
  const { t } = useTranslation('shell');
  return (
    <ConfirmDialog
      open={open}
      testId="sign-out-dialog"
      title={t('signOut.title')}
      message={t('signOut.question')}
      cancelLabel={t('signOut.cancel')}
      confirmLabel={t('signOut.confirm')}
      tone="danger"
      onCancel={onCancel}
      onConfirm={onConfirm}
    />
  );
}
