import { INTERNAL_REQUEST_ATTACHMENTS } from '../../../../machines/forms';
import { EXTERNAL_REQUEST_ATTACHMENTS } from '../../../../machines/services/external';
import { ADD_PRODUCTS_ATTACHMENTS } from '../../../../machines/services/internal';
import type { RequestKind, SectionPrefill, ServiceDefinition } from '../../../../machines/services';
import { describeSchema } from '../../components/form/schema-fields';
import type { FacilityType } from '../../session/selected-facility';

/** The fields of the internal certificate's product (the products step with the .xlsx upload edits exactly these). */
const INTERNAL_PRODUCT_FIELDS = ['nameAr', 'nameEn', 'brandAr', 'brandEn', 'saudiHsCode', 'globalHsCode', 'productNumber', 'category', 'netWeight', 'grossWeight', 'unit'];

/**
 * Sections the internal wizard has a component of its own for (WizardStep.tsx), reused by name when the service's
 * section has the same shape: products (with the .xlsx upload), attachments (upload per category), categories
 * (the category tree). Any other section is generated from its schema.
 */
export function specialStepOf(def: ServiceDefinition, section: string): 'products' | 'attachments' | 'categories' | null {
  if (section === 'attachments' || section === 'categories') return section;
  if (section === 'products') {
    const node = describeSchema(def.sections.products!.complete);
    const item = node.kind === 'list' && node.item.kind === 'object' ? node.item.fields.map((f) => f.name) : [];
    return INTERNAL_PRODUCT_FIELDS.every((f) => item.includes(f)) ? 'products' : null;
  }
  return null;
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
