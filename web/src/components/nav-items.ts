import { Permissions } from '../../../machines/permissions';
import { can, type Session } from '../session/session-store';
import { landingPath } from '../session/access';
import { screenExists } from '../screens';

export interface NavItem {
  to: string;
  /** Key in the shell namespace. */
  labelKey: string;
}

interface AdminModule extends NavItem {
  /** Shown to users holding any of these (the permission its route and its server calls check). */
  anyOf: readonly string[];
}

const requestPolicies = [Permissions.internalRequest.request, Permissions.externalRequest.request, Permissions.cbAccreditation.request];

/**
 * Administration modules, each shown to the users holding its permission (the read-only auditor gets the audit log,
 * an administrator all of them) once its screen exists (never a placeholder).
 */
const ADMIN_MODULES: AdminModule[] = [
  { to: '/identity', labelKey: 'screens.identity', anyOf: [Permissions.admin.manage] },
  { to: '/setting-management', labelKey: 'screens.settingManagement', anyOf: [Permissions.settings.manage] },
  { to: '/audit-logs', labelKey: 'screens.auditLogs', anyOf: [Permissions.auditLogs.view] },
  { to: '/language-management', labelKey: 'screens.languageManagement', anyOf: [Permissions.admin.manage] },
  { to: '/text-template-management', labelKey: 'screens.textTemplateManagement', anyOf: [Permissions.admin.manage] },
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
    add({ to: '/halal-marks', labelKey: 'menu.marks' });
    if (can(session, [Permissions.portals.general, Permissions.portals.halalCenter])) add({ to: '/invoices', labelKey: 'menu.invoices' });
    // Staff who handle payments and the read-only auditor (the server's GET /api/payments/attention policy).
    if (session.isStaff && can(session, [Permissions.payments.grantDiscount, Permissions.auditLogs.view])) add({ to: '/payments-attention', labelKey: 'menu.paymentsAttention' });
    for (const m of ADMIN_MODULES) if (can(session, m.anyOf)) add({ to: m.to, labelKey: m.labelKey });
  }
  return items;
}
