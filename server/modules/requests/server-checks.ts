import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { attachments, certificates, facilities, requests } from '../../../db/schema';
import { coveredCategoryCodes } from '../../../machines/forms/parts';
import { CATEGORY_TREE, type MainCategory } from '../../../machines/forms/catalogues';
import { productKey, readSection, type DataIssue, type Projection, type ServerCheck, type ServiceDefinition } from '../../../machines/services';
import type { BusinessSettings } from '../../../machines/services/settings';
import type { RequestContext } from '../../../machines/types';
import type { CrRegistry } from '../../adapters/cr-registry';
import type { FoodAuthority, FoodAuthorityProduct } from '../../adapters/food-authority';
import { importerProblem, lookUpImporter, type ImporterRecord } from './importer';
import { markPackageIssues } from '../../../machines/services/mark-package';
import { tFor } from '../../i18n';
import { isValidCertificate, type CertificateRow } from './preconditions';
import { riyadhDate } from '../../../machines/working-days';
import { latestCertificate } from '../facilities/certificate-rules';

/*
 * The checks of the service contract that need the database (machines/services/types.ts ServerCheck). The request
 * service runs a service's checks on SUBMIT and RESUBMIT, through every door; each returns the issues it finds, with
 * paths from the data's root and `validation` keys, so they read like the schema's own.
 */

/** The files a request's data may name (fileOwners): all of its own, and more by id. */
export interface FileScope {
  requestId: string;
  /** Files of earlier requests: a renewal's prefilled ones. */
  files: string[];
}

/**
 * The files a request's data may name: its own, and for a renewal those named by the request that issued (or last
 * renewed) its certificate. A renewal starts with that request's data, files included (prefill); those files stay
 * their owner's (a request of the same facility: the subject certificate is the caller's) and are sent as they are
 * unless replaced. They are taken by id, not by owner: once renewed, the certificate names the renewal as its request,
 * and the next renewal starts with the renewal's data, which still names the files of the request before it.
 */
export function fileOwners(def: Pick<ServiceDefinition, 'prefill'> | undefined, requestId: string, subjectRequestFiles: readonly string[]): FileScope {
  return { requestId, files: def?.prefill === 'subjectRequest' ? [...new Set(subjectRequestFiles)] : [] };
}

/** The condition on `attachments` of a file in the scope. */
export const inFileScope = (scope: FileScope) =>
  scope.files.length ? or(eq(attachments.requestId, scope.requestId), inArray(attachments.id, scope.files)) : eq(attachments.requestId, scope.requestId);

export interface CheckInput {
  db: Db;
  def: ServiceDefinition;
  requestId: string;
  facilityPublicId: string;
  context: RequestContext;
  projection: Projection;
  subject: CertificateRow | null;
  /** The files the request's data may name (fileOwners). */
  files: FileScope;
  settings: BusinessSettings;
  now: Date;
  /** The external services the checks ask (server/adapters). */
  registry: CrRegistry;
  foodAuthority: FoodAuthority;
}

/** Products of the request that its subject certificate already lists (they are excluded, and the user told). */
export function productsAlreadyOnCertificate(projection: Projection, subject: CertificateRow | null): Set<string> {
  if (!subject) return new Set();
  const on = new Set(subject.products.map(productKey));
  return new Set(projection.products.map(productKey).filter((k) => on.has(k)));
}

/**
 * The products the other requests of the same kind about the same certificate have been paid for and wait to add
 * (1004, waiting for the issue), each by the number of the request adding it.
 */
async function productsAskedElsewhere(i: CheckInput): Promise<Map<string, string>> {
  if (!i.subject) return new Map();
  const rows = await i.db
    .select({ number: requests.number, snapshot: requests.snapshot })
    .from(requests)
    .where(
      and(
        eq(requests.kind, i.def.kind),
        eq(requests.facilityPublicId, i.facilityPublicId),
        ne(requests.id, i.requestId),
        isNull(requests.deletedAt),
        sql`${requests.queue} is distinct from 'final'`,
        eq(requests.stateValue, 'waitingIssue'),
        sql`${requests.snapshot}->'context'->'subject'->>'certificateId' = ${i.subject.id}`,
      ),
    );
  const asked = new Map<string, string>();
  for (const r of rows) {
    const context = r.snapshot.context as RequestContext;
    for (const p of i.def.project(context.data ?? {}, context).products) if (!asked.has(productKey(p))) asked.set(productKey(p), r.number ?? '');
  }
  return asked;
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

const CHECKS: Record<ServerCheck, (i: CheckInput) => Promise<DataIssue[]>> = {
  async attachmentsBelongToRequest(i) {
    const ids = [...new Set(i.projection.attachmentIds)];
    if (!ids.length) return [];
    const rows = await i.db
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(inArray(attachments.id, ids), inFileScope(i.files), isNull(attachments.deletedAt)));
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

  // A product another request of the same certificate has been paid for and waits to add would be paid for twice and
  // added once: refused, naming that request (once it is issued, the product is on the certificate).
  async productsNotAskedElsewhere(i) {
    const asked = await productsAskedElsewhere(i);
    return i.projection.products.flatMap((p, index): DataIssue[] => {
      const number = asked.get(productKey(p));
      return number ? [{ path: `products.${index}`, message: 'form.productAlreadyRequested', params: { number } }] : [];
    });
  },

  // Spec 02 section 5 "categories added earlier cannot be removed": they stay on the certificate whatever the request
  // holds (workflows/effects.ts adds, never replaces); what the request chooses must be new.
  async categoriesNotOnCertificate(i) {
    if (!i.subject) return [];
    return categoriesAlreadyCertified(i.subject.categories, sectionOf<ChosenCategory[]>(i.def, i.context, 'categories') ?? []);
  },

  async productsOnCertificate(i) {
    if (!i.subject) return [{ path: 'products', message: 'form.productNotOnCertificate' }];
    // A certified product is also known by its name under its brand, as its certificate's page shows it (without the
    // food-authority number): a mark may name it so.
    const on = new Map(i.subject.products.flatMap((p) => [[productKey(p), p] as const, [productKey({ nameEn: p.nameEn, brandEn: p.brandEn }), p] as const]));
    const active = await cbCoverage(i.db, i.subject.cbPublicId);
    return i.projection.products.flatMap((p, index): DataIssue[] => {
      const certified = on.get(productKey(p));
      if (!certified) return [{ path: `products.${index}`, message: 'form.productNotOnCertificate' }];
      // Spec 02 section 4 / 8 (119): a product under a category its issuing CB's designation no longer covers is deactivated.
      if (active && certified.category && !active.has(certified.category)) return [{ path: `products.${index}`, message: 'form.productDeactivatedOutsideCbDesignation', params: { product: certified.nameEn } }];
      return [];
    });
  },

  async markPackage(i) {
    return markPackageIssues(i.projection.marks?.tags ?? 0, i.projection.marks?.products ?? 0, i.settings.markPackages);
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
    const designation = await latestCertificate(i.db, cb, 'cbDesignation');
    if (!designation) return [];
    const covered = coverageOf(designation.categories);
    return i.projection.products.flatMap((p, index) =>
      p.category && !covered.has(p.category) ? [{ path: `products.${index}.category`, message: 'form.productOutsideCbDesignation' }] : [],
    );
  },

  // Spec 02 section 5: the importer's unified number is verified against the commercial registry at submission (the
  // registry, not what the form stored after the check button, is the authority): unknown, expired or inactive
  // registrations and a CR number that is not the registration's are refused.
  // What the certificate will carry is the registry's answer: the importer's name, and the expiry, status and activity
  // the form holds (the check button fills them in), must be the registry's, in either language; a name typed by hand
  // after a valid unified number and CR is refused, naming the registry's (walk1 item 8).
  async importerVerified(i) {
    const importer = sectionOf<ImporterSection>(i.def, i.context, 'importer');
    return importer ? importerIssues(i.registry, importer, i.now) : [];
  },

  shipmentCovered: (i) => shipmentCoverageIssues(i),

  // Spec 02 section 4: "if another account already has a completed certificate request for the same external
  // facility, this request is suspended and the user may exit and cancel". The external machines have no suspended
  // state, so SUBMIT is refused with that sentence and the draft stays for the user to cancel (machines/services/readings.ts).
  async externalFacilityNotTaken(i) {
    const factory = i.projection.factoryPublicId;
    if (!factory) return [];
    const [applicant] = await i.db.select({ facilityPublicId: requests.facilityPublicId }).from(requests).where(eq(requests.id, i.requestId));
    const other = await factoryTakenBy(i.db, factory, applicant?.facilityPublicId, i.now);
    return other ? [{ path: 'factory.facilityPublicId', message: 'form.externalFacilityTaken', params: { number: other.number } }] : [];
  },

  async foreignFactory(i) {
    return namedFactoryIssues(i.db, i.facilityPublicId, i.projection.factoryPublicId, i.subject?.facilityPublicId ?? null);
  },

  // Spec 02 section 5 "product data must match the food authority system": each product's number is registered there,
  // under the same Arabic and English name and the same Saudi HS code. Each mismatch names the product and the field.
  async foodAuthorityProducts(i) {
    const numbers = [...new Set(i.projection.products.map((p) => p.productNumber?.toUpperCase()).filter((n): n is string => !!n))];
    const registered = new Map<string, FoodAuthorityProduct | null>();
    await Promise.all(numbers.map(async (n) => registered.set(n, await i.foodAuthority.product(n))));
    const same = (a: string | undefined, b: string) => (a ?? '').trim().toLowerCase() === b.trim().toLowerCase();
    return i.projection.products.flatMap((p, index): DataIssue[] => {
      if (!p.productNumber) return [];
      const found = registered.get(p.productNumber.toUpperCase());
      const at = (field: string) => `products.${index}.${field}`;
      if (!found) return [{ path: at('productNumber'), message: 'form.foodAuthorityUnknown', params: { product: p.nameEn, productNumber: p.productNumber } }];
      const issues: DataIssue[] = [];
      if (!same(p.nameAr, found.nameAr)) issues.push({ path: at('nameAr'), message: 'form.foodAuthorityNameArMismatch', params: { product: p.nameEn, expected: found.nameAr } });
      if (!same(p.nameEn, found.nameEn)) issues.push({ path: at('nameEn'), message: 'form.foodAuthorityNameEnMismatch', params: { product: p.nameEn, expected: found.nameEn } });
      if ((p.hsCode ?? '') !== found.hsCode) issues.push({ path: at('saudiHsCode'), message: 'form.foodAuthorityHsCodeMismatch', params: { product: p.nameEn, expected: found.hsCode } });
      return issues;
    });
  },
};

export type ImporterSection = { name: string; unifiedNumber: string; crNumber: string; registrationExpiry?: string; status?: string; activity?: string };

/**
 * The importer check of SUBMIT, also asked by the wizard's importer step (POST /api/shipment-requests/importer/check)
 * so the user is stopped there: the registry must know the unified number, hold it active and unexpired, under this CR
 * number, and the name, expiry, status and activity the form holds must be the registry's.
 */
export async function importerIssues(registry: CrRegistry, importer: ImporterSection, now: Date): Promise<DataIssue[]> {
  const found = await lookUpImporter(registry, importer.unifiedNumber);
  if (!found) return [{ path: 'importer.unifiedNumber', message: 'form.importerUnknown', params: { unifiedNumber: importer.unifiedNumber } }];
  const problem = importerProblem(found, now);
  if (problem) return [{ path: 'importer.unifiedNumber', message: problem, params: { name: found.nameAr, expiryDate: found.expiryDate } }];
  if (found.crNumber !== importer.crNumber) return [{ path: 'importer.crNumber', message: 'form.importerCrMismatch', params: { crNumber: found.crNumber } }];
  return importerMismatches(importer, found);
}

/** Text compared as a person reads it: spaces collapsed, case ignored. */
const sameText = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').trim().replace(/\s+/g, ' ').toLowerCase() === (b ?? '').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The importer fields the form holds that differ from the registry's answer, each named with the registry's value:
 * the name (Arabic or English), and when given the expiry date, the status (its code or its label in either
 * language, as the check button writes it) and the activity (Arabic or English).
 */
export function importerMismatches(importer: ImporterSection, found: ImporterRecord): DataIssue[] {
  const issues: DataIssue[] = [];
  if (!sameText(importer.name, found.nameAr) && !sameText(importer.name, found.nameEn)) {
    issues.push({ path: 'importer.name', message: 'form.importerNameMismatch', params: { nameAr: found.nameAr, nameEn: found.nameEn || found.nameAr } });
  }
  if (importer.registrationExpiry && importer.registrationExpiry !== found.expiryDate.slice(0, 10)) {
    issues.push({ path: 'importer.registrationExpiry', message: 'form.importerExpiryMismatch', params: { expiryDate: found.expiryDate.slice(0, 10) } });
  }
  const statusNames = [found.status, ...(['ar', 'en'] as const).map((lang) => tFor(lang)(`facilities:crStatus.${found.status}`, { defaultValue: found.status }))];
  if (importer.status && !statusNames.some((name) => sameText(importer.status, name))) {
    issues.push({ path: 'importer.status', message: 'form.importerStatusMismatch', params: { statusAr: statusNames[1], statusEn: statusNames[2] } });
  }
  if (importer.activity && !sameText(importer.activity, found.activity) && !sameText(importer.activity, found.activityEn)) {
    issues.push({ path: 'importer.activity', message: 'form.importerActivityMismatch', params: { activityAr: found.activity, activityEn: found.activityEn || found.activity } });
  }
  return issues;
}

type ChosenCategory = { category: string; subCategories: readonly string[] };

/**
 * The chosen categories a certificate already covers, named (CB add categories): each chosen sub-category the
 * certificate holds, even beside new ones (machines/services/readings.ts: "one it already covers is refused and
 * named"); a main category chosen whole when the certificate already covers all of it.
 */
export function categoriesAlreadyCertified(certificateCategories: readonly string[], chosen: readonly ChosenCategory[]): DataIssue[] {
  const certified = coverageOf(certificateCategories);
  return chosen.flatMap((c, index) => {
    // An unknown category is the schema's to refuse.
    if (!(c.category in CATEGORY_TREE)) return [];
    const held = c.subCategories.length
      ? c.subCategories.filter((code) => certified.has(code))
      : [...coveredCategoryCodes([{ category: c.category as MainCategory, subCategories: [] }])].every((code) => certified.has(code))
        ? [c.category]
        : [];
    return held.length ? [{ path: `categories.${index}`, message: 'form.categoryAlreadyCertified', params: { category: held.join(', ') } }] : [];
  });
}

/** Whether a set of category codes covers `code`; a main category counts as covered when any of its sub-categories is. */
function covers(covered: Set<string>, code: string): boolean {
  if (covered.has(code)) return true;
  const subs = CATEGORY_TREE[code as MainCategory] as readonly string[] | undefined;
  return (subs ?? []).some((s) => covered.has(s));
}

const hs6 = (code: string | undefined) => (code ?? '').slice(0, 6);

interface ShipmentLine {
  saudiHsCode: string;
  globalHsCode: string;
}
interface SlaughterLine extends ShipmentLine {
  slaughterFacility: string;
  category: string;
}

/**
 * Issue 13 item 7, shipment cross-checks at submission: the exporting factory holds an external Halal certificate
 * valid on the shipment date (the bill of lading's date, else the day of submission) that lists each product (by its
 * HS heading, the first six digits) or, for a slaughter, its category; and the exporting CB holds a valid designation
 * covering each line's category. Each failure names the line and the reason.
 */
async function shipmentCoverageIssues(i: CheckInput): Promise<DataIssue[]> {
  const factory = i.projection.factoryPublicId;
  const other = sectionOf<{ exportingCbPublicId: string; billOfLading?: { date: string } }>(i.def, i.context, 'other');
  if (!factory || !other) return [];
  const products = sectionOf<ShipmentLine[]>(i.def, i.context, 'products') ?? [];
  const slaughters = sectionOf<SlaughterLine[]>(i.def, i.context, 'slaughters') ?? [];
  // Without a bill of lading, the day of submission on the authority's clock (Riyadh), as the slaughter date's "today".
  const date = other.billOfLading?.date ?? riyadhDate(i.now.getTime());
  // Whole days (UTC): a certificate issued today is valid for a shipment dated today; one expiring today still is.
  const dayStart = new Date(`${date}T00:00:00Z`).getTime();

  const held = await i.db.select().from(certificates).where(and(eq(certificates.facilityPublicId, factory), eq(certificates.kind, 'externalHalal')));
  // Valid on the shipment date, and not suspended or withdrawn now.
  const inForce = held.filter((c) => c.validFrom.toISOString().slice(0, 10) <= date && c.expiresAt.getTime() > dayStart && (c.status === 1 || c.status === 3));
  if (!inForce.length) return [{ path: 'factory.facilityPublicId', message: 'form.shipmentFactoryCertificateNotValid', params: { date } }];
  // Who exports it (exporterIssues): a CB's shipment rests only on the certificates it issued itself.
  const [applicant] = await i.db.select({ publicId: facilities.publicId, type: facilities.type }).from(facilities).where(eq(facilities.publicId, i.facilityPublicId));
  const exporter = applicant ? exporterIssues(applicant, factory, other.exportingCbPublicId, inForce) : [];
  if (exporter.some((e) => e.path === 'factory.facilityPublicId')) return exporter;
  const valid = applicant?.type === 'ConformityBody' ? inForce.filter((c) => c.cbPublicId === applicant.publicId) : inForce;
  const issues: DataIssue[] = [...exporter];

  const certified = valid.flatMap((c) => c.products);
  const certifiedCategories = coverageOf(valid.flatMap((c) => [...c.categories, ...c.products.map((p) => p.category ?? '')].filter(Boolean)));
  /** Each line's category, for the CB's designation: a product's is the one its certificate lists it under. */
  const lineCategories: { path: string; product: string; category: string }[] = [];

  products.forEach((line, index) => {
    const product = line.saudiHsCode;
    const match = certified.find((p) => [hs6(p.globalHsCode), hs6(p.hsCode)].some((h) => h && (h === hs6(line.globalHsCode) || h === hs6(line.saudiHsCode))));
    if (!match) issues.push({ path: `products.${index}.saudiHsCode`, message: 'form.shipmentProductNotOnCertificate', params: { product, line: index + 1 } });
    else if (match.category) lineCategories.push({ path: `products.${index}`, product: `${match.nameEn} (${product})`, category: match.category });
  });
  slaughters.forEach((line, index) => {
    const product = line.slaughterFacility;
    if (!covers(certifiedCategories, line.category)) {
      issues.push({ path: `slaughters.${index}.category`, message: 'form.shipmentCategoryNotOnCertificate', params: { product, category: line.category, line: index + 1 } });
    } else lineCategories.push({ path: `slaughters.${index}.category`, product, category: line.category });
  });

  const designation = await latestCertificate(i.db, other.exportingCbPublicId, 'cbDesignation');
  if (!designation || !isValidCertificate(designation, i.now)) {
    issues.push({ path: 'other.exportingCbPublicId', message: 'form.exportingCbNotDesignated', params: { cb: other.exportingCbPublicId } });
    return issues;
  }
  const designated = coverageOf(designation.categories);
  for (const l of lineCategories) {
    if (!covers(designated, l.category)) issues.push({ path: l.path, message: 'form.shipmentOutsideCbDesignation', params: { product: l.product, category: l.category } });
  }
  return issues;
}

/** Runs the service's server checks, in the order the service lists them (every ServerCheck has its implementation). */
export async function runServerChecks(i: CheckInput): Promise<DataIssue[]> {
  const issues: DataIssue[] = [];
  for (const name of i.def.serverChecks) {
    issues.push(...(await CHECKS[name](i)));
  }
  return issues;
}

/** A section of the stored data read through its complete schema (for checks that need more than the projection). */
export const sectionOf = <T>(def: ServiceDefinition, context: RequestContext, key: string) => readSection<T>(def, context.data ?? {}, key);

/** Category codes a selection covers, for checks over category sections. */
export { coveredCategoryCodes };

/**
 * The external Halal certificate that holds a foreign factory for another account (externalFacilityNotTaken): issued by
 * a request of another applicant facility than `applicantFacilityPublicId` (the factory's own account, or a CB acting
 * for it), not expired. Read on submission and again before the request is paid (still-usable.ts).
 */
export async function factoryTakenBy(db: Db, factoryPublicId: string, applicantFacilityPublicId: string | undefined, now: Date): Promise<{ number: string } | undefined> {
  const taken = await db
    .select({ number: certificates.number, status: certificates.status, expiresAt: certificates.expiresAt, by: requests.facilityPublicId })
    .from(certificates)
    .innerJoin(requests, eq(requests.id, certificates.requestId))
    .where(and(eq(certificates.facilityPublicId, factoryPublicId), eq(certificates.kind, 'externalHalal'), isNull(requests.deletedAt)));
  return taken.find((c) => c.by !== applicantFacilityPublicId && c.status !== 2 && c.expiresAt.getTime() > now.getTime());
}

/**
 * The factory a request names in its `factory` section (foreignFactory): the certificate or shipment is issued to it
 * (workflows/effects.ts certificateOwner), so it must be a registered foreign factory (spec 02 section 1: external
 * certificates and shipments are for foreign factories), a foreign factory's own account may name only itself, and a
 * renewal only the factory that holds the certificate it renews. A conformity body acts for any foreign factory
 * (README, choices). Asked on submission and when a draft is started or saved with a factory (requests/service.ts).
 */
export async function namedFactoryIssues(db: Db, applicantPublicId: string, factoryPublicId: string | null | undefined, subjectHolder: string | null): Promise<DataIssue[]> {
  if (!factoryPublicId) return [];
  const path = 'factory.facilityPublicId';
  if (subjectHolder && factoryPublicId !== subjectHolder) return [{ path, message: 'form.factoryNotCertificateHolder' }];
  const rows = await db
    .select({ publicId: facilities.publicId, type: facilities.type })
    .from(facilities)
    .where(inArray(facilities.publicId, [...new Set([applicantPublicId, factoryPublicId])]));
  const typeOf = (id: string) => rows.find((r) => r.publicId === id)?.type;
  if (typeOf(applicantPublicId) === 'ExternalFacility' && factoryPublicId !== applicantPublicId) return [{ path, message: 'form.factoryNotOwn' }];
  if (typeOf(factoryPublicId) !== 'ExternalFacility') return [{ path, message: 'form.factoryNotForeign' }];
  return [];
}

/**
 * Who exports a shipment (spec 02 section 3 "exporting CB name"; section 1: shipment certificates are obtained "through
 * approved bodies"): the conformity body that issued the factory's Halal certificate. A CB's own shipment is therefore
 * exported under its own designation, for a factory it certified: naming another CB as the exporter, or a factory it
 * holds no certificate for, is refused. A foreign factory's own shipment names a CB that issued one of its certificates
 * when every certificate it holds was issued through one (one the Halal center issued leaves the choice open).
 * `certified` are the factory's external certificates to read: all of them at a draft's save (validity is the
 * submission's question), those valid on the shipment date at submission. README, choices.
 */
export function exporterIssues(
  applicant: { publicId: string; type: string },
  factoryPublicId: string | null | undefined,
  exportingCbPublicId: string | null | undefined,
  certified: readonly Pick<CertificateRow, 'cbPublicId'>[],
): DataIssue[] {
  const issues: DataIssue[] = [];
  if (applicant.type === 'ConformityBody') {
    if (exportingCbPublicId && exportingCbPublicId !== applicant.publicId) issues.push({ path: 'other.exportingCbPublicId', message: 'form.exportingCbNotApplicant', params: { cb: exportingCbPublicId } });
    if (factoryPublicId && !certified.some((c) => c.cbPublicId === applicant.publicId)) issues.push({ path: 'factory.facilityPublicId', message: 'form.factoryNotCertifiedByCb' });
    return issues;
  }
  const issuers = new Set(certified.map((c) => c.cbPublicId));
  if (exportingCbPublicId && certified.length && !issuers.has(null) && !issuers.has(exportingCbPublicId)) {
    issues.push({ path: 'other.exportingCbPublicId', message: 'form.exportingCbNotIssuer', params: { cb: exportingCbPublicId } });
  }
  return issues;
}

/** exporterIssues at a draft's doors (start with data, EDIT): over every external certificate the factory holds. */
export async function namedExporterIssues(db: Db, applicantPublicId: string, factoryPublicId: string | null, exportingCbPublicId: string | null): Promise<DataIssue[]> {
  if (!factoryPublicId && !exportingCbPublicId) return [];
  const [applicant] = await db.select({ publicId: facilities.publicId, type: facilities.type }).from(facilities).where(eq(facilities.publicId, applicantPublicId));
  if (!applicant) return [];
  const certified = factoryPublicId
    ? await db.select({ cbPublicId: certificates.cbPublicId }).from(certificates).where(and(eq(certificates.facilityPublicId, factoryPublicId), eq(certificates.kind, 'externalHalal')))
    : [];
  // Without a factory named yet, only the CB's own exporter can be asked.
  return exporterIssues(applicant, factoryPublicId, exportingCbPublicId, certified).filter((i) => factoryPublicId || i.path !== 'factory.facilityPublicId');
}

/**
 * The categories the newest designation of the CB that issued a certificate covers now (with their sub-categories), or
 * null when the Halal center issued it or the CB holds no designation: then nothing is deactivated.
 */
export async function cbCoverage(db: Db, cbPublicId: string | null): Promise<Set<string> | null> {
  if (!cbPublicId) return null;
  const designation = await latestCertificate(db, cbPublicId, 'cbDesignation');
  return designation ? coverageOf(designation.categories) : null;
}
