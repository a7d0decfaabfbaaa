import type { ReactNode } from 'react';
import { Button, CloseButton, Drawer, Portal, Separator, Stack } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { NavItem } from './nav-items';
import { PROFILE_PATH } from './Header';
import { SignOutIcon, UserIcon } from './icons';

export interface MenuDrawerProps {
  open: boolean;
  onClose: () => void;
  items: NavItem[];
  isCurrent: (to: string) => boolean;
  /** The signed-in user's name; null when nobody is signed in. */
  userName: string | null;
  /** Shown instead of the account links when nobody is signed in (false on the sign-in page). */
  signInButton: ReactNode;
  onSignOut: () => void;
}

/** The header's menu below 992 px (spec 01 section 9): the menu and account links in a drawer. Loaded when first opened (Header.tsx). */
export function MenuDrawer({ open, onClose, items, isCurrent, userName, signInButton, onSignOut }: MenuDrawerProps) {
  const { t } = useTranslation('shell');
  return (
    <Drawer.Root
      open={open}
      onOpenChange={(e) => {
        if (!e.open) onClose();
      }}
      placement="end"
    >
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content data-testid="menu-drawer">
            <Drawer.Header>
              <Drawer.Title>{t('header.menuLabel')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <Stack as="nav" aria-label={t('header.menuLabel')} gap="1">
                {items.map((item) => (
                  <Button key={item.to} asChild variant="ghost" justifyContent="flex-start" _currentPage={{ color: 'brand.fg', bg: 'brand.subtle' }}>
                    <Link to={item.to} onClick={onClose} aria-current={isCurrent(item.to) ? 'page' : undefined}>
                      {t(item.labelKey)}
                    </Link>
                  </Button>
                ))}
                <Separator my="3" />
                {userName !== null ? (
                  <>
                    <Button asChild variant="ghost" justifyContent="flex-start">
                      <Link to={PROFILE_PATH} onClick={onClose}>
                        <UserIcon />
                        {userName}
                      </Link>
                    </Button>
                    <Button
                      variant="outline"
                      justifyContent="flex-start"
                      onClick={() => {
                        onClose();
                        onSignOut();
                      }}
                    >
                      <SignOutIcon className="flip-rtl" />
                      {t('header.signOut')}
                    </Button>
                  </>
                ) : (
                  signInButton
                )}
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('header.closeMenu')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
