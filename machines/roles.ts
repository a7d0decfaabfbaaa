import { Permissions as P, ALL_PERMISSIONS, type PermissionName } from './permissions';

/**
 * Roles of spec 02 section 6 and the permissions each grants. Facility main/sub user is not a role but a membership
 * (MainUser=0, SubUser=1 per facility): both are `applicant`s, and "may delegate" is checked on the membership.
 * Choice (spec silent): staff roles get the AssignToOthers policy only where they lead a queue (registration
 * employee, team leader, committee member); a technical auditor can assign to self but not to others.
 */
export const ROLE_NAMES = [
  'applicant',
  'registrationEmployee',
  'auditEmployee',
  'teamLeader',
  'technicalAuditor',
  'committeeMember',
  'admin',
] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

const services = [P.cbAccreditation, P.internalRequest, P.externalRequest] as const;
const each = <K extends keyof (typeof services)[number]>(...keys: K[]): PermissionName[] =>
  services.flatMap((s) => keys.map((k) => s[k] as PermissionName));

const applicant: PermissionName[] = [
  P.portals.general,
  ...(Object.values(P.facility) as PermissionName[]),
  ...each('request', 'submit'),
  P.shipment.default,
  P.shipment.submit,
  P.files.uploadProductPhoto,
  P.files.downloadProductPhoto,
  P.files.uploadProfilePicture,
  P.dashboard.tenant,
];

// The Halal center is the host of the portal and each facility a tenant (spec 01 section 2): staff read the host
// dashboard (every facility's queues and bills), applicants the tenant one (their own facilities).
const staff: PermissionName[] = [P.portals.halalCenter, P.files.downloadProductPhoto, P.dashboard.host];

export const ROLE_PERMISSIONS: Record<RoleName, readonly PermissionName[]> = {
  applicant,
  registrationEmployee: [...staff, ...each('registrationReview', 'registrationAssignToOthers'), P.payments.grantDiscount],
  auditEmployee: [...staff, ...each('auditSubmitPlan', 'auditAddPlan', 'auditEditPlan', 'auditSubmitReport')],
  teamLeader: [
    ...staff,
    ...each('auditSubmitPlan', 'auditAddPlan', 'auditEditPlan', 'auditSubmitReport', 'auditAssignToOthers'),
  ],
  technicalAuditor: [...staff, ...each('auditSubmitReport')],
  committeeMember: [...staff, ...each('committeeReview', 'committeeAssignToOthers'), P.certificates.suspend],
  admin: ALL_PERMISSIONS.filter((p) => p !== P.portals.general),
};

/** Union of the permissions of the given roles. */
export function permissionsOf(roles: readonly string[]): PermissionName[] {
  const set = new Set<PermissionName>();
  for (const r of roles) for (const p of ROLE_PERMISSIONS[r as RoleName] ?? []) set.add(p);
  return [...set].sort();
}

/** Staff of the Halal center land on halal-profile; everybody else on associated-facilities. */
export const isStaff = (permissions: readonly string[]) => permissions.includes(P.portals.halalCenter);
