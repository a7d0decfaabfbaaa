import type { z } from 'zod';
import type { CertificateKind, FeeKind } from '../effects';
import type { MachineKind, RequestContext } from '../types';
import type { FeeSchedule } from './settings';

/**
 * The service contract: one definition per request kind says WHAT the request is (who may start it, its data and
 * how it is checked, what it costs, how the wizard walks it); its machine says WHEN and WHO. Every door (the
 * generic request calls, a service's own convenience calls, both engine adapters) validates through the same
 * definition, and fees and effects read only its typed projection. Pure: shared by the server and the web.
 */

/** Lifecycles of entities other transitions create; nobody starts them as a request. */
export const ENTITY_KINDS = ['bill', 'certificate', 'halalMark', 'delegation'] as const satisfies readonly MachineKind[];
export type EntityKind = (typeof ENTITY_KINDS)[number];
export type RequestKind = Exclude<MachineKind, EntityKind>;

/** Spec 01 section 3: facility types (a conformity body is a facility of its own type here). */
export const FACILITY_TYPES = ['internal', 'external', 'cb'] as const;
export type FacilityType = (typeof FACILITY_TYPES)[number];

/** The certificates table's kinds (db/schema/certificates.ts). */
export type CertificateTableKind = 'internalHalal' | 'externalHalal' | 'cbDesignation' | 'shipment' | 'halalMark';

/**
 * What must hold before a request of the kind may start (and again when it is submitted). Declarative: the server
 * evaluates them against the database (server/modules/requests/preconditions.ts) with the current settings.
 */
export type Precondition =
  /** The request's subject certificate (or, without one, the facility's newest certificate of these kinds) is valid: active or expiring soon, not expired, not suspended. */
  | { type: 'validCertificate'; certificateKinds: readonly CertificateTableKind[] }
  /** Renewal opens when the subject certificate has at most `threshold` days left, or has expired, and is not suspended. It makes the service a renewal (renewalWindowOf). */
  | { type: 'renewalWindow'; threshold: 'expiringSoonDays' | 'cbRenewalPromptDays' }
  /** Spec 02 section 4: an expired Halal certificate blocks the facility's other services until renewed. */
  | { type: 'notBlockedByExpiredCertificate' }
  /** Spec 02 section 4 / 8: an expired acceptance or notification certificate blocks every CB service. */
  | { type: 'cbAcceptanceValid' }
  /** A conformity body acting for a factory holds a designation that is neither expired nor suspended (spec 02 section 4: an expired certificate cannot be used). */
  | { type: 'cbDesignationValid' }
  /**
   * The conformity body holds no designation that has not expired (in force or suspended): a designation is requested
   * once and then renewed (spec 02 section 1 "issue, renew"); after it expires the CB may request one again.
   */
  | { type: 'cbHoldsNoDesignation' }
  /** One open request of this kind per subject certificate at a time (a second renewal of the same certificate is refused). */
  | { type: 'oneOpenPerSubject' }
  /**
   * The subject certificate has at least one whole month of validity left (Halal marks: a mark never outlives its
   * certificate and is priced per whole month left, so with less than a month it would be issued for nothing).
   */
  | { type: 'aMonthLeftOnSubject' };

/** Where a request starts from: a facility, or one of the facility's certificates (renewals, changes, marks). */
export type ServiceSubject =
  | { type: 'facility' }
  | { type: 'certificate'; certificateKinds: readonly CertificateTableKind[] };

/** One section of the request data (a wizard step). EDIT stores what `draft` parses; SUBMIT needs `complete`. */
export interface SectionDefinition {
  /** A draft's section: every field optional, the filled ones valid; its output is what is stored. */
  draft: z.ZodType;
  /** The section as submission needs it. */
  complete: z.ZodType;
  /** Largest stored (parsed) size in bytes of JSON; default SECTION_MAX_BYTES. */
  maxBytes?: number;
  /**
   * Server checks the wizard also runs when this step is left (once the section's own rules pass), so the applicant
   * is stopped where the problem is, not only at submission. Each must be one of the definition's `serverChecks`.
   */
  stepChecks?: readonly StepCheck[];
  /**
   * What the wizard shows and fills in above this step's inputs. `facilityRecord`: the section names a facility
   * (`facilityPublicId`); its record's address and country are shown, and the section's fields the record holds are
   * filled in while empty, left editable (web/src/routes/services/FactoryPrefill.tsx).
   */
  prefill?: SectionPrefill;
}

/** The prefills a section may declare (`SectionDefinition.prefill`). */
export type SectionPrefill = 'facilityRecord';

/** A problem of the request data: the dotted path from the data's root (`products.2.netWeight`) and a message key. */
export interface DataIssue {
  path: string;
  message: string;
  params?: Record<string, unknown>;
}

/** A rule across sections, shown at the step (section) that completes it, checked only when its sections are valid. */
export interface CrossRule {
  section: string;
  needs: readonly string[];
  check(data: Record<string, unknown>, issue: (message: string, path: readonly (string | number)[]) => void): void;
}

/** Checks that need the database or an external service; the server runs them on SUBMIT and RESUBMIT (names only here). */
export type ServerCheck =
  /** Every attachment the data lists exists, is not deleted and belongs to this request. */
  | 'attachmentsBelongToRequest'
  /** Products already on the subject certificate are dropped, and the user is told which (spec 02 section 4). */
  | 'productsNotOnCertificate'
  /** No product another request of the same kind about the same certificate has been paid for and waits to add. */
  | 'productsNotAskedElsewhere'
  /** Each chosen category adds something the subject certificate does not list yet (CB add categories). */
  | 'categoriesNotOnCertificate'
  /** Categories and products inside the CB's designation (spec 02 section 8: "product 119", sub-category not in CB certificate). */
  | 'withinCbDesignation'
  /** Categories inside the facility's certificate (spec 02 section 8: sub-category not in facility certificate). */
  | 'withinFacilityCertificate'
  /** Product data matches the food-authority product system (spec 02 section 5). */
  | 'foodAuthorityProducts'
  /** The importer's unified number was verified against the commercial registry (spec 02 section 5). */
  | 'importerVerified'
  /** Shipments: the factory's certificate is valid on the shipment date and lists each line; the exporting CB's designation covers it (issue 13 item 7). */
  | 'shipmentCovered'
  /** Another account already holds a completed certificate request for the same external facility (spec 02 section 4). */
  | 'externalFacilityNotTaken'
  /** The factory a request names is a registered foreign factory the applicant may ask for (README, choices). */
  | 'foreignFactory'
  /** Every product the request names is on its subject certificate (Halal marks are per certified product). */
  | 'productsOnCertificate'
  /** The Halal-mark package is within the administrator's limits (N to M tags, in steps). */
  | 'markPackage';

/**
 * The server checks a section may also declare as its step check (`SectionDefinition.stepChecks`): those the web can run
 * on the step (web/src/routes/services/step-checks.tsx holds how, one entry per name).
 */
export type StepCheck = Extract<ServerCheck, 'markPackage' | 'importerVerified'>;

/** A product as a certificate (and a Halal mark) lists it. */
export interface CertificateProduct {
  nameAr: string;
  nameEn: string;
  brandAr?: string;
  brandEn?: string;
  hsCode?: string;
  globalHsCode?: string;
  productNumber?: string;
  category?: string;
  /**
   * Shipment certificates list the consignment's goods: a product line (`line: 'product'`, named after the factory's
   * certified product of the same HS code) or a slaughter line (`line: 'slaughter'`, named by its cutting type), each
   * with its quantity (product lines), net weight and unit (spec 02 "Units": 0 kg, 1 g, 2 mg, 3 kl, 4 l, 5 ml).
   */
  line?: 'product' | 'slaughter';
  quantity?: number;
  netWeight?: number;
  unit?: number;
  slaughterFacility?: string;
}

/**
 * The typed reading of a request's data that fees and effects use. Each service's `project` builds it from its own
 * (validated) sections; nothing else reads raw request data.
 */
export interface Projection {
  /** Products the request puts on a certificate (or marks). */
  products: CertificateProduct[];
  /** Category codes the request covers ('01' a whole main category, '01/01.1' a chosen sub-category). */
  categories: string[];
  /** Brand and trademark names, for the staff "brand name" filter. */
  brandNames: string[];
  /** Validity the applicant chose, in years (certificates). */
  validityYears: number | null;
  /** Payment way chosen in the wizard (external requests); internal requests choose it as an event. */
  paymentWay: 'yearly' | 'full' | null;
  /** Shipments: total net weight in grams and the goods that select the payment service (2 other, 3 poultry, 4 meat). */
  shipment: { netGrams: number; goods: 'meat' | 'poultry' | 'other' } | null;
  /** Halal-mark packages: tags bought, products marked, and each product's scope (Saudi or Global), in the products' order. */
  marks: { tags: number; products: number; scopes?: string[] } | null;
  /** External requests: the factory the certificate is for; shipments: the exporting factory. */
  factoryPublicId: string | null;
  /** The CB the certificate is issued by (external) or for (CB requests). */
  cbPublicId: string | null;
  scope: string | null;
  /** Attachments the data lists. */
  attachmentIds: string[];
}

export const emptyProjection = (): Projection => ({
  products: [],
  categories: [],
  brandNames: [],
  validityYears: null,
  paymentWay: null,
  shipment: null,
  marks: null,
  factoryPublicId: null,
  cbPublicId: null,
  scope: null,
  attachmentIds: [],
});

/** What a fee rule reads. Amounts are halalas (1 SAR = 100). */
export interface FeeInput {
  projection: Projection;
  /** The request's machine context (audit plan, payment option ...). */
  context: RequestContext;
  schedule: FeeSchedule;
  /** The subject certificate's expiry (marks are priced for the months it has left). */
  subjectExpiresAt: Date | null;
  now: Date;
}
export type FeeRule = (input: FeeInput) => number;

/**
 * What a request of the kind produces when it finishes in an end that produced something (not rejected, cancelled,
 * deleted or expired: UNCHANGED_ENDS in ./outcome.ts). `issuesCertificate`: a certificate of its own (a new one,
 * a renewal, a shipment's); `changesCertificate`: the certificate it was about changes in place (added products or
 * categories); `issuesMarks`: one Halal mark per product. The server reads it (finishedOutcome in ./outcome.ts) to
 * tell the request page what to link, and its /certificate and /marks calls answer by it.
 */
export type ServiceOutcome = 'issuesCertificate' | 'changesCertificate' | 'issuesMarks';

export type ProjectionFn = (data: Readonly<Record<string, unknown>>, context: RequestContext) => Projection;

export interface ServiceDefinition {
  kind: RequestKind;
  /** Request type code of spec 02 section 3 (its first spelling). */
  requestType: number | string;
  /** i18next key of the service's name (`services:<kind>.title`). */
  titleKey: string;
  facilityTypes: readonly FacilityType[];
  subject: ServiceSubject;
  preconditions: readonly Precondition[];
  /** The sections of the request data, in wizard order. */
  sections: Readonly<Record<string, SectionDefinition>>;
  crossRules?: readonly CrossRule[];
  serverChecks: readonly ServerCheck[];
  /** What the request produces when it finishes in a producing end (ServiceOutcome). */
  outcome: ServiceOutcome;
  /** The section attachment references live in (their lock follows that section's returns). */
  attachmentSection?: string;
  /** 'subjectRequest': a new draft starts with the data of the request that produced its subject certificate (renewals). */
  prefill?: 'subjectRequest';
  project: ProjectionFn;
  /**
   * What the certificate this request issues lists, when it is not the projection's products: built from the request's
   * data and the products already certified to the holder by certificates of `certifiedBy` (a shipment lists its
   * goods under the names of the factory's certified products).
   */
  certificateGoods?: {
    certifiedBy: CertificateKind;
    list: (data: Readonly<Record<string, unknown>>, certified: readonly CertificateProduct[]) => CertificateProduct[];
  };
  /** The amount of each bill the machine creates, by fee kind. */
  fees: Partial<Record<FeeKind, FeeRule>>;
  /**
   * Fees billed only by a later change of the issued certificate (external certificate: products added in set A), not
   * on the request's own way to its certificate: the fee preview before submitting leaves them out.
   */
  laterFees?: readonly FeeKind[];
  /** Each fee rule in words, for the generated machine docs (one per key of `fees`). */
  feeReadings: Partial<Record<FeeKind, string>>;
  /** Spec 02 section 9: CB designation fees are shown excluding VAT, renewals including VAT. */
  feeDisplay: 'excludingVat' | 'includingVat';
  /** Web paths (TanStack Router syntax): where a person starts it (spec 01 section 2) and where its requests are listed. */
  routes: { start: string; list: string };
  /** Permissions that let a user start it (any of them, for the facility). */
  startPermissions: readonly string[];
}
