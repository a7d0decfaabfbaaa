import { renewalWindowOf, servicePath, servicesFor, type FacilityType, type RequestKind, type ServiceDefinition } from '../../../../machines/services';
import { screenExists } from '../../screens';

/**
 * What the web adds to a service definition (machines/services): which of the data the portal already holds about
 * the facility starts a new draft. Every service's drafts are edited in the one wizard (wizards.ts).
 */
export interface WebService {
  /** The first data of a new draft, from the facility's profile (the server validates it like any draft). */
  prefill?: (facility: FacilityFacts) => Record<string, unknown>;
}

/** What a facility's profile knows (GET facility calls), as prefill reads it. */
export interface FacilityFacts {
  nameAr: string;
  nameEn: string;
  registrationNumber: string | null;
  unifiedNumber: string | null;
  city: string | null;
  countryCode: string;
  details: Record<string, unknown>;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** Factory, address and trademarks of an internal facility, as the commercial registry gave them. */
function internalFacilityPrefill(f: FacilityFacts): Record<string, unknown> {
  const d = f.details;
  const address = (d.address && typeof d.address === 'object' ? d.address : {}) as Record<string, unknown>;
  const trademarks = Array.isArray(d.trademarks)
    ? (d.trademarks as Record<string, unknown>[]).map((m) => defined({ nameAr: text(m.nameAr), nameEn: text(m.nameEn) })).filter((m) => Object.keys(m).length)
    : [];
  return defined({
    factory: defined({
      nameAr: text(f.nameAr),
      nameEn: text(f.nameEn),
      commercialRegistrationNumber: text(f.registrationNumber),
      unifiedNumber: text(f.unifiedNumber),
      activityName: text(d.activityName),
      totalAnnualRevenue: num(d.totalAnnualRevenue),
      fullTimeEmployees: num(d.fullTimeEmployeeCount),
    }),
    address: defined({
      countryCode: 'SA',
      city: text(f.city) ?? text(address.city),
      district: text(address.district),
      street: text(address.streetName),
      zipCode: text(address.zipCode),
      buildingNumber: text(address.buildingNumber),
      additionalNumber: text(address.additionalNumber),
    }),
    trademarks: trademarks.length ? trademarks : undefined,
  });
}

export const WEB_SERVICES: Partial<Record<RequestKind, WebService>> = {
  internalCertificate: { prefill: internalFacilityPrefill },
};

/** The parameters of a start path, from the facility (or CB) it is started for and the certificate it is about. */
export const startParams = (facilityPublicId: string, certificateId?: string): Record<string, string> => ({
  facilityPublicId,
  cbPublicId: facilityPublicId,
  ...(certificateId ? { certificateId } : {}),
});

/**
 * The services a user may start from this facility (or, given a certificate's kind, from that certificate: only the
 * services whose subject accepts certificates of that kind, so a CB's designation certificate never offers an
 * external facility's renewal): the ones its type may start, that the user's permissions in the facility allow, and
 * whose start screen exists. Placeholders are never offered.
 */
export function startableServices(type: FacilityType, permissions: readonly string[], certificateKind?: string): ServiceDefinition[] {
  return servicesFor(type).filter(
    (d) =>
      (certificateKind === undefined
        ? d.subject.type === 'facility'
        : d.subject.type === 'certificate' && (d.subject.certificateKinds as readonly string[]).includes(certificateKind)) &&
      d.startPermissions.some((p) => permissions.includes(p)) &&
      screenExists(d.routes.start),
  );
}

/**
 * The services offered on one row of a facility's certificates tab: those startable from a certificate of its kind,
 * a renewal only when the server says its window is open now (the `renewal` of the certificates list, the same
 * answer the certificate page reads), so a certificate far from expiry is not offered a renewal the start refuses.
 */
export function certificateServices(
  type: FacilityType,
  permissions: readonly string[],
  certificate: { kind: string; renewal: { kind: string } | null },
): ServiceDefinition[] {
  return startableServices(type, permissions, certificate.kind).filter(
    (d) => !renewalWindowOf(d) || certificate.renewal?.kind === d.kind,
  );
}

/** The start link of a service: its start path, with the certificate as a query when the path does not carry it. */
export function startLink(template: string, facilityPublicId: string, certificateId?: string): { to: string; search?: { certificateId: string } } {
  const to = servicePath(template, startParams(facilityPublicId, certificateId));
  return certificateId && !template.includes('$certificateId') ? { to, search: { certificateId } } : { to };
}
