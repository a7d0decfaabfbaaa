import { z } from 'zod';
import { startOf } from './start-routes';
import { OPERATIONS, type Operation } from '../forms/catalogues';
import { FormMessage as M } from '../forms/messages';
import { addressField, arabicNameField, englishNameField, freeTextField, nameLikeField, requiredOrInvalid } from '../forms/fields';
import {
  categorySelection,
  categorySelectionDraft,
  draftObject,
  draftShape,
  enumField,
  noDuplicateStrings,
  optionalField,
  selectionCodes,
  type TCategorySelection,
} from '../forms/parts';
import { toHalalas } from './fees';
import { readSection } from './project';
import { renewalSection } from './internal';
import { emptyProjection, type ProjectionFn, type SectionDefinition, type ServiceDefinition } from './types';

/**
 * Conformity-body services: the designation certificate (request type 0), its renewal (2 / 600 / CbaRenewalRequest)
 * and added categories (300). The wizard of spec 02 section 2: facility info, certificates and specifications,
 * categories, operations, agreement (the agreement is ticked on submit).
 */

const uuid = () => z.uuid({ error: M.invalid });

const facilityInfoShape = () => ({
  nameAr: arabicNameField(),
  nameEn: englishNameField(),
  /** ISO 3166-1 alpha-2. */
  countryCode: z.string({ error: requiredOrInvalid }).trim().toUpperCase().regex(/^[A-Z]{2}$/, M.invalid),
  city: nameLikeField(),
  address: addressField(),
});

const certificateShape = () => ({ name: freeTextField(200), attachmentId: uuid() });

const certificatesShape = () => ({
  /** Spec 02 section 5: at least one certificate and one specification. */
  certificates: z.array(z.object(certificateShape(), { error: M.invalid }), { error: requiredOrInvalid }).min(1, M.required).max(20, M.tooManyItems),
  specifications: z
    .array(freeTextField(200), { error: requiredOrInvalid })
    .min(1, M.required)
    .max(50, M.tooManyItems)
    .superRefine(noDuplicateStrings(M.invalid)),
  /** "An optional other third-party certificate with name and file" (spec 02 section 3). */
  otherCertificate: optionalField(z.object(certificateShape(), { error: M.invalid })),
});

const operationsShape = () => ({
  items: z
    .array(enumField<Operation>(OPERATIONS, M.operationInvalid), { error: requiredOrInvalid })
    .min(1, M.operationRequired)
    .max(OPERATIONS.length, M.tooManyItems)
    .superRefine(noDuplicateStrings(M.operationDuplicate)),
  /** Spec 02 section 3 "local activities". */
  localActivities: optionalField(freeTextField(2000)),
});

const designationSections = (): Record<string, SectionDefinition> => ({
  facilityInfo: { complete: z.object(facilityInfoShape(), { error: requiredOrInvalid }), draft: draftObject(facilityInfoShape()).optional() },
  certificatesAndSpecifications: {
    complete: z.object(certificatesShape(), { error: requiredOrInvalid }),
    draft: z.object(draftShape(certificatesShape()), { error: M.invalid }).optional(),
  },
  categories: { complete: categorySelection(), draft: categorySelectionDraft() },
  operations: { complete: z.object(operationsShape(), { error: requiredOrInvalid }), draft: draftObject(operationsShape()).optional() },
});

function projectCb(sections: Record<string, SectionDefinition>): ProjectionFn {
  return (data, context) => {
    const certs = readSection<z.infer<z.ZodObject<ReturnType<typeof certificatesShape>>>>({ sections }, data, 'certificatesAndSpecifications');
    return {
      ...emptyProjection(),
      categories: selectionCodes(readSection<TCategorySelection>({ sections }, data, 'categories') ?? []),
      cbPublicId: context.facilityId,
      scope: null,
      attachmentIds: certs ? [...certs.certificates, ...(certs.otherCertificate ? [certs.otherCertificate] : [])].map((c) => c.attachmentId) : [],
    };
  };
}

export function cbServices(): ServiceDefinition[] {
  const sections = designationSections();
  const designation: ServiceDefinition = {
    kind: 'cbDesignation',
    requestType: 0,
    titleKey: 'services:cbDesignation.title',
    facilityTypes: ['cb'],
    subject: { type: 'facility' },
    preconditions: [{ type: 'cbAcceptanceValid' }, { type: 'cbHoldsNoDesignation' }],
    sections,
    serverChecks: ['attachmentsBelongToRequest'],
    outcome: 'issuesCertificate',
    attachmentSection: 'certificatesAndSpecifications',
    project: projectCb(sections),
    // The request study fee is exempted (spec 02 section 1): no application fee. The appointment request (service 1)
    // is billed when the applicant accepts the audit plan, the appointment (service 5) after the committee approves.
    fees: {
      auditFees: ({ schedule }) => toHalalas(schedule.cbAppointmentRequest),
      certificate: ({ schedule }) => toHalalas(schedule.cbDesignation),
    },
    feeReadings: {
      auditFees: 'appointment request fee (service 1), billed when the applicant accepts the audit plan; the request study fee is exempt',
      certificate: 'appointment fee (service 5), billed after the decision committee approves',
    },
    feeDisplay: 'excludingVat',
    ...startOf('cbDesignation', '/halal-request'),
  };
  const renewalSections = { ...sections, renewal: renewalSection() };
  const renewal: ServiceDefinition = {
    ...designation,
    kind: 'cbRenewal',
    prefill: 'subjectRequest',
    requestType: 600,
    titleKey: 'services:cbRenewal.title',
    subject: { type: 'certificate', certificateKinds: ['cbDesignation'] },
    preconditions: [{ type: 'cbAcceptanceValid' }, { type: 'renewalWindow', threshold: 'cbRenewalPromptDays' }, { type: 'oneOpenPerSubject' }],
    sections: renewalSections,
    project: projectCb(renewalSections),
    fees: { renewal: ({ schedule }) => toHalalas(schedule.cbRenewal) },
    feeReadings: { renewal: 'designation renewal fee, shown including VAT' },
    feeDisplay: 'includingVat',
    ...startOf('cbRenewal', '/halal-request'),
  };
  const addSections: Record<string, SectionDefinition> = { categories: { complete: categorySelection(), draft: categorySelectionDraft() } };
  const addCategories: ServiceDefinition = {
    kind: 'cbAddCategories',
    requestType: 300,
    titleKey: 'services:cbAddCategories.title',
    facilityTypes: ['cb'],
    subject: { type: 'certificate', certificateKinds: ['cbDesignation'] },
    preconditions: [{ type: 'cbAcceptanceValid' }, { type: 'validCertificate', certificateKinds: ['cbDesignation'] }, { type: 'oneOpenPerSubject' }],
    sections: addSections,
    serverChecks: ['categoriesNotOnCertificate'],
    outcome: 'changesCertificate',
    project: projectCb(addSections),
    fees: {},
    feeReadings: {},
    feeDisplay: 'excludingVat',
    ...startOf('cbAddCategories', '/halal-request'),
  };
  return [designation, renewal, addCategories];
}
