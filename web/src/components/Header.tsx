import { useEffect, useRef, useState, type RefObject } from 'react';
import { Box, Button, Flex, HStack, IconButton, Link as ChakraLink, Text } from '@chakra-ui/react';
import { Link, useLocation } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useSelectedFacility, useSession } from '../session/use-session';
import { facilityProfilePath } from '../session/selected-facility';
import { LOGIN_PATH, safeReturnUrl } from '../session/access';
import { navItemsFor } from './nav-items';
import { LanguageToggle } from './LanguageToggle';
import { Logo } from './Logo';
import { MenuIcon, SignInIcon, SignOutIcon, UserIcon } from './icons';
import { lazyWhenOpen } from './lazy-when-open';

const MenuDrawer = lazyWhenOpen(() => import('./MenuDrawer').then((m) => m.MenuDrawer));

export const PROFILE_PATH = '/personal-profile/personal-data';

/**
 * Whether the element's content is wider than the element: the menu scrolls sideways when its items do not fit (long
 * English labels, many administration modules), and an item scrolled out of sight is one nobody finds. `cutAtEnd`: more
 * of it lies past the inline end (right in English, left in Arabic) than is shown.
 */
function useOverflowing(ref: RefObject<HTMLElement | null>, content: string): { overflowing: boolean; cutAtEnd: boolean } {
  const [state, setState] = useState({ overflowing: false, cutAtEnd: false });
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const check = () => {
      const overflowing = element.scrollWidth > element.clientWidth + 1;
      // scrollLeft runs from 0 at the start towards the end: positive left-to-right, negative right-to-left.
      const cutAtEnd = overflowing && Math.abs(element.scrollLeft) + element.clientWidth < element.scrollWidth - 1;
      setState((s) => (s.overflowing === overflowing && s.cutAtEnd === cutAtEnd ? s : { overflowing, cutAtEnd }));
    };
    check();
    // The menu's own box, and each item (their text changes width with the language and when the fonts arrive).
    const observer = new ResizeObserver(check);
    observer.observe(element);
    for (const child of element.children) observer.observe(child);
    element.addEventListener('scroll', check, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', check);
    };
  }, [ref, content]);
  return state;
}

/**
 * The portal header (spec 01 sections 1 and 2): the logo (to the selected facility's profile, else /), the menu,
 * language toggle, profile link and sign in/out. Below 992 px the menu and account links move into a drawer; wider, the
 * drawer's button shows too when the menu does not fit in the header.
 */
export function Header({ onSignOut }: { onSignOut: () => void }) {
  const { t, i18n } = useTranslation('shell');
  const session = useSession();
  const selected = useSelectedFacility();
  const location = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const items = navItemsFor(session);
  const signedIn = !!session?.authenticated;
  const onLoginPage = location.pathname === LOGIN_PATH;
  const returnUrl = safeReturnUrl(location.href);
  const isCurrent = (to: string) => location.pathname === to || location.pathname.startsWith(`${to}/`);
  const close = () => setDrawerOpen(false);
  const menuRef = useRef<HTMLDivElement>(null);
  const menu = useOverflowing(menuRef, `${i18n.language} ${items.map((i) => i.to).join(' ')}`);
  const menuOverflows = menu.overflowing;
  // The item cut by the header's edge fades out instead of ending mid-word ("Halal ma"): the menu visibly goes on.
  const menuFade = menu.cutAtEnd ? `linear-gradient(to ${i18n.dir() === 'rtl' ? 'left' : 'right'}, black calc(100% - 4rem), transparent)` : undefined;

  const signInButton = (
    <Button asChild colorPalette="brand" size="sm" data-testid="sign-in">
      <Link to={LOGIN_PATH} search={returnUrl ? { returnUrl } : {}} onClick={close}>
        <SignInIcon className="flip-rtl" />
        {t('header.signIn')}
      </Link>
    </Button>
  );

  return (
    <Box as="header" bg="bg" borderBottomWidth="1px" position="sticky" top="0" zIndex="sticky" boxShadow="xs">
      <Flex maxW="7xl" mx="auto" px={{ base: '3', lg: '6' }} h="16" align="center" gap="6">
        <ChakraLink asChild aria-label={t('header.logoLink')} _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}>
          <Link to={selected ? facilityProfilePath(selected) : '/'} data-testid="logo-link">
            <Logo />
          </Link>
        </ChakraLink>

        {/* Many administration modules must not push the page wider than the screen: the menu scrolls instead, and the
            drawer's button shows (useOverflowing). */}
        <HStack
          ref={menuRef}
          as="nav"
          aria-label={t('header.menuLabel')}
          gap="1"
          hideBelow="lg"
          minW="0"
          flexShrink="1"
          overflowX="auto"
          whiteSpace="nowrap"
          style={menuFade ? { maskImage: menuFade, WebkitMaskImage: menuFade } : undefined}
          data-cut-at-end={menu.cutAtEnd || undefined}
          data-testid="main-menu"
        >
          {items.map((item) => (
            <Button key={item.to} asChild variant="ghost" size="sm" color="fg.muted" _currentPage={{ color: 'brand.fg', bg: 'brand.subtle' }}>
              <Link to={item.to} aria-current={isCurrent(item.to) ? 'page' : undefined}>
                {t(item.labelKey)}
              </Link>
            </Button>
          ))}
        </HStack>

        <HStack ms="auto" gap="2">
          <LanguageToggle />
          <HStack gap="2" hideBelow="lg">
            {signedIn ? (
              <>
                <Button asChild variant="ghost" size="sm" data-testid="profile-link">
                  <Link to={PROFILE_PATH}>
                    <UserIcon />
                    <Text as="span" maxW="48" truncate>
                      {session?.user?.name}
                    </Text>
                  </Link>
                </Button>
                <Button variant="outline" size="sm" onClick={onSignOut} data-testid="sign-out">
                  <SignOutIcon className="flip-rtl" />
                  {t('header.signOut')}
                </Button>
              </>
            ) : (
              !onLoginPage && signInButton
            )}
          </HStack>
          <IconButton hideFrom={menuOverflows ? undefined : 'lg'} variant="ghost" aria-label={t('header.openMenu')} onClick={() => setDrawerOpen(true)} data-testid="menu-button">
            <MenuIcon />
          </IconButton>
        </HStack>
      </Flex>

      <MenuDrawer
        open={drawerOpen}
        onClose={close}
        items={items}
        isCurrent={isCurrent}
        userName={signedIn ? (session?.user?.name ?? '') : null}
        signInButton={!onLoginPage && signInButton}
        onSignOut={onSignOut}
      />
    </Box>
  );
}
