/**
 * The policy (permission) names of spec 01 section 6 and spec 02 section 6, spelled as the original portal spells
 * them ("FacilityManagment" included), so that a client written against it keeps working.
 * Names the spec implies but does not spell (external requests, shipments, files, delete) follow the same pattern;
 * docs/permissions.md (generated) lists them all.
 */

/** The review cycle sub-policies every request service has under `<Service>.HalalCenter`. */
function centerPolicies<S extends string>(service: S) {
  return {
    request: `${service}.Request`,
    submit: `${service}.Submit`,
    registrationReview: `${service}.HalalCenter.Registration.Review`,
    registrationAssignToOthers: `${service}.HalalCenter.Registration.AssignToOthers`,
    auditSubmitPlan: `${service}.HalalCenter.AuditAndInspection.SubmitPlan`,
    auditSubmitReport: `${service}.HalalCenter.AuditAndInspection.SubmitReport`,
    auditAddPlan: `${service}.HalalCenter.AuditAndInspection.AddAuditPlan`,
    auditEditPlan: `${service}.HalalCenter.AuditAndInspection.EditAuditPlan`,
    auditAssignToOthers: `${service}.HalalCenter.AuditAndInspection.AssignToOthers`,
    committeeReview: `${service}.HalalCenter.DecisionCommittee.Review`,
    committeeAssignToOthers: `${service}.HalalCenter.DecisionCommittee.AssignToOthers`,
  } as const;
}

export const Permissions = {
  portals: {
    general: 'Portals.General',
    halalCenter: 'Portals.HalalCenter',
  },
  facility: {
    conformityBody: 'FacilityManagment.ConformityBody',
    conformityBodyCreate: 'FacilityManagment.ConformityBody.Create',
    conformityBodyEdit: 'FacilityManagment.ConformityBody.Edit',
    conformityBodyDelete: 'FacilityManagment.ConformityBody.Delete',
    internal: 'FacilityManagment.InternalFacility',
    internalCreate: 'FacilityManagment.InternalFacility.Create',
    internalEdit: 'FacilityManagment.InternalFacility.Edit',
    internalDelete: 'FacilityManagment.InternalFacility.Delete',
    external: 'FacilityManagment.ExternalFacility',
    externalCreate: 'FacilityManagment.ExternalFacility.Create',
    externalEdit: 'FacilityManagment.ExternalFacility.Edit',
    externalDelete: 'FacilityManagment.ExternalFacility.Delete',
    default: 'FacilityManagment.Default',
  },
  cbAccreditation: centerPolicies('CBAccreditationService'),
  internalRequest: centerPolicies('InternalFacilityRequestService'),
  externalRequest: centerPolicies('ExternalFacilityRequestService'),
  shipment: {
    default: 'ShipmentRequestService.Default',
    submit: 'ShipmentRequestService.Submit',
  },
  files: {
    uploadProductPhoto: 'FileManagement.UploadProductPhoto',
    downloadProductPhoto: 'FileManagement.DownloadProductPhoto',
    uploadProfilePicture: 'FileManagement.UploadProfilePicture',
  },
  payments: {
    /** Not in the spec by name: "a request can be free of charge (100% discount submission)"; staff grant it, with a reason. */
    grantDiscount: 'PaymentManagement.GrantDiscount',
  },
  certificates: {
    /** Not in the spec: someone must suspend and reinstate certificates (status 4): the decision committee and the administrator. */
    suspend: 'CertificateManagement.Suspend',
  },
  dashboard: {
    host: 'Halal.Dashboard.Host',
    tenant: 'Halal.Dashboard.Tenant',
  },
  admin: {
    manage: 'AbpIdentity.Manage',
  },
  /** Not spelled by the spec (issue 15): the business settings screen (setting-management). */
  settings: {
    manage: 'SettingManagement.Manage',
  },
  /** Not spelled by the spec (issue 15): reading and exporting the audit log (audit-logs). */
  auditLogs: {
    view: 'AuditLogging.View',
  },
} as const;

type Leaves<T> = T extends string ? T : { [K in keyof T]: Leaves<T[K]> }[keyof T];
export type PermissionName = Leaves<typeof Permissions>;

function leaves(node: unknown): string[] {
  return typeof node === 'string' ? [node] : Object.values(node as Record<string, unknown>).flatMap(leaves);
}

/** Every permission name, sorted, without duplicates. */
export const ALL_PERMISSIONS: readonly PermissionName[] = [...new Set(leaves(Permissions))].sort() as PermissionName[];
