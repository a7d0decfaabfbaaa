import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useStore } from '../lib/create-store';
import { sessionExpiredNotice } from '../session/session-store';
import type { IdleState } from '../session/use-idle-timeout';
import { LOGIN_PATH, safeReturnUrl } from '../session/access';
import { ModalNotice } from './ModalNotice';
import { AlertIcon, ClockIcon } from './icons';

/** Spec 01 section 2: the session-expired modal, with "sign in again" or cancel. */
export function SessionExpiredDialog() {
  const { t } = useTranslation('shell');
  const notice = useStore(sessionExpiredNotice);
  const navigate = useNavigate();
  const close = () => sessionExpiredNotice.set(null);
  return (
    <ModalNotice
      open={!!notice}
      testId="session-expired-dialog"
      icon={<AlertIcon color="orange.500" boxSize="6" />}
      title={t('sessionExpired.title')}
      message={t('sessionExpired.message')}
      onDismiss={close}
      actions={[
        { label: t('sessionExpired.cancel'), onClick: close },
        {
          label: t('sessionExpired.signInAgain'),
          primary: true,
          onClick: () => {
            const returnUrl = safeReturnUrl(notice?.returnUrl);
            close();
            void navigate({ to: LOGIN_PATH, search: returnUrl ? { returnUrl } : {} });
          },
        },
      ]}
    />
  );
}

/** Spec 01 section 4: the idle warning that counts down before the user is signed out. */
export function IdleWarningDialog({ idle, onSignOut }: { idle: IdleState; onSignOut: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <ModalNotice
      open={idle.warning}
      testId="idle-warning-dialog"
      icon={<ClockIcon color="orange.500" boxSize="6" />}
      title={t('idle.title')}
      message={t('idle.message', { count: idle.secondsLeft })}
      actions={[
        { label: t('idle.signOutNow'), onClick: onSignOut },
        { label: t('idle.stay'), onClick: idle.stayActive, primary: true },
      ]}
    />
  );
}
