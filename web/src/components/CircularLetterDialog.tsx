import { useTranslation } from 'react-i18next';
import { CIRCULAR_LETTER_URL, type CircularLetterOffer } from '../session/use-circular-letter';
import { ModalNotice } from './ModalNotice';
import { DownloadIcon } from './icons';

/** Spec 01 section 1: signed-in users who are not Halal-center staff are offered the circular letter once. */
export function CircularLetterDialog({ offer }: { offer: CircularLetterOffer }) {
  const { t } = useTranslation('shell');
  return (
    <ModalNotice
      open={offer.offered}
      testId="circular-letter-dialog"
      icon={<DownloadIcon color="brand.fg" boxSize="6" />}
      title={t('circular.title')}
      message={t('circular.message')}
      onDismiss={offer.dismiss}
      actions={[
        { label: t('circular.later'), onClick: offer.dismiss },
        { label: t('circular.download'), onClick: offer.downloaded, primary: true, href: CIRCULAR_LETTER_URL, download: true },
      ]}
    />
  );
}
