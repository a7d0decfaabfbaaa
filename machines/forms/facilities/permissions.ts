import { Permissions as P } from '../../permissions';
import type { FacilityType } from './schemas';

/**
 * What a delegate may be given, per facility type (spec 02 section 6: the main delegate has all permissions; a sub
 * delegate the chosen ones, never delegation, which only the main user may do). Shared by the server (the
 * delegation wizard's check, the seed) and the web (the wizard's choices).
 */
export const DELEGABLE_PERMISSIONS: Record<FacilityType, readonly string[]> = {
  InternalFacility: [
    P.facility.internal,
    P.facility.internalEdit,
    P.internalRequest.request,
    P.internalRequest.submit,
    P.files.uploadProductPhoto,
    P.files.downloadProductPhoto,
  ],
  ExternalFacility: [
    P.facility.external,
    P.facility.externalEdit,
    P.externalRequest.request,
    P.externalRequest.submit,
    P.shipment.default,
    P.shipment.submit,
  ],
  ConformityBody: [
    P.facility.conformityBody,
    P.facility.conformityBodyEdit,
    P.cbAccreditation.request,
    P.cbAccreditation.submit,
    P.externalRequest.request,
    P.externalRequest.submit,
    P.shipment.default,
    P.shipment.submit,
    P.files.uploadProductPhoto,
    P.files.downloadProductPhoto,
  ],
};

/** The permission to see a facility of each type, and the one to change its data. */
export const FACILITY_ACCESS: Record<FacilityType, { view: string; edit: string }> = {
  InternalFacility: { view: P.facility.internal, edit: P.facility.internalEdit },
  ExternalFacility: { view: P.facility.external, edit: P.facility.externalEdit },
  ConformityBody: { view: P.facility.conformityBody, edit: P.facility.conformityBodyEdit },
};

/** Any of these, held for a facility, lets a member add or remove its files (drafting requests, editing data, photos). */
export const FILE_WRITE_PERMISSIONS: readonly string[] = [
  P.internalRequest.request,
  P.externalRequest.request,
  P.cbAccreditation.request,
  P.shipment.default,
  P.facility.internalEdit,
  P.facility.externalEdit,
  P.facility.conformityBodyEdit,
  P.files.uploadProductPhoto,
];
