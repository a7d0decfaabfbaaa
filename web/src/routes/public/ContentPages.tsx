import { Alert, Link as ChakraLink } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PublicPage } from '../../components/public/PublicPage';

/** About the center: managed text only. */
export function AboutCenterPage() {
  const { t } = useTranslation('public');
  return <PublicPage pageKey="about-center" fallbackTitle={t('nav.aboutCenter')} />;
}

/** Privacy policy: managed text only. */
export function PrivacyPage() {
  const { t } = useTranslation('public');
  return <PublicPage pageKey="privacy" fallbackTitle={t('nav.privacy')} />;
}

/** Contact us: the managed contact details, and a pointer to the FAQ and the assistant first. */
export function ContactUsPage() {
  const { t } = useTranslation('public');
  return (
    <PublicPage pageKey="contact-us" fallbackTitle={t('nav.contactUs')}>
      <Alert.Root status="info" maxW="4xl">
        <Alert.Indicator />
        <Alert.Description>
          {t('contact.faqHint')}{' '}
          <ChakraLink asChild fontWeight="semibold" textDecoration="underline">
            <Link to="/faq">{t('nav.faq')}</Link>
          </ChakraLink>
        </Alert.Description>
      </Alert.Root>
    </PublicPage>
  );
}
