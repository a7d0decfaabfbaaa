import { describe, expect, it } from 'vitest';
import { Permissions as P } from '../../machines/permissions';
import { permissionsOf, isStaff, ROLE_NAMES } from '../../machines/roles';
import { decideAccess, landingPath, safeReturnUrl, type RouteAccess } from '../../web/src/session/access';
import type { Session } from '../../web/src/session/session-store';

/** Route guards of the web (spec 01 section 2), for every role of machines/roles.ts and for anonymous visitors. */

function sessionFor(role: string | null): Session {
  const permissions = role ? permissionsOf([role]) : [];
  return {
    authenticated: !!role,
    sessionExpired: false,
    user: role ? { id: role, userName: role, name: role, email: `${role}@x`, roles: [role] } : null,
    permissions,
    facilityIds: [],
    isStaff: isStaff(permissions),
    sessionTime: 20,
    warningCountdown: 5,
    appVersion: '1',
    csrfToken: 't',
  };
}

const facilityPolicies = [P.facility.conformityBody, P.facility.internal, P.facility.external];
const associatedFacilities: RouteAccess = { anyOf: facilityPolicies, staff: 'elsewhere' };
const halalProfile: RouteAccess = { staff: 'only' };
const admin: RouteAccess = { anyOf: [P.admin.manage] };

describe('route guards', () => {
  it('lets anyone open a public route', () => {
    expect(decideAccess({}, sessionFor(null), '/home')).toEqual({ kind: 'allow' });
  });

  it('sends anonymous visitors of any protected route to sign in, remembering where they were going', () => {
    for (const access of [{ signedIn: true }, associatedFacilities, halalProfile, admin]) {
      expect(decideAccess(access, sessionFor(null), '/dashboard?x=1')).toEqual({
        kind: 'redirect',
        to: '/account/login',
        search: { returnUrl: '/dashboard?x=1' },
      });
    }
  });

  it.each(ROLE_NAMES)('sends %s to its own start page from the other one', (role) => {
    const s = sessionFor(role);
    const home = landingPath(s);
    expect(home).toBe(s.isStaff ? '/halal-profile' : '/associated-facilities');
    expect(decideAccess(s.isStaff ? halalProfile : associatedFacilities, s, home)).toEqual({ kind: 'allow' });
    expect(decideAccess(s.isStaff ? associatedFacilities : halalProfile, s, '/x')).toEqual({ kind: 'redirect', to: home });
  });

  it('shows 403 to a signed-in user without the policy, and lets a holder in', () => {
    expect(decideAccess(admin, sessionFor('applicant'), '/identity')).toEqual({ kind: 'forbidden' });
    expect(decideAccess(admin, sessionFor('admin'), '/identity')).toEqual({ kind: 'allow' });
    const cbOnly: RouteAccess = { anyOf: [P.cbAccreditation.request] };
    expect(decideAccess(cbOnly, sessionFor('registrationEmployee'), '/x')).toEqual({ kind: 'forbidden' });
    expect(decideAccess(cbOnly, sessionFor('applicant'), '/x')).toEqual({ kind: 'allow' });
  });
});

describe('safeReturnUrl', () => {
  it('follows same-site paths only', () => {
    expect(safeReturnUrl('/facility-profile/cb/cb-global-halal?tab=requests')).toBe('/facility-profile/cb/cb-global-halal?tab=requests');
    for (const bad of ['//evil.example/x', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)', '/account/login?returnUrl=/x', 42, undefined]) {
      expect(safeReturnUrl(bad)).toBeNull();
    }
  });
});
