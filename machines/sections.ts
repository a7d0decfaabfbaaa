import type { MachineKind } from './types';

/**
 * The sections (wizard steps) of each request kind's data. EDIT replaces whole sections; registration may return
 * chosen sections, and the applicant may then edit only those (spec 02 section 2 lists the wizard steps).
 */
const cb = ['facilityInfo', 'certificatesAndSpecifications', 'categories', 'operations', 'agreement'] as const;
const internal = [
  'factory',
  'address',
  'branches',
  'trademarks',
  'products',
  'productUpload',
  'hsCodes',
  'categories',
  'operations',
  'attachments',
] as const;
const external = ['factory', 'paymentWay', 'operations', 'products', 'attachments'] as const;

export const SECTIONS: Partial<Record<MachineKind, readonly string[]>> = {
  cbDesignation: cb,
  cbRenewal: [...cb, 'renewal'],
  cbAddCategories: ['categories', 'agreement'],
  internalCertificate: internal,
  internalRenewal: [...internal, 'renewal'],
  internalAddProducts: ['products', 'productUpload', 'hsCodes', 'attachments'],
  internalHalalMark: ['products', 'package'],
  externalCertificate: external,
  externalRenewal: [...external, 'renewal'],
  externalAddProducts: ['products', 'attachments'],
  shipment: ['shipmentType', 'factory', 'importer', 'exporter', 'shipping', 'other', 'products', 'slaughters'],
  externalHalalMark: ['products', 'package'],
};

export const sectionsOf = (kind: MachineKind): readonly string[] => SECTIONS[kind] ?? [];
