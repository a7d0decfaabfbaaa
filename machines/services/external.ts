import { z } from 'zod';
import { startOf } from './start-routes';
import { OPERATIONS, type Operation } from '../forms/catalogues';
import { FormMessage as M } from '../forms/messages';
import { areaField, countField, requiredOrInvalid } from '../forms/fields';
import type { TProduct } from '../forms/product';
import type { HsRulesSource } from '../forms/hs-relevance';
import { attachmentList, attachmentListDraft, draftList, draftObject, enumField, type AttachmentRules } from '../forms/parts';
import { applicationFee, certificateFee } from './fees';
import { brandNames, certificateProductOf, readSection } from './project';
import { markService, productsSection, renewalSection } from './internal';
import { emptyProjection, type ProjectionFn, type SectionDefinition, type ServiceDefinition } from './types';

/**
 * Foreign-factory services: the external Halal certificate (type 10, set A), its renewal and added products (set B),
 * and external Halal marks. Started from a CB's context (the routes carry the CB's public id) or by the factory's own
 * users; the factory the certificate is for is chosen in the wizard (section `factory`).
 */

const uuid = () => z.uuid({ error: M.invalid });

/** Spec 02 section 3 "External request" attachments: operation plan per operation, quality guide, final acknowledgment. */
export const EXTERNAL_REQUEST_ATTACHMENTS: AttachmentRules = {
  allowed: ['qualityGuide', 'finalAcknowledgment', 'productCatalogue', 'productPhoto', 'testCertificate', 'requestNote', 'commitment'],
  required: ['finalAcknowledgment'],
};

const factoryShape = () => ({
  /** The external facility the certificate is for. */
  facilityPublicId: z.string({ error: requiredOrInvalid }).trim().min(1, M.required).max(100, M.invalid),
  productionLines: countField(1, 999, M.productionLinesRange),
  criticalPoints: countField(0, 999, M.haccpRange),
  permanentHalalEmployees: countField(1, 999_999, M.employeesRange),
  shifts: countField(1, 10, M.shiftsRange),
  productionArea: areaField(),
});

const paymentWayShape = () => ({
  /** Spec 01 section 9: yearly instalments or the full amount at once. */
  way: z.enum(['yearly', 'full'], { error: requiredOrInvalid }),
  validityYears: countField(1, 3, M.validityRange),
});

const operationShape = () => ({ operation: enumField<Operation>(OPERATIONS, M.operationInvalid), planAttachmentId: uuid() });

function externalSections(hsRules?: HsRulesSource): Record<string, SectionDefinition> {
  return {
    factory: { complete: z.object(factoryShape(), { error: requiredOrInvalid }), draft: draftObject(factoryShape()).optional(), prefill: 'facilityRecord' },
    paymentWay: { complete: z.object(paymentWayShape(), { error: requiredOrInvalid }), draft: draftObject(paymentWayShape()).optional() },
    operations: {
      complete: z
        .array(z.object(operationShape(), { error: M.invalid }), { error: requiredOrInvalid })
        .min(1, M.operationRequired)
        .max(OPERATIONS.length, M.tooManyItems)
        .superRefine((items, ctx) => {
          const seen = new Set<string>();
          items.forEach((o, i) => {
            if (seen.has(o.operation)) ctx.addIssue({ code: 'custom', message: M.operationDuplicate, path: [i, 'operation'] });
            seen.add(o.operation);
          });
        }),
      draft: draftList(operationShape(), OPERATIONS.length),
    },
    products: productsSection(hsRules),
    attachments: { complete: attachmentList(EXTERNAL_REQUEST_ATTACHMENTS), draft: attachmentListDraft(EXTERNAL_REQUEST_ATTACHMENTS) },
  };
}

/**
 * Where an issued external certificate request keeps what the applicant asked to add (set A: ADD_PRODUCTS 105 -> 107 ->
 * 108, ADD_CATEGORIES 105 -> 131 -> 132; machines/request-setup.ts records them). The products were parsed by the
 * products section's schema when the event was accepted (machines/validate-event.ts).
 */
export const REQUESTED_PRODUCTS = 'requestedProducts';
export const REQUESTED_CATEGORIES = 'requestedCategories';
const ZRequestedCategories = z.array(z.string().trim().min(1).max(40)).max(100);

function projectExternal(sections: Record<string, SectionDefinition>): ProjectionFn {
  return (data) => {
    // The products the request puts on its certificate: those it was issued with, then those asked for since (108).
    const requested = sections.products?.complete.safeParse(data[REQUESTED_PRODUCTS]);
    const requestedCategories = ZRequestedCategories.safeParse(data[REQUESTED_CATEGORIES]);
    const products = [...(readSection<TProduct[]>({ sections }, data, 'products') ?? []), ...(requested?.success ? (requested.data as TProduct[]) : [])];
    const way = readSection<{ way: 'yearly' | 'full'; validityYears: number }>({ sections }, data, 'paymentWay');
    const operations = readSection<{ planAttachmentId: string }[]>({ sections }, data, 'operations') ?? [];
    const attachments = readSection<{ id: string }[]>({ sections }, data, 'attachments') ?? [];
    return {
      ...emptyProjection(),
      products: products.map(certificateProductOf),
      categories: [...new Set([...products.map((p) => p.category), ...(requestedCategories.success ? requestedCategories.data : [])])],
      brandNames: brandNames(products.flatMap((p) => [p.brandAr, p.brandEn])),
      validityYears: way?.validityYears ?? null,
      paymentWay: way?.way ?? null,
      factoryPublicId: readSection<{ facilityPublicId: string }>({ sections }, data, 'factory')?.facilityPublicId ?? null,
      attachmentIds: [...operations.map((o) => o.planAttachmentId), ...attachments.map((a) => a.id)],
    };
  };
}

export function externalServices(hsRules?: HsRulesSource): ServiceDefinition[] {
  const sections = externalSections(hsRules);
  const certificateFees = ({ schedule, projection }: Parameters<NonNullable<ServiceDefinition['fees']['certificate']>>[0]) =>
    certificateFee(schedule.externalCertificateYear, projection.validityYears ?? 1, projection.paymentWay ?? 'yearly');
  const certificate: ServiceDefinition = {
    kind: 'externalCertificate',
    requestType: 10,
    titleKey: 'services:externalCertificate.title',
    facilityTypes: ['external', 'cb'],
    subject: { type: 'facility' },
    preconditions: [{ type: 'cbAcceptanceValid' }, { type: 'cbDesignationValid' }, { type: 'notBlockedByExpiredCertificate' }],
    sections,
    serverChecks: ['attachmentsBelongToRequest', 'foreignFactory', 'withinCbDesignation', 'externalFacilityNotTaken', 'foodAuthorityProducts'],
    outcome: 'issuesCertificate',
    attachmentSection: 'attachments',
    project: projectExternal(sections),
    fees: { certificate: certificateFees, addProducts: ({ schedule }) => applicationFee(schedule) },
    laterFees: ['addProducts'],
    feeReadings: {
      certificate: 'certificate fee per year of the chosen validity, by the payment way (yearly: one year now and each anniversary; full: every year at once)',
      addProducts: 'products added to the issued certificate (set A, status 107): the request study fee, billed at the month-end invoice after registration accepts',
    },
    feeDisplay: 'excludingVat',
    ...startOf('externalCertificate', '/halal-request'),
  };
  const renewalSections = { ...sections, renewal: renewalSection() };
  const renewal: ServiceDefinition = {
    ...certificate,
    kind: 'externalRenewal',
    prefill: 'subjectRequest',
    requestType: 10,
    titleKey: 'services:externalRenewal.title',
    subject: { type: 'certificate', certificateKinds: ['externalHalal'] },
    preconditions: [{ type: 'cbAcceptanceValid' }, { type: 'cbDesignationValid' }, { type: 'renewalWindow', threshold: 'expiringSoonDays' }, { type: 'oneOpenPerSubject' }],
    sections: renewalSections,
    serverChecks: ['attachmentsBelongToRequest', 'foreignFactory', 'withinCbDesignation', 'foodAuthorityProducts'],
    outcome: 'issuesCertificate',
    project: projectExternal(renewalSections),
    fees: { renewal: certificateFees },
    feeReadings: { renewal: 'the certificate fee for the renewed validity, by the payment way' },
    ...startOf('externalRenewal', '/halal-request'),
  };
  const addSections: Record<string, SectionDefinition> = {
    products: productsSection(hsRules),
    attachments: { complete: attachmentList({ allowed: EXTERNAL_REQUEST_ATTACHMENTS.allowed, required: [] }), draft: attachmentListDraft(EXTERNAL_REQUEST_ATTACHMENTS) },
  };
  const addProducts: ServiceDefinition = {
    kind: 'externalAddProducts',
    requestType: 10,
    titleKey: 'services:externalAddProducts.title',
    facilityTypes: ['external', 'cb'],
    subject: { type: 'certificate', certificateKinds: ['externalHalal'] },
    preconditions: [{ type: 'cbAcceptanceValid' }, { type: 'cbDesignationValid' }, { type: 'validCertificate', certificateKinds: ['externalHalal'] }],
    sections: addSections,
    // Like the internal add-products service (issue 14): added products stay inside the certificate's categories; new
    // categories come through the certificate's own add-categories route (ADD_CATEGORIES), not with a product.
    serverChecks: ['attachmentsBelongToRequest', 'productsNotOnCertificate', 'withinFacilityCertificate', 'withinCbDesignation', 'foodAuthorityProducts'],
    outcome: 'changesCertificate',
    attachmentSection: 'attachments',
    project: projectExternal(addSections),
    fees: { addProducts: ({ schedule }) => applicationFee(schedule) },
    feeReadings: { addProducts: 'the request study fee (service 1), once per add-products request' },
    feeDisplay: 'excludingVat',
    ...startOf('externalAddProducts', '/halal-request'),
  };
  return [certificate, renewal, addProducts, markService('externalHalalMark', 'external')];
}
