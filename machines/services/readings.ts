import type { FacilityType, Precondition, ServerCheck, ServiceDefinition, ServiceOutcome } from './types';

/*
 * The service contract in words, for the generated machine docs (scripts/docs-machines.ts): what a definition
 * declares, so a reader of docs/machines/<kind>.md sees who may start a service, what must hold, what is checked on
 * submission and how it is priced, without reading code.
 */

const FACILITY_TYPE_TEXT: Record<FacilityType, string> = {
  internal: 'domestic factory',
  external: 'foreign factory (through its conformity body)',
  cb: 'conformity body',
};

export function preconditionText(p: Precondition): string {
  switch (p.type) {
    case 'validCertificate':
      return `a valid certificate (${p.certificateKinds.join(', ')}): active or expiring soon, not expired, not suspended`;
    case 'renewalWindow':
      return p.threshold === 'cbRenewalPromptDays'
        ? 'renewal window: the certificate has at most CB_RENEWAL_PROMPT_DAYS (180) days left, or has expired'
        : 'renewal window: the certificate has at most EXPIRING_SOON_DAYS (60) days left, or has expired';
    case 'notBlockedByExpiredCertificate':
      return 'no expired Halal certificate of the facility blocks its other services (spec 02 section 4)';
    case 'cbAcceptanceValid':
      return 'the conformity body’s acceptance / notification certificate has not expired';
    case 'cbDesignationValid':
      return 'a conformity body acting for a factory holds a designation certificate that is neither expired nor suspended';
    case 'cbHoldsNoDesignation':
      return 'the conformity body holds no designation certificate that has not expired (in force or suspended): it renews the one it holds instead; once that has expired it may request a designation again. Also asked before paying and before issuing, so a second request opened meanwhile is never paid for nor issued (it may be cancelled)';
    case 'oneOpenPerSubject':
      return 'one open request of this kind per certificate at a time';
    case 'aMonthLeftOnSubject':
      return 'the certificate has at least one whole month of validity left (a mark is priced per whole month left and never outlives it: with less, renew the certificate first)';
  }
}

export const SERVER_CHECK_TEXT: Record<ServerCheck, string> = {
  attachmentsBelongToRequest: 'every attachment the data names exists, is not deleted and belongs to this request (or, for a renewal, to the request that issued its certificate, whose data it starts with)',
  productsNotOnCertificate: 'products already on the certificate are dropped and the applicant is told which',
  productsNotAskedElsewhere: 'no product another request of this kind about the same certificate has been paid for and waits to add (1004): it would be billed twice and added once; refused at the product, naming that request',
  categoriesNotOnCertificate:
    'each chosen category or sub-category adds something the designation certificate does not cover yet; one it already covers is refused and named. Categories on the certificate are never removed: the issued certificate lists the union of its categories and the added ones',
  withinCbDesignation: 'categories and products inside the conformity body’s designation',
  withinFacilityCertificate: 'categories inside the facility’s certificate',
  foodAuthorityProducts: 'each product’s number is registered in the food authority’s product system under the same Arabic and English name and Saudi HS code (server/adapters/food-authority.ts); each mismatch names the product and the field',
  importerVerified: 'the importer’s unified number is verified against the commercial registry: known, active, not expired, and the CR number is the registration’s; the importer’s name (Arabic or English) and, when the form holds them, the expiry date, status and activity are the registry’s answer, so a name never checked cannot reach the certificate',
  shipmentCovered:
    'the exporting factory’s external Halal certificate is valid on the shipment date (bill of lading date, else the day of submission) and lists each product (same HS heading) or each slaughter’s category; the exporting CB holds a valid designation covering each line’s category',
  externalFacilityNotTaken:
    'no other account holds a completed certificate request for the same foreign factory (spec 02 section 4). Reading: “another account” is another applicant (the factory’s own account, or a CB acting for it) whose request issued an external Halal certificate for the factory that has not expired; the external machines have no suspended status, so the request is not suspended but its SUBMIT is refused with the spec’s sentence (“this request is suspended; you may exit and cancel it”) and it stays a draft the user may cancel',
  foreignFactory:
    'the factory the request names (section `factory`) is a registered foreign factory: a foreign factory’s own account names itself, a renewal the factory that holds its certificate, a conformity body any foreign factory; an internal facility, a conformity body or an unknown id is refused. Also checked when a draft is started or saved with it',
  productsOnCertificate:
    'every product named is on the certificate and not deactivated: for a certificate a conformity body issued, its category is still in that CB’s newest designation (spec 02 section 8, 119)',
  markPackage: 'the Halal-mark package is within the administrator’s limits (minimum, maximum, step)',
};

const OUTCOME_TEXT: Record<ServiceOutcome, string> = {
  issuesCertificate: 'a certificate of its own (the request page links it)',
  changesCertificate: 'the certificate it was about, changed in place (the request page links it)',
  issuesMarks: 'one Halal mark per product (the request page lists them)',
};

/** The server checks a step runs as well, by section (none: no line). */
function stepCheckLines(d: ServiceDefinition): string[] {
  const declared = Object.entries(d.sections).filter(([, s]) => s.stepChecks?.length);
  return declared.length ? [`- Also checked on leaving the step: ${declared.map(([name, s]) => `\`${name}\` (${s.stepChecks!.map((c) => `\`${c}\``).join(', ')})`).join('; ')}.`] : [];
}

/** The sections the wizard prefills from the chosen facility's record (none: no line). */
function prefillLines(d: ServiceDefinition): string[] {
  const declared = Object.entries(d.sections).filter(([, s]) => s.prefill === 'facilityRecord');
  return declared.length ? [`- Shown and prefilled from the chosen facility's record: ${declared.map(([name]) => `\`${name}\``).join(', ')}.`] : [];
}

/** Markdown lines describing a service definition. */
export function serviceContractLines(d: ServiceDefinition): string[] {
  const list = (items: readonly string[]) => (items.length ? items.map((i) => `  - ${i}`) : ['  - none']);
  const feeKinds = Object.keys(d.fees) as (keyof ServiceDefinition['fees'])[];
  return [
    `- Request type: \`${d.requestType}\`; started by: ${d.facilityTypes.map((t) => FACILITY_TYPE_TEXT[t]).join(', ')}; from ${
      d.subject.type === 'facility' ? 'the facility' : `one of its certificates (${d.subject.certificateKinds.join(', ')})`
    }${
      d.prefill === 'subjectRequest'
        ? `, prefilled with the data of the request that produced the certificate${d.sections.products ? ' and the products the certificate lists now (added ones included), to keep or drop' : ''}`
        : ''
    }.`,
    `- Start permissions (any, for the facility): ${d.startPermissions.map((p) => `\`${p}\``).join(', ')}.`,
    `- Web: start at \`${d.routes.start}\`, listed at \`${d.routes.list}\`.`,
    '- Preconditions, at start and again on submission:',
    ...list(d.preconditions.map(preconditionText)),
    `- Sections (wizard steps, in order; each EDIT stores the parsed section, SUBMIT needs every one complete): ${Object.keys(d.sections)
      .map((s) => `\`${s}\``)
      .join(', ')}.`,
    ...(d.crossRules?.length ? [`- Rules across sections, at the step that completes them: ${d.crossRules.map((r) => `\`${r.section}\` (needs ${r.needs.join(', ')})`).join('; ')}.`] : []),
    ...(d.attachmentSection ? [`- Files are referenced from \`${d.attachmentSection}\`; after submission they change only when that section is returned.`] : []),
    '- Server checks on SUBMIT and RESUBMIT:',
    ...list(d.serverChecks.map((c) => SERVER_CHECK_TEXT[c])),
    ...stepCheckLines(d),
    ...prefillLines(d),
    `- Outcome, when it finishes other than rejected, cancelled, deleted or expired: ${OUTCOME_TEXT[d.outcome]}.`,
    `- Fees (shown ${d.feeDisplay === 'includingVat' ? 'including' : 'excluding'} VAT):`,
    ...list(feeKinds.map((k) => `\`${k}\`: ${d.feeReadings[k] ?? '(no reading)'}`)),
  ];
}
