import { INTERNAL_REQUEST_ATTACHMENTS, INTERNAL_REQUEST_STEPS, internalRequestForm } from '../../../../machines/forms';
import { EXTERNAL_REQUEST_ATTACHMENTS } from '../../../../machines/services/external';
import { ADD_PRODUCTS_ATTACHMENTS } from '../../../../machines/services/internal';
import type { RequestKind, SectionPrefill, ServiceDefinition } from '../../../../machines/services';
import { describeSchema, type FieldNode } from '../../components/form/schema-fields';
import type { InternalSection } from '../internal-request/WizardStep';
import type { FacilityType } from '../../session/selected-facility';

/** The fields of the internal certificate's product (the products step with the .xlsx upload edits exactly these). */
const INTERNAL_PRODUCT_FIELDS = ['nameAr', 'nameEn', 'brandAr', 'brandEn', 'saudiHsCode', 'globalHsCode', 'productNumber', 'category', 'netWeight', 'grossWeight', 'unit'];

/** The internal certificate form's sections, each with the inputs its schema asks for. */
const INTERNAL_SECTIONS = new Map(
  INTERNAL_REQUEST_STEPS.filter((s): s is InternalSection => s !== 'agreement').map((s) => [s, JSON.stringify(describeSchema(internalRequestForm.steps[s]))]),
);

/** specialStepOf's answers, per definition and section. */
const specialSteps = new WeakMap<ServiceDefinition, Map<string, InternalSection | null>>();

/**
 * Sections the internal certificate form has a component of its own for (WizardStep.tsx), reused by name when the
 * service's section has the same shape: products (with the .xlsx upload) when it has the internal product's fields,
 * attachments (upload per category) and categories (the category tree) always, any other section of the internal form
 * (factory, address, branches…) when its inputs are exactly the internal form's. Any other section is generated from
 * its schema.
 */
export function specialStepOf(def: ServiceDefinition, section: string): InternalSection | null {
  // The wizard asks on every render; the answer depends on the (static) definition alone, so it is worked out once.
  const known = specialSteps.get(def) ?? new Map<string, InternalSection | null>();
  specialSteps.set(def, known);
  if (!known.has(section)) known.set(section, specialStepByShape(def, section));
  return known.get(section)!;
}

function specialStepByShape(def: ServiceDefinition, section: string): InternalSection | null {
  if (section === 'attachments' || section === 'categories') return section;
  const node = describeSchema(def.sections[section]!.complete);
  if (section === 'products') {
    const item = node.kind === 'list' && node.item.kind === 'object' ? node.item.fields.map((f) => f.name) : [];
    return INTERNAL_PRODUCT_FIELDS.every((f) => item.includes(f)) ? 'products' : null;
  }
  const internal = INTERNAL_SECTIONS.get(section as InternalSection);
  return internal !== undefined && internal === JSON.stringify(node) ? (section as InternalSection) : null;
}

/**
 * What a section the applicant passes untouched holds as shown, read from the inputs its draft admits: a list none,
 * an object its tick boxes unticked and its lists empty (the internal form's branches: "no branches"). The wizard
 * keeps it only where the section's rules accept it.
 */
export function untouchedValueOf(def: ServiceDefinition, section: string): unknown {
  const node = describeSchema(def.sections[section]!.draft);
  if (node.kind !== 'object') return node.kind === 'list' ? [] : undefined;
  const empty = (n: FieldNode): unknown => (n.kind === 'checkbox' ? false : n.kind === 'list' ? [] : undefined);
  return Object.fromEntries(node.fields.flatMap((f): [string, unknown][] => (empty(f.node) === undefined ? [] : [[f.name, empty(f.node)]])));
}

/**
 * The prefill the section declares (machines/services `SectionDefinition.prefill`), for a section the wizard generates
 * from its schema as one object: the wizard shows it for any section that declares it, knowing none by name.
 */
export function sectionPrefillOf(def: ServiceDefinition, section: string): SectionPrefill | null {
  const s = def.sections[section];
  return s?.prefill && describeSchema(s.complete).kind === 'object' ? s.prefill : null;
}

/** The attachment categories of a kind's `attachments` section (the rules its schema was built from). */
export function attachmentRulesOf(kind: RequestKind): { allowed: readonly string[]; required: readonly string[] } {
  if (kind === 'externalCertificate' || kind === 'externalRenewal') return EXTERNAL_REQUEST_ATTACHMENTS;
  if (kind === 'externalAddProducts') return { allowed: EXTERNAL_REQUEST_ATTACHMENTS.allowed, required: [] };
  if (kind === 'internalAddProducts') return ADD_PRODUCTS_ATTACHMENTS;
  return INTERNAL_REQUEST_ATTACHMENTS;
}

/** The facility type a `factory` section's facility is chosen among (foreign factories for external services). */
export const factoryTypeOf = (kind: RequestKind): FacilityType => (kind.startsWith('internal') ? 'InternalFacility' : 'ExternalFacility');
