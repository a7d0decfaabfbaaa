import { Permissions } from '../../../machines/permissions';
import { can, type Session } from '../session/session-store';
import { landingPath } from '../session/access';
import { screenExists } from '../screens';

export interface NavItem {
  to: string;
  /** Key in the shell namespace. */
  labelKey: string;
}

const requestPolicies = [Permissions.internalRequest.request, Permissions.externalRequest.request, Permissions.cbAccreditation.request];

/** Administration modules, shown to administrators once their screen exists (never a placeholder). */
const ADMIN_MODULES: NavItem[] = [
  { to: '/identity', labelKey: 'screens.identity' },
  { to: '/setting-management', labelKey: 'screens.settingManagement' },
  { to: '/audit-logs', labelKey: 'screens.auditLogs' },
  { to: '/language-management', labelKey: 'screens.languageManagement' },
  { to: '/text-template-management', labelKey: 'screens.textTemplateManagement' },
];

/**
 * The header menu (spec 01 section 2: Home and Dashboard, the dashboard needing Halal.Dashboard.Host or .Tenant),
 * then what the signed-in user works on: applicants their facilities (each facility's profile lists its services,
 * requests, certificates, invoices, marks, users and delegation) and all their requests; staff their queues;
 * administrators their modules. Only screens that exist are linked.
 */
export function navItemsFor(session: Session | null): NavItem[] {
  const items: NavItem[] = [{ to: '/home', labelKey: 'menu.home' }];
  const add = (item: NavItem) => {
    if (screenExists(item.to)) items.push(item);
  };
  if (can(session, [Permissions.dashboard.host, Permissions.dashboard.tenant])) add({ to: '/dashboard', labelKey: 'menu.dashboard' });
  if (session?.authenticated) {
    if (session.isStaff) {
      items.push({ to: landingPath(session), labelKey: 'menu.halalCenter' });
    } else {
      items.push({ to: landingPath(session), labelKey: 'menu.myFacilities' });
      if (can(session, requestPolicies)) add({ to: '/halal-request', labelKey: 'menu.myRequests' });
    }
    add({ to: '/certificates', labelKey: 'menu.certificates' });
    if (can(session, [Permissions.portals.general, Permissions.portals.halalCenter])) add({ to: '/invoices', labelKey: 'menu.invoices' });
    if (can(session, Permissions.admin.manage)) ADMIN_MODULES.forEach(add);
  }
  return items;
}
