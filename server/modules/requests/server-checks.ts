import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { attachments, certificates } from '../../../db/schema';
import { coveredCategoryCodes } from '../../../machines/forms/parts';
import { CATEGORY_TREE, type MainCategory } from '../../../machines/forms/catalogues';
import { productKey, readSection, type DataIssue, type Projection, type ServerCheck, type ServiceDefinition } from '../../../machines/services';
import type { BusinessSettings } from '../../../machines/services/settings';
import type { RequestContext } from '../../../machines/types';
import type { CertificateRow } from './preconditions';

/*
 * The checks of the service contract that need the database (machines/services/types.ts ServerCheck). The request
 * service runs a service's checks on SUBMIT and RESUBMIT, through every door; each returns the issues it finds, with
 * paths from the data's root and `validation` keys, so they read like the schema's own.
 */

export interface CheckInput {
  db: Db;
  def: ServiceDefinition;
  requestId: string;
  facilityPublicId: string;
  context: RequestContext;
  projection: Projection;
  subject: CertificateRow | null;
  settings: BusinessSettings;
  now: Date;
}

/** Products of the request that its subject certificate already lists (they are excluded, and the user told). */
export function productsAlreadyOnCertificate(projection: Projection, subject: CertificateRow | null): Set<string> {
  if (!subject) return new Set();
  const on = new Set(subject.products.map(productKey));
  return new Set(projection.products.map(productKey).filter((k) => on.has(k)));
}

/** Category codes a certificate's categories cover: a main category covers its sub-categories. */
export function coverageOf(categories: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const code of categories) {
    out.add(code);
    const subs = CATEGORY_TREE[code as MainCategory] as readonly string[] | undefined;
    for (const s of subs ?? []) out.add(s);
  }
  return out;
}

const CHECKS: Record<ServerCheck, ((i: CheckInput) => Promise<DataIssue[]>) | undefined> = {
  async attachmentsBelongToRequest(i) {
    const ids = [...new Set(i.projection.attachmentIds)];
    if (!ids.length) return [];
    const rows = await i.db
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(inArray(attachments.id, ids), eq(attachments.requestId, i.requestId), isNull(attachments.deletedAt)));
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    return missing.length ? [{ path: i.def.attachmentSection ?? '', message: 'form.attachmentNotFound', params: { count: missing.length } }] : [];
  },

  // Exclusion itself is done by the request service before SUBMIT (an EDIT that drops them); what is left here is a
  // request whose every product is already on the certificate: nothing to add.
  async productsNotOnCertificate(i) {
    const already = productsAlreadyOnCertificate(i.projection, i.subject);
    return i.projection.products.length > 0 && already.size === i.projection.products.length
      ? [{ path: 'products', message: 'form.allProductsOnCertificate' }]
      : [];
  },

  async productsOnCertificate(i) {
    if (!i.subject) return [{ path: 'products', message: 'form.productNotOnCertificate' }];
    const on = new Set(i.subject.products.map(productKey));
    return i.projection.products.flatMap((p, index) => (on.has(productKey(p)) ? [] : [{ path: `products.${index}`, message: 'form.productNotOnCertificate' }]));
  },

  async markPackage(i) {
    const tags = i.projection.marks?.tags ?? 0;
    const { minTags, maxTags, step } = i.settings.markPackages;
    const products = i.projection.marks?.products ?? 0;
    const issues: DataIssue[] = [];
    if (tags < minTags || tags > maxTags || tags % step !== 0) issues.push({ path: 'package.tags', message: 'form.markPackageRange', params: { min: minTags, max: maxTags, step } });
    if (tags < products) issues.push({ path: 'package.tags', message: 'form.markPackageTooSmall', params: { products } });
    return issues;
  },

  // Spec 02 section 8 "sub-category not in facility certificate": added products must fall inside the certificate.
  async withinFacilityCertificate(i) {
    if (!i.subject) return [];
    const covered = coverageOf(i.subject.categories);
    return i.projection.products.flatMap((p, index) =>
      p.category && !covered.has(p.category) ? [{ path: `products.${index}.category`, message: 'form.subCategoryNotInFacilityCertificate' }] : [],
    );
  },

  // Spec 02 section 8 "product 119 / sub-category not in CB certificate": the issuing CB's designation must cover them.
  async withinCbDesignation(i) {
    const cb = i.projection.cbPublicId ?? i.facilityPublicId;
    const [designation] = await i.db
      .select({ categories: certificates.categories })
      .from(certificates)
      .where(and(eq(certificates.facilityPublicId, cb), eq(certificates.kind, 'cbDesignation')))
      .orderBy(desc(certificates.expiresAt))
      .limit(1);
    if (!designation) return [];
    const covered = coverageOf(designation.categories);
    return i.projection.products.flatMap((p, index) =>
      p.category && !covered.has(p.category) ? [{ path: `products.${index}.category`, message: 'form.productOutsideCbDesignation' }] : [],
    );
  },

  // Built with their adapters (food authority, commercial registry) and the suspension rule of external requests.
  foodAuthorityProducts: undefined,
  importerVerified: undefined,
  externalFacilityNotTaken: undefined,
};

/** Runs the service's server checks; a check a service lists but the server cannot run is a programming error. */
export async function runServerChecks(i: CheckInput): Promise<DataIssue[]> {
  const issues: DataIssue[] = [];
  for (const name of i.def.serverChecks) {
    const run = CHECKS[name];
    if (!run) throw new Error(`server check '${name}' of ${i.def.kind} is not implemented`);
    issues.push(...(await run(i)));
  }
  return issues;
}

/** A section of the stored data read through its complete schema (for checks that need more than the projection). */
export const sectionOf = <T>(def: ServiceDefinition, context: RequestContext, key: string) => readSection<T>(def, context.data ?? {}, key);

/** Category codes a selection covers, for checks over category sections. */
export { coveredCategoryCodes };
