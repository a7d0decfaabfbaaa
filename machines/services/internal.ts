import { z } from 'zod';
import { startOf } from './start-routes';
import { createInternalRequestForm, INTERNAL_REQUEST_LIMITS, INTERNAL_REQUEST_STEPS, type TInternalRequest } from '../forms/internal-request';
import { FormMessage as M } from '../forms/messages';
import { freeTextField, requiredOrInvalid } from '../forms/fields';
import { createProductSchema, duplicateProducts, type TProduct } from '../forms/product';
import { attachmentList, attachmentListDraft, draftObject, draftList, selectionCodes, optionalField } from '../forms/parts';
import type { HsRulesSource } from '../forms/hs-relevance';
import { productShape } from '../forms/product';
import { applicationFee, auditFee, auditPlanSize, certificateFee, markFee, wholeMonthsBetween } from './fees';
import { brandNames, certificateProductOf, productKey, readSection } from './project';
import { emptyProjection, type ProjectionFn, type SectionDefinition, type ServiceDefinition } from './types';

/** Internal facility services: the Halal certificate (201), its renewal (202), added products and Halal marks. */

const RENEWAL_REASON_MAX = 500;
const NOTES_MAX = 2000;

/** Spec 02 section 3 "Renewal request: reason, additional notes" (the terms are the agreement ticked on submit). */
export const renewalSection = (): SectionDefinition => {
  const shape = { reason: freeTextField(RENEWAL_REASON_MAX), notes: optionalField(freeTextField(NOTES_MAX)) };
  return { complete: z.object(shape, { error: requiredOrInvalid }), draft: draftObject(shape).optional() };
};

export function internalServices(hsRules?: HsRulesSource): ServiceDefinition[] {
  const form = createInternalRequestForm({ hsRules });
  const steps = INTERNAL_REQUEST_STEPS.filter((s) => s !== 'agreement');
  const sections: Record<string, SectionDefinition> = Object.fromEntries(
    steps.map((s) => [s, { draft: form.drafts[s], complete: form.steps[s], ...(s === 'products' ? { maxBytes: 1024 * 1024 } : {}) }]),
  );

  const projectCertificateRequest: ProjectionFn = (data) => {
    const read = <K extends keyof TInternalRequest>(k: K) => readSection<TInternalRequest[K]>({ sections }, data, k);
    const products = read('products') ?? [];
    const trademarks = read('trademarks') ?? [];
    return {
      ...emptyProjection(),
      products: products.map(certificateProductOf),
      categories: selectionCodes(read('categories') ?? []),
      brandNames: brandNames(trademarks.flatMap((t) => [t.nameAr, t.nameEn]), products.flatMap((p) => [p.brandAr, p.brandEn])),
      validityYears: read('validity')?.years ?? null,
      attachmentIds: (read('attachments') ?? []).map((a) => a.id),
    };
  };

  const certificate: ServiceDefinition = {
    kind: 'internalCertificate',
    requestType: 201,
    titleKey: 'services:internalCertificate.title',
    facilityTypes: ['internal'],
    subject: { type: 'facility' },
    preconditions: [{ type: 'notBlockedByExpiredCertificate' }],
    sections,
    crossRules: form.crossRules,
    // Spec 02 section 5 "product data must match the food authority system": every service that carries products checks them.
    serverChecks: ['attachmentsBelongToRequest', 'foodAuthorityProducts'],
    outcome: 'issuesCertificate',
    attachmentSection: 'attachments',
    project: projectCertificateRequest,
    fees: {
      application: ({ schedule }) => applicationFee(schedule),
      auditFees: ({ schedule, context }) => auditFee(schedule, auditPlanSize(context.auditPlan)),
      certificate: ({ schedule, projection, context }) =>
        certificateFee(schedule.internalCertificateYear, projection.validityYears ?? 1, context.paymentOption ?? 'yearly'),
    },
    feeReadings: {
      application: 'request study fee (service 1), billed on submission',
      auditFees: 'audit fee per auditor and visit day of the accepted audit plan',
      certificate: 'certificate fee per year of the validity the applicant chose: "yearly" bills one year now and each following year on its anniversary, "full" bills every year at once',
    },
    feeDisplay: 'excludingVat',
    ...startOf('internalCertificate', '/internal-halal-request'),
  };

  const renewal: ServiceDefinition = {
    ...certificate,
    kind: 'internalRenewal',
    prefill: 'subjectRequest',
    requestType: 202,
    titleKey: 'services:internalRenewal.title',
    subject: { type: 'certificate', certificateKinds: ['internalHalal'] },
    preconditions: [{ type: 'renewalWindow', threshold: 'expiringSoonDays' }, { type: 'oneOpenPerSubject' }],
    // The reason first, as the renewal began before it had a wizard: the other steps arrive filled from the certified
    // request (prefill) and are only looked over, so the one step the applicant must write is where the wizard opens.
    sections: { renewal: renewalSection(), ...sections },
    fees: {
      ...certificate.fees,
      renewal: ({ schedule, projection, context }) =>
        certificateFee(schedule.internalCertificateYear, projection.validityYears ?? 1, context.paymentOption ?? 'yearly'),
    },
    feeReadings: {
      ...certificate.feeReadings,
      renewal: 'renewal fee: the certificate fee for the renewed validity, by the chosen payment way',
    },
    ...startOf('internalRenewal', '/internal-halal-request'),
  };

  // Added products: the same product rules and HS-code eligibility as the certificate wizard.
  const addProductsSections: Record<string, SectionDefinition> = {
    products: productsSection(hsRules),
    attachments: {
      complete: attachmentList(ADD_PRODUCTS_ATTACHMENTS),
      draft: attachmentListDraft(ADD_PRODUCTS_ATTACHMENTS),
    },
  };
  const addProducts: ServiceDefinition = {
    kind: 'internalAddProducts',
    requestType: 201,
    titleKey: 'services:internalAddProducts.title',
    facilityTypes: ['internal'],
    subject: { type: 'certificate', certificateKinds: ['internalHalal'] },
    preconditions: [{ type: 'validCertificate', certificateKinds: ['internalHalal'] }, { type: 'notBlockedByExpiredCertificate' }],
    sections: addProductsSections,
    serverChecks: ['attachmentsBelongToRequest', 'productsNotOnCertificate', 'productsNotAskedElsewhere', 'withinFacilityCertificate', 'foodAuthorityProducts'],
    outcome: 'changesCertificate',
    attachmentSection: 'attachments',
    project: (data) => {
      const products = readSection<TProduct[]>({ sections: addProductsSections }, data, 'products') ?? [];
      return {
        ...emptyProjection(),
        products: products.map(certificateProductOf),
        categories: [...new Set(products.map((p) => p.category))],
        brandNames: brandNames(products.flatMap((p) => [p.brandAr, p.brandEn])),
        attachmentIds: (readSection<{ id: string }[]>({ sections: addProductsSections }, data, 'attachments') ?? []).map((a) => a.id),
      };
    },
    fees: { addProducts: ({ schedule }) => applicationFee(schedule) },
    feeReadings: { addProducts: 'the request study fee (service 1), once per add-products request' },
    feeDisplay: 'excludingVat',
    ...startOf('internalAddProducts', '/internal-halal-request'),
  };

  return [certificate, renewal, addProducts, markService('internalHalalMark', 'internal')];
}

/** Attachments of an add-products request: product evidence, none required beyond the products themselves. */
export const ADD_PRODUCTS_ATTACHMENTS = {
  allowed: ['productCatalogue', 'productPhoto', 'productFiles', 'productIdentificationForm', 'testCertificate', 'requestNote'] as const,
  required: [] as const,
};

/** The products a mark request chooses from its certificate, and the package of tags it buys. */
const markProductShape = () => ({
  nameAr: z.string({ error: requiredOrInvalid }).trim().min(1, M.required).max(100, M.nameTooLong),
  nameEn: z.string({ error: requiredOrInvalid }).trim().min(1, M.required).max(100, M.nameTooLong),
  brandAr: optionalField(z.string().trim().max(100, M.nameTooLong)),
  brandEn: optionalField(z.string().trim().max(100, M.nameTooLong)),
  productNumber: optionalField(z.string().trim().max(40, M.invalid)),
  /** Spec 02 section 3: a Halal mark issued by a CB has scope Saudi or Global. */
  scope: z.enum(['Saudi', 'Global'], { error: requiredOrInvalid }),
});
const MARK_PRODUCTS_MAX = 500;

/** Products a request puts on a certificate (internal and external additions, the external certificate). */
export function productsSection(hsRules?: HsRulesSource): SectionDefinition {
  return {
    complete: z
      .array(createProductSchema(hsRules), { error: requiredOrInvalid })
      .min(1, M.productRequired)
      .max(INTERNAL_REQUEST_LIMITS.products, M.tooManyProducts)
      .superRefine((items: TProduct[], ctx) => {
        for (const d of duplicateProducts(items)) ctx.addIssue({ code: 'custom', message: M.productDuplicate, path: [d.index, d.field] });
      }),
    draft: draftList(productShape(hsRules), INTERNAL_REQUEST_LIMITS.products),
    maxBytes: 1024 * 1024,
  };
}

/**
 * Halal-mark requests (internal and external): products of the subject certificate, one mark each, and a package of
 * tags. The package limits (N to M in steps, base products per year) are administrator settings, so the server checks
 * them on submission ('markPackage'). Reading of "packages ... base about 8 products per year ... the balance carries
 * over as credit": a tag is one product's mark for the package's year, so the package is billed per tag (the fee counts
 * the products it covers, pro rata when less than a year remains); the products chosen now get their marks and the
 * other tags are the pre-issued balance, credited once against a later package of the same certificate.
 */
export function markService(kind: 'internalHalalMark' | 'externalHalalMark', facility: 'internal' | 'external'): ServiceDefinition {
  const productsComplete = z
    .array(z.object(markProductShape(), { error: M.invalid }), { error: requiredOrInvalid })
    .min(1, M.productRequired)
    .max(MARK_PRODUCTS_MAX, M.tooManyProducts)
    // One mark per product (spec 02 section 1 "marks per product"; section 5 "product already added is rejected"): a
    // product chosen twice would be issued two marks and counted twice on the bill.
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((p, i) => {
        const key = productKey(p);
        if (seen.has(key)) ctx.addIssue({ code: 'custom', message: M.productDuplicate, path: [i, 'nameEn'] });
        seen.add(key);
      });
    });
  const packageShape = { tags: z.preprocess((v) => (typeof v === 'string' && v.trim() ? Number(v) : v), z.number({ error: requiredOrInvalid }).int(M.integerOnly).min(1, M.invalid).max(100_000, M.invalid)) };
  const sections: Record<string, SectionDefinition> = {
    products: { complete: productsComplete, draft: draftList(markProductShape(), MARK_PRODUCTS_MAX) },
    // The package rule holds on its step too (the administrator's limits, said with them).
    package: { complete: z.object(packageShape, { error: requiredOrInvalid }), draft: draftObject(packageShape).optional(), stepChecks: ['markPackage'] },
  };
  const certificateKinds = facility === 'internal' ? (['internalHalal'] as const) : (['externalHalal'] as const);
  return {
    kind,
    requestType: facility === 'internal' ? 201 : 10,
    titleKey: `services:${kind}.title`,
    facilityTypes: facility === 'internal' ? ['internal'] : ['external', 'cb'],
    subject: { type: 'certificate', certificateKinds },
    preconditions: [
      ...(facility === 'internal' ? [] : [{ type: 'cbAcceptanceValid' } as const, { type: 'cbDesignationValid' } as const]),
      { type: 'validCertificate', certificateKinds },
      // Less than a whole month left would price the package at 0.00 and issue marks for days (README, choices).
      { type: 'aMonthLeftOnSubject' },
      { type: 'notBlockedByExpiredCertificate' },
    ],
    sections,
    serverChecks: ['productsOnCertificate', 'markPackage'],
    outcome: 'issuesMarks',
    project: (data) => {
      const products = readSection<z.infer<typeof productsComplete>>({ sections }, data, 'products') ?? [];
      const pack = readSection<{ tags: number }>({ sections }, data, 'package');
      return {
        ...emptyProjection(),
        products: products.map((p) => ({ nameAr: p.nameAr, nameEn: p.nameEn, brandAr: p.brandAr, brandEn: p.brandEn, productNumber: p.productNumber })),
        brandNames: brandNames(products.flatMap((p) => [p.brandAr, p.brandEn])),
        scope: products[0]?.scope ?? null,
        marks: { products: products.length, tags: pack?.tags ?? products.length, scopes: products.map((p) => p.scope) },
      };
    },
    fees: {
      halalMark: ({ schedule, projection, subjectExpiresAt, now }) =>
        markFee(schedule, projection.marks?.tags ?? projection.marks?.products ?? 0, subjectExpiresAt ? Math.min(12, wholeMonthsBetween(now, subjectExpiresAt)) : 12),
    },
    feeReadings: {
      halalMark:
        'the package: mark fee per tag (one tag = one product’s mark for the package’s year, so the fee counts the products the package covers), pro-rated by the whole months the certificate has left when less than a year remains; the unused tags of the certificate’s earlier paid packages are credited against it once, never below zero (workflows/mark-credit.ts)',
    },
    feeDisplay: 'excludingVat',
    ...startOf(kind, facility === 'internal' ? '/internal-halal-request' : '/halal-request'),
  };
}
