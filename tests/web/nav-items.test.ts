import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLES, AUDITOR_ROLE } from '../../machines/default-roles';
import { isStaff } from '../../machines/roles';
import { navItemsFor } from '../../web/src/components/nav-items';
import { registerScreens } from '../../web/src/screens';
import type { Session } from '../../web/src/session/session-store';

/** The header menu (spec 01 section 2): the dashboard and each administration module only for users allowed. */
function sessionFor(role: string): Session {
  const permissions = [...(DEFAULT_ROLES.find((r) => r.name === role)?.permissions ?? [])];
  return {
    authenticated: true,
    sessionExpired: false,
    user: { id: role, userName: role, name: role, email: `${role}@x`, roles: [role] },
    permissions,
    facilityIds: [],
    isStaff: isStaff(permissions),
    sessionTime: 20,
    warningCountdown: 5,
    appVersion: '1',
    csrfToken: 't',
  };
}
const links = (role: string) => navItemsFor(sessionFor(role)).map((i) => i.to);
const ADMIN = ['/identity', '/setting-management', '/audit-logs'];

beforeAll(() => {
  // The built screens of this change (the others stay placeholders and are never linked).
  registerScreens(['dashboard', 'identity', 'setting-management', 'audit-logs', 'halal-request'].map((path) => ({ path, component: {} })));
});

describe('menu', () => {
  it('gives the administrator the dashboard and every built administration module, and no placeholder', () => {
    expect(links('admin')).toEqual(expect.arrayContaining(['/dashboard', ...ADMIN]));
    expect(links('admin')).not.toContain('/language-management');
  });

  it('gives the read-only auditor the dashboard and the audit log only', () => {
    const mine = links(AUDITOR_ROLE);
    expect(mine).toEqual(expect.arrayContaining(['/dashboard', '/audit-logs']));
    expect(mine).not.toContain('/identity');
    expect(mine).not.toContain('/setting-management');
  });

  it('gives staff and applicants the dashboard and no administration module', () => {
    for (const role of ['registrationEmployee', 'committeeMember', 'applicant']) {
      expect(links(role), role).toContain('/dashboard');
      for (const m of ADMIN) expect(links(role), role).not.toContain(m);
    }
  });
});
