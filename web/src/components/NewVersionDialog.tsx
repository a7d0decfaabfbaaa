import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ModalNotice } from './ModalNotice';

/** Spec 01 section 2: a new version is out; "update" reloads the page. "Later" lets a user finish a form first. */
export function NewVersionDialog({ newVersion }: { newVersion: string | null }) {
  const { t } = useTranslation('shell');
  const [postponed, setPostponed] = useState<string | null>(null);
  return (
    <ModalNotice
      open={!!newVersion && postponed !== newVersion}
      testId="new-version-dialog"
      title={t('newVersion.title')}
      message={t('newVersion.message')}
      onDismiss={() => setPostponed(newVersion)}
      actions={[
        { label: t('newVersion.later'), onClick: () => setPostponed(newVersion) },
        { label: t('newVersion.update'), onClick: () => window.location.reload(), primary: true },
      ]}
    />
  );
}
