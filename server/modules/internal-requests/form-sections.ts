/**
 * The internal request wizard keeps one object per step (machines/forms: factory ... agreement); the machine stores
 * the request data by section (machines/sections.ts), which has no `production` or `validity` section. Both belong
 * to the facility's operations in spec 02 section 3, so they are kept inside the `operations` section; the
 * agreement is not stored (SUBMIT carries it). Pure: the web and the server both map through here.
 */
export type WizardForm = Record<string, unknown>;

const PLAIN = ['factory', 'address', 'branches', 'trademarks', 'products', 'hsCodes', 'categories', 'attachments'] as const;

interface OperationsSection {
  items?: unknown;
  production?: unknown;
  validity?: unknown;
}

/** Wizard steps -> request data sections. Only the steps present in `form` produce sections. */
export function formToSections(form: WizardForm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of PLAIN) if (form[key] !== undefined) out[key] = form[key];
  if (form.operations !== undefined || form.production !== undefined || form.validity !== undefined) {
    const ops: OperationsSection = {};
    if (form.operations !== undefined) ops.items = form.operations;
    if (form.production !== undefined) ops.production = form.production;
    if (form.validity !== undefined) ops.validity = form.validity;
    out.operations = ops;
  }
  return out;
}

/** Request data sections -> wizard steps (the agreement starts unticked). */
export function sectionsToForm(data: Record<string, unknown>): WizardForm {
  const out: WizardForm = {};
  for (const key of PLAIN) if (data[key] !== undefined) out[key] = data[key];
  const ops = data.operations as OperationsSection | undefined;
  if (ops && typeof ops === 'object' && !Array.isArray(ops)) {
    if (ops.items !== undefined) out.operations = ops.items;
    if (ops.production !== undefined) out.production = ops.production;
    if (ops.validity !== undefined) out.validity = ops.validity;
  }
  return out;
}

/** The section a wizard step is stored in (for returned-section editing). */
export const sectionOfStep = (step: string): string => (step === 'production' || step === 'validity' ? 'operations' : step);
