import { Button, type ButtonProps } from '@chakra-ui/react';
import { useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { setLanguage, type Language } from '../i18n';
import { createOrUpdateUser } from '../api/halal-user';
import { sessionStore } from '../session/session-store';
import { GlobeIcon } from './icons';

/** Switches Arabic <-> English; shows the other language's own name, as bilingual portals do. */
export function LanguageToggle(props: ButtonProps) {
  const { t, i18n } = useTranslation('shell');
  const router = useRouter();
  const other: Language = i18n.language === 'ar' ? 'en' : 'ar';
  const toggle = async () => {
    await setLanguage(other);
    // The server keeps the language a signed-in user works in (messages it sends later, e.g. by SMS).
    if (sessionStore.get()?.authenticated) void createOrUpdateUser(other).catch(() => undefined);
    // A ?lang= in the address would switch back on reload; the choice is remembered without it.
    const url = new URL(window.location.href);
    if (url.searchParams.has('lang')) {
      url.searchParams.delete('lang');
      // The entry's state (a submission's notices) stays: they are shown in the new language.
      router.history.replace(url.pathname + url.search + url.hash, router.history.location.state);
    }
  };
  return (
    <Button
      variant="ghost"
      size="sm"
      lang={other}
      onClick={() => void toggle()}
      data-testid="language-toggle"
      title={t(`language.switch.${other}`)}
      {...props}
    >
      <GlobeIcon />
      {t(`language.name.${other}`)}
    </Button>
  );
}
