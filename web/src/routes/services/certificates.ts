import type { RequestKind } from '../../../../machines/services/types';

/**
 * What a finished request of each kind did to a certificate: issued one (a new certificate, a renewal, a shipment's)
 * or changed the one it was about (added products or categories). Its page links that certificate, named by
 * GET /api/requests/{id}/certificate (its own, else the one it changed). Plain data, like wizards.ts, so the request
 * page reads it without the service registry and its zod schemas (issue 18 item 1).
 */
export const CERTIFICATE_OUTCOMES: Partial<Record<RequestKind, 'issued' | 'changed'>> = {
  internalCertificate: 'issued',
  internalRenewal: 'issued',
  internalAddProducts: 'changed',
  cbDesignation: 'issued',
  cbRenewal: 'issued',
  cbAddCategories: 'changed',
  externalCertificate: 'issued',
  externalRenewal: 'issued',
  externalAddProducts: 'changed',
  shipment: 'issued',
};
