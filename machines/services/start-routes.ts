import { Permissions as P } from '../permissions';
import type { RequestKind } from './types';

/**
 * Where each service starts in the web and who may start it, written once, as plain data without the forms and their
 * zod schemas: the web router builds the generic start routes from it without loading the registry into the entry
 * script (issue 18 item 1), and each service definition takes its `routes` and `startPermissions` from it (startOf).
 */
export interface StartRoute {
  /** The web path of the start screen ('$facilityPublicId', '$cbPublicId', '$certificateId' parameters). */
  start: string;
  /** Any of these, for the facility, lets a user start the service. */
  startPermissions: readonly string[];
}

const cb = [P.cbAccreditation.request];
const internal = [P.internalRequest.request];
const external = [P.externalRequest.request];

export const START_ROUTES: Readonly<Record<RequestKind, StartRoute>> = {
  cbDesignation: { start: '/halal-request/new/$cbPublicId', startPermissions: cb },
  cbRenewal: { start: '/cba-renewal-request/$cbPublicId/$certificateId', startPermissions: cb },
  cbAddCategories: { start: '/add-cb-categories-request/$cbPublicId/$certificateId', startPermissions: cb },
  internalCertificate: { start: '/internal-halal-request/new/$facilityPublicId', startPermissions: internal },
  internalRenewal: { start: '/internal-renewal-request/$facilityPublicId/$certificateId', startPermissions: internal },
  internalAddProducts: { start: '/add-product-infa-request/$facilityPublicId', startPermissions: internal },
  internalHalalMark: { start: '/internal-halal-mark-request/$facilityPublicId', startPermissions: internal },
  externalCertificate: { start: '/external-halal-request/$cbPublicId', startPermissions: external },
  externalRenewal: { start: '/external-renewal-request/$cbPublicId/$certificateId', startPermissions: external },
  externalAddProducts: { start: '/add-products-ef-request/$cbPublicId/$facilityPublicId', startPermissions: external },
  externalHalalMark: { start: '/ex-halal-mark-request/$cbPublicId', startPermissions: external },
  shipment: { start: '/ex-shipment-request/$cbPublicId', startPermissions: [P.shipment.default] },
};

/** A service definition's `routes` (its start path from this catalogue, and its list) and `startPermissions`. */
export function startOf(kind: RequestKind, list: string): { routes: { start: string; list: string }; startPermissions: readonly string[] } {
  return { routes: { start: START_ROUTES[kind].start, list }, startPermissions: START_ROUTES[kind].startPermissions };
}

/** The permissions to work a facility's requests: any service's start permission (the applicant's steps need one). */
const WORK_REQUESTS: readonly string[] = [...new Set(Object.values(START_ROUTES).flatMap((r) => r.startPermissions))];

/**
 * The permissions that work a request of this kind for its facility (its service's start permission, which its
 * applicant steps also need: Request, or a shipment's Default), or any service's for what belongs to no single
 * service's request (a month-end bulk invoice, a certificate's later yearly instalment).
 */
export const workPermissionsOf = (kind: string | null | undefined): readonly string[] =>
  kind && Object.prototype.hasOwnProperty.call(START_ROUTES, kind) ? START_ROUTES[kind as RequestKind].startPermissions : WORK_REQUESTS;
