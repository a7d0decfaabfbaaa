import type { MachineKind } from '../../../../machines/types';

/**
 * The sections (wizard steps) of each kind's data, in the wizard's order: the request page's data view lists them
 * so. Plain data, like routes/services/wizards.ts: machines/sections reads them from the service registry, whose
 * forms and zod schemas (~34 KB brotli, ~180 ms of evaluation at 4x CPU) the request page would otherwise load
 * before its first render (issue 18 item 1). tests/web/request-page-imports.test.ts checks it against
 * machines/sections for every kind.
 */
export const REQUEST_SECTIONS: Readonly<Record<MachineKind, readonly string[]>> = {
  cbDesignation: ['facilityInfo', 'certificatesAndSpecifications', 'categories', 'operations'],
  cbRenewal: ['facilityInfo', 'certificatesAndSpecifications', 'categories', 'operations', 'renewal'],
  cbAddCategories: ['categories'],
  internalCertificate: ['factory', 'address', 'branches', 'trademarks', 'products', 'hsCodes', 'categories', 'operations', 'production', 'validity', 'attachments'],
  internalRenewal: ['renewal', 'factory', 'address', 'branches', 'trademarks', 'products', 'hsCodes', 'categories', 'operations', 'production', 'validity', 'attachments'],
  internalAddProducts: ['products', 'attachments'],
  internalHalalMark: ['products', 'package'],
  externalCertificate: ['factory', 'paymentWay', 'operations', 'products', 'attachments'],
  externalRenewal: ['factory', 'paymentWay', 'operations', 'products', 'attachments', 'renewal'],
  externalAddProducts: ['products', 'attachments'],
  shipment: ['shipmentType', 'factory', 'importer', 'exporter', 'shipping', 'other', 'products', 'slaughters'],
  externalHalalMark: ['products', 'package'],
  bill: [],
  certificate: [],
  halalMark: [],
  delegation: [],
};
