import { foldName } from '../forms/fields';
import { formIssuesOf } from '../forms/messages';
import { parseComplete, productKey } from './project';
import type { CertificateProduct, DataIssue, ServiceDefinition } from './types';

/**
 * Validation of request data against a service definition: the one path every door goes through (the engine's
 * send step for EDIT, SUBMIT and RESUBMIT, the server before it, the web wizard at each step). Issue paths start at
 * the data's root (`products.2.netWeight`); messages are keys of the `validation` namespace.
 */

/** Largest stored (parsed) section, and whole request data, in bytes of JSON. */
export const SECTION_MAX_BYTES = 512 * 1024;
export const REQUEST_MAX_BYTES = 2 * 1024 * 1024;

export const DataMessage = {
  sectionUnknown: 'form.sectionUnknown',
  sectionTooLarge: 'form.sectionTooLarge',
  requestTooLarge: 'form.requestTooLarge',
  sectionRequired: 'form.sectionRequired',
} as const;

type Data = Record<string, unknown>;

/** UTF-8 bytes of a JSON text (what the database stores). */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Whether a value's JSON is over `max` UTF-8 bytes. A UTF-16 unit is 1 to 3 bytes (a surrogate pair, two units, is 4),
 * so the text's length bounds its bytes from both sides and most texts are decided without the count (the count, a
 * loop over every character of every section at each start, edit and submission, was a tenth of a draft parse).
 */
export function jsonBytesOver(value: unknown, max: number): boolean {
  const text = JSON.stringify(value) ?? '';
  if (text.length * 3 <= max) return false;
  if (text.length > max) return true;
  return utf8Bytes(text) > max;
}

export type Parsed<T> = { ok: true; data: T } | { ok: false; issues: DataIssue[] };

/**
 * Parses the sections an EDIT (or the first data of a new request) carries, each with its draft schema: unknown
 * sections, invalid filled fields and oversized sections are issues; the result is what gets stored (numbers as
 * numbers, trimmed text, defaults applied), never the raw input.
 */
export function parseDraftSections(def: ServiceDefinition, sections: Data): Parsed<Data> {
  const issues: DataIssue[] = [];
  const out: Data = {};
  for (const [key, value] of Object.entries(sections)) {
    const section = Object.hasOwn(def.sections, key) ? def.sections[key] : undefined;
    if (!section) {
      issues.push({ path: key, message: DataMessage.sectionUnknown });
      continue;
    }
    const r = section.draft.safeParse(value);
    if (!r.success) {
      issues.push(...formIssuesOf(r.error.issues, [key]));
      continue;
    }
    if (jsonBytesOver(r.data, section.maxBytes ?? SECTION_MAX_BYTES)) {
      issues.push({ path: key, message: DataMessage.sectionTooLarge });
      continue;
    }
    out[key] = r.data;
  }
  return issues.length ? { ok: false, issues } : { ok: true, data: out };
}

/**
 * What a request prefilled from another request's data starts with (a renewal, `prefill: 'subjectRequest'`): each of
 * that data's sections this service has, parsed by its draft schema; one that does not parse is left out.
 */
export function prefilledData(def: Pick<ServiceDefinition, 'sections'>, data: Data): Data {
  const out: Data = {};
  for (const [key, value] of Object.entries(data)) {
    const parsed = Object.hasOwn(def.sections, key) ? def.sections[key].draft.safeParse(value) : undefined;
    if (parsed?.success) out[key] = parsed.data;
  }
  return out;
}

/**
 * A renewal offers the certificate's products as they stand, products added since it was issued included (an
 * add-products request, set A's ADD_PRODUCTS), for the applicant to keep or drop: each product of `certified` (the
 * certificate's list) in the fullest form a request gave it (`forms`: the products sections of the requests that
 * issued, renewed or changed it, the first match by productKey winning), else as the certificate lists it (its weights
 * then left for the applicant to fill). A service with a trademarks section gains the added products' brands, as its
 * rule "each product's brand is one of the trademarks" needs. Nothing changes when the service has no products section
 * or the list would not parse as a draft.
 */
export function withCertificateProducts(
  def: Pick<ServiceDefinition, 'sections'>,
  data: Data,
  certified: readonly CertificateProduct[],
  forms: readonly unknown[],
): Data {
  const products = def.sections.products;
  if (!products || !certified.length) return data;
  const byKey = new Map<string, Record<string, unknown>>();
  for (const f of forms) {
    if (!f || typeof f !== 'object') continue;
    const p = f as Record<string, unknown>;
    if (typeof p.nameEn !== 'string') continue;
    const key = productKey({ nameEn: p.nameEn, brandEn: typeof p.brandEn === 'string' ? p.brandEn : undefined, productNumber: typeof p.productNumber === 'string' ? p.productNumber : undefined });
    if (!byKey.has(key)) byKey.set(key, p);
  }
  const list = certified.map(
    (c) =>
      byKey.get(productKey(c)) ??
      Object.fromEntries(
        Object.entries({ nameAr: c.nameAr, nameEn: c.nameEn, brandAr: c.brandAr, brandEn: c.brandEn, saudiHsCode: c.hsCode, globalHsCode: c.globalHsCode, productNumber: c.productNumber, category: c.category }).filter(
          ([, v]) => v !== undefined,
        ),
      ),
  );
  const parsed = products.draft.safeParse(list);
  if (!parsed.success) return data;
  const out: Data = { ...data, products: parsed.data };
  const trademarks = def.sections.trademarks;
  if (trademarks && Array.isArray(out.trademarks)) {
    const fold = (s: unknown) => (typeof s === 'string' ? foldName(s) : '');
    const known = new Set((out.trademarks as { nameAr?: unknown; nameEn?: unknown }[]).map((t) => `${fold(t.nameAr)}|${fold(t.nameEn)}`));
    const added: { nameAr: string; nameEn: string }[] = [];
    for (const p of parsed.data as { brandAr?: string; brandEn?: string }[]) {
      const key = `${fold(p.brandAr)}|${fold(p.brandEn)}`;
      if (!p.brandAr || !p.brandEn || known.has(key)) continue;
      known.add(key);
      added.push({ nameAr: p.brandAr, nameEn: p.brandEn });
    }
    const withBrands = trademarks.draft.safeParse([...(out.trademarks as unknown[]), ...added]);
    if (withBrands.success) out.trademarks = withBrands.data;
  }
  return out;
}

/** The stored data after merging an edit: refuses a request that would outgrow REQUEST_MAX_BYTES. */
export function checkRequestSize(data: Data): DataIssue[] {
  return jsonBytesOver(data, REQUEST_MAX_BYTES) ? [{ path: '', message: DataMessage.requestTooLarge }] : [];
}

/**
 * How a section is parsed by its complete schema: by default afresh; the engine passes parseComplete (remembered per
 * stored object: its stored data is never changed in place, which a wizard's form state may be).
 */
type SectionParse = typeof parseComplete;
const plainParse: SectionParse = (schema, value) => schema.safeParse(value);

/** Each section's complete schema over `data`: the parsed sections that pass, and the issues of those that do not. */
function completeSections(def: ServiceDefinition, data: Data, parse: SectionParse = plainParse): { valid: Data; issues: DataIssue[] } {
  const valid: Data = {};
  const issues: DataIssue[] = [];
  for (const [key, section] of Object.entries(def.sections)) {
    const r = parse(section.complete, data[key]);
    if (r.success) valid[key] = r.data;
    else issues.push(...formIssuesOf(r.error.issues, [key]));
  }
  return { valid, issues };
}

function crossIssues(def: ServiceDefinition, valid: Data, only?: string): DataIssue[] {
  const out: DataIssue[] = [];
  for (const rule of def.crossRules ?? []) {
    if (only !== undefined && rule.section !== only) continue;
    if (!rule.needs.every((s) => valid[s] !== undefined)) continue;
    rule.check(valid, (message, path) => out.push({ path: path.map(String).join('.'), message }));
  }
  return out;
}

/**
 * What SUBMIT and RESUBMIT require of the data: every section complete, and the rules across sections over the
 * sections that are valid (so a submission reports every problem at once). The parsed complete data on success.
 */
export function validateSubmission(def: ServiceDefinition, data: Data, parse: SectionParse = plainParse): Parsed<Data> {
  const { valid, issues } = completeSections(def, data, parse);
  issues.push(...crossIssues(def, valid), ...checkRequestSize(data));
  return issues.length ? { ok: false, issues } : { ok: true, data: valid };
}

/** One wizard step: its section complete, and the cross rules it completes (using the other sections that are valid). */
export function validateStep(def: ServiceDefinition, section: string, data: Data): DataIssue[] {
  const own = def.sections[section]?.complete.safeParse(data[section]);
  if (!own) return [{ path: section, message: DataMessage.sectionUnknown }];
  if (!own.success) return formIssuesOf(own.error.issues, [section]);
  return crossIssues(def, completeSections(def, data).valid, section);
}
