import { createContext, useContext, useDeferredValue, useEffect, useLayoutEffect, useState } from 'react';
import { Flex, LocaleProvider, SkipNavContent, SkipNavLink } from '@chakra-ui/react';
import { Outlet, useNavigate, useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { directionOf } from '../i18n';
import { errorScreen } from '../api/problems';
import { createStore, useStore } from '../lib/create-store';
import { signOut } from '../session/session-store';
import { useSession } from '../session/use-session';
import { useIdleTimeout } from '../session/use-idle-timeout';
import { useNewVersion } from '../session/use-new-version';
import { useCircularLetter } from '../session/use-circular-letter';
import { Header } from './Header';
import { Footer } from './Footer';
import { ErrorScreen } from './ErrorScreen';
import { lazyWhenOpen } from './lazy-when-open';
import { IdleWarningDialog, SessionExpiredDialog } from './SessionDialogs';
import { NewVersionDialog } from './NewVersionDialog';
import { CircularLetterDialog } from './CircularLetterDialog';
import { ChatAssistant } from './chat/ChatAssistant';

const SignOutDialog = lazyWhenOpen(() => import('./SignOutDialog').then((m) => m.SignOutDialog));

/** Keeps <html lang dir> on the UI language (Arabic rtl, English ltr); used by the root route. */
export function useDocumentLanguage(): string {
  const { i18n } = useTranslation();
  useLayoutEffect(() => {
    document.documentElement.lang = i18n.language;
    document.documentElement.dir = directionOf(i18n.language);
  }, [i18n.language]);
  return i18n.language;
}

/** True once the shell has been committed to the page for the first time; the router's "ready" waits for it. */
export const shellShown = createStore(false);

/**
 * The root route's component. Its first render (header, page, footer: 0.5 s of one task on a phone-speed CPU, the
 * largest part of the Total Blocking Time) runs as a deferred render, which React splits into 5 ms slices that let
 * the browser handle input in between. Nothing was on the screen before it either: the root waits for the session.
 */
export function AppShell() {
  const atOnce = useContext(ShellAtOnce);
  const deferred = useDeferredValue(true, false);
  return atOnce || deferred ? <Shell /> : null;
}

/**
 * True on a page the server paints (prerender/render.tsx) and on the browser's hydration of it (main.tsx): the shell
 * renders at once, as the server painted it; deferred, the server's render and the hydration would both be empty.
 */
export const ShellAtOnce = createContext(false);

/**
 * The layout of every page: header, the page, footer, and the shell's own
 * dialogs — sign-out confirmation, idle warning, session expired, new version, circular letter — and the error
 * screen raised by a failed call. The loader and toasts sit outside the router (main.tsx) so they also cover the
 * first load.
 */
function Shell() {
  const lang = useDocumentLanguage();
  const { t } = useTranslation('shell');
  const session = useSession();
  const router = useRouter();
  const navigate = useNavigate();
  const idle = useIdleTimeout(session);
  const newVersion = useNewVersion();
  const circular = useCircularLetter(session);
  const screen = useStore(errorScreen);
  const [signOutOpen, setSignOutOpen] = useState(false);

  useLayoutEffect(() => shellShown.set(true), []);

  // An error screen belongs to the page that raised it: leaving the page leaves the screen.
  useEffect(() => router.subscribe('onBeforeNavigate', () => errorScreen.set(null)), [router]);

  const confirmSignOut = async () => {
    await signOut();
    setSignOutOpen(false);
    await router.invalidate();
    await navigate({ to: '/home' });
  };

  return (
    <LocaleProvider locale={lang === 'ar' ? 'ar-SA' : 'en-US'}>
      <Flex direction="column" minH="100vh">
        <SkipNavLink>{t('skipToContent')}</SkipNavLink>
        <Header onSignOut={() => setSignOutOpen(true)} />
        {/* At least a screen tall, so the footer starts below the fold while a page's content is still loading:
            it filled the lower half of a phone's screen and was then pushed away (CLS 0.8 on /faq). */}
        <SkipNavContent as="main" flex="1" minH="100vh">
          <Outlet />
        </SkipNavContent>
        <Footer />
      </Flex>
      <SignOutDialog open={signOutOpen} onCancel={() => setSignOutOpen(false)} onConfirm={confirmSignOut} />
      <IdleWarningDialog
        idle={idle}
        onSignOut={() => {
          idle.stayActive();
          setSignOutOpen(false);
          void confirmSignOut();
        }}
      />
      <SessionExpiredDialog />
      <NewVersionDialog newVersion={newVersion} />
      <CircularLetterDialog offer={circular} />
      <ChatAssistant />
      {screen && <ErrorScreen status={screen.status} message={screen.message} onLeave={() => errorScreen.set(null)} />}
    </LocaleProvider>
  );
}
