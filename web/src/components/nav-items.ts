import { Permissions } from '../../../machines/permissions';
import { can, type Session } from '../session/session-store';
import { landingPath } from '../session/access';

export interface NavItem {
  to: string;
  /** Key in the shell namespace. */
  labelKey: string;
}

/**
 * The header menu (spec 01 section 2: Home and Dashboard, the dashboard needing Halal.Dashboard.Host or .Tenant),
 * plus the signed-in user's own start page (associated facilities, or halal-profile for staff) so it is one
 * click away from anywhere.
 */
export function navItemsFor(session: Session | null): NavItem[] {
  const items: NavItem[] = [{ to: '/home', labelKey: 'menu.home' }];
  if (can(session, [Permissions.dashboard.host, Permissions.dashboard.tenant])) items.push({ to: '/dashboard', labelKey: 'menu.dashboard' });
  if (session?.authenticated) {
    items.push({ to: landingPath(session), labelKey: session.isStaff ? 'menu.halalCenter' : 'menu.myFacilities' });
  }
  return items;
}
