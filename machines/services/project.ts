import type { z } from 'zod';
import type { TProduct } from '../forms/product';
import type { CertificateProduct, ServiceDefinition } from './types';

/**
 * Helpers for the services' projections. A projection reads a section only through its complete schema: stored data
 * that does not parse (a draft still being filled) projects as absent, never as a guessed shape.
 */

/**
 * Results of complete-schema parses, per stored section value (by identity) and schema. A submission checks every
 * section and its fee rule then projects the same stored objects (docs/performance-log.md, fourth pass): the second
 * parse is a lookup. Stored data is never mutated (a change replaces the object), and results are only read.
 */
const parsedSections = new WeakMap<object, WeakMap<z.ZodType, z.ZodSafeParseResult<unknown>>>();

/** `schema.safeParse(value)`, remembered while `value` (an object of stored data) lives. */
export function parseComplete<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  if (value === null || typeof value !== 'object') return schema.safeParse(value);
  let bySchema = parsedSections.get(value);
  if (!bySchema) parsedSections.set(value, (bySchema = new WeakMap()));
  let r = bySchema.get(schema) as z.ZodSafeParseResult<T> | undefined;
  if (!r) bySchema.set(schema, (r = schema.safeParse(value)));
  return r;
}

/** The section parsed by its complete schema, or undefined when absent or incomplete. */
export function readSection<T>(def: Pick<ServiceDefinition, 'sections'>, data: Readonly<Record<string, unknown>>, key: string): T | undefined {
  const section = def.sections[key];
  if (!section || data[key] === undefined) return undefined;
  const r = parseComplete(section.complete as z.ZodType<T>, data[key]);
  return r.success ? r.data : undefined;
}

/** A product of a request form as a certificate lists it. */
export function certificateProductOf(p: TProduct): CertificateProduct {
  return {
    nameAr: p.nameAr,
    nameEn: p.nameEn,
    brandAr: p.brandAr,
    brandEn: p.brandEn,
    hsCode: p.saudiHsCode,
    globalHsCode: p.globalHsCode,
    productNumber: p.productNumber,
    category: p.category,
  };
}

/** Distinct, non-empty brand names (trademarks and the products' brands) for the staff "brand name" filter. */
export function brandNames(...lists: readonly (readonly (string | undefined)[])[]): string[] {
  return [...new Set(lists.flat().map((s) => s?.trim()).filter((s): s is string => !!s))];
}

/** What identifies a product on a certificate: its food-authority number, else its English name under its brand. */
export function productKey(p: Pick<CertificateProduct, 'productNumber' | 'nameEn' | 'brandEn'>): string {
  return p.productNumber ? `number:${p.productNumber.toUpperCase()}` : `name:${(p.brandEn ?? '').toLowerCase()}|${p.nameEn.toLowerCase()}`;
}
