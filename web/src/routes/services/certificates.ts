import type { RequestKind } from '../../../../machines/services/types';

/**
 * The call that names the certificate a finished request of each kind issued (its `{id}` is the request's). Plain
 * data, like wizards.ts, so the request page reads it without the service registry and its zod schemas (issue 18
 * item 1); WEB_SERVICES (services.ts) takes its `certificate` from here.
 */
export type CertificateLookup = '/api/internal-requests/{id}/certificate' | '/api/requests/{id}/certificate';
const INTERNAL_CERTIFICATE: CertificateLookup = '/api/internal-requests/{id}/certificate';
/** Any request's certificate: the one it issued or renewed, else the one it changed (GET /api/requests/{id}/certificate). */
const REQUEST_CERTIFICATE: CertificateLookup = '/api/requests/{id}/certificate';

export const SERVICE_CERTIFICATES: Partial<Record<RequestKind, CertificateLookup>> = {
  internalCertificate: INTERNAL_CERTIFICATE,
  internalRenewal: INTERNAL_CERTIFICATE,
  internalAddProducts: INTERNAL_CERTIFICATE,
  cbDesignation: REQUEST_CERTIFICATE,
  cbRenewal: REQUEST_CERTIFICATE,
  cbAddCategories: REQUEST_CERTIFICATE,
  externalCertificate: REQUEST_CERTIFICATE,
  externalRenewal: REQUEST_CERTIFICATE,
  externalAddProducts: REQUEST_CERTIFICATE,
  shipment: REQUEST_CERTIFICATE,
};
