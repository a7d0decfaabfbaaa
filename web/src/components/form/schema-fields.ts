import type { z } from 'zod';
import { MAIN_CATEGORIES, OPERATIONS, PRODUCT_CATEGORY_CODES, UNIT_CODES } from '../../../../machines/forms/catalogues';

/**
 * The inputs a zod schema asks for, found by walking the schema (zod 4 `_zod.def`), so a wizard step can be generated
 * from a service section (machines/services) instead of written by hand. Wrappers (optional, default, nullable,
 * preprocess and transform pipes) are looked through; a string checked against one of the portal's catalogues
 * (`enumField(OPERATIONS)`, units, categories) becomes a choice of that catalogue's values.
 */
export type FieldNode =
  | { kind: 'object'; fields: ObjectMember[] }
  /** An array of objects: a list editor with add and remove. */
  | { kind: 'list'; item: FieldNode }
  /** An array of plain strings: one per line. */
  | { kind: 'lines' }
  /** An array of choices: tick boxes. */
  | { kind: 'checklist'; options: string[]; catalogue?: Catalogue }
  | { kind: 'select'; options: string[]; catalogue?: Catalogue }
  | { kind: 'text' | 'number' | 'date' | 'checkbox' };

export interface ObjectMember {
  name: string;
  node: FieldNode;
  required: boolean;
}

/** Catalogues whose labels live in the forms namespace (forms:operation.*, forms:category.*, forms:unit.*). */
export type Catalogue = 'operation' | 'category' | 'unit';

interface Def {
  type: string;
  innerType?: Schema;
  in?: Schema;
  out?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  entries?: Record<string, string | number>;
  checks?: Schema[];
  check?: string;
  format?: string;
  pattern?: RegExp;
  values?: unknown[];
}
type Schema = { _zod: { def: Def } } & Pick<z.ZodType, 'safeParse'>;

const defOf = (s: unknown): Def => (s as Schema)._zod.def;
const ISO_DATE = /\\d\{4\}-\\d\{2\}-\\d\{2\}/;

/** Wrappers that only make a field optional (or give it a default); `required` tells which. */
function unwrap(schema: Schema): { schema: Schema; required: boolean } {
  let s = schema;
  let required = true;
  for (;;) {
    const d = defOf(s);
    if (d.type === 'optional' || d.type === 'default' || d.type === 'prefault' || d.type === 'nullable' || d.type === 'catch') {
      if (d.type !== 'nullable') required = false;
      s = d.innerType!;
    } else if (d.type === 'readonly' || d.type === 'nonoptional') {
      s = d.innerType!;
    } else if (d.type === 'pipe') {
      // The parsed side says what the value is (a number after `toNumber`), unless it is only a transform.
      s = defOf(d.out).type === 'transform' ? d.in! : d.out!;
    } else return { schema: s, required };
  }
}

const CATALOGUES: { name: Catalogue; values: readonly (string | number)[] }[] = [
  { name: 'operation', values: OPERATIONS },
  { name: 'category', values: MAIN_CATEGORIES },
  { name: 'category', values: PRODUCT_CATEGORY_CODES },
  { name: 'unit', values: UNIT_CODES },
];

/**
 * A value checked by a custom rule (`enumField`, `unitField`): the catalogue every value of which passes while a
 * made-up value of the same shape does not.
 */
function catalogueOf(schema: Schema, kind: 'string' | 'number'): { options: string[]; catalogue: Catalogue } | null {
  if (schema.safeParse(kind === 'string' ? 'qzxvwk' : 987654.25).success) return null;
  for (const c of CATALOGUES) {
    if (c.values.every((v) => typeof v === kind && schema.safeParse(v).success)) return { options: c.values.map(String), catalogue: c.name };
  }
  return null;
}

const hasCustomCheck = (d: Def) => (d.checks ?? []).some((c) => defOf(c).check === 'custom');
const isDate = (d: Def) => (d.checks ?? []).some((c) => defOf(c).format === 'regex' && ISO_DATE.test(String(defOf(c).pattern?.source ?? '')));

/**
 * The input tree of a schema. `whole` is the schema as given (with its pipes) for catalogue checks. A member is
 * required only when every object around it is: the number of an optional bill of lading is not asked for (its
 * rules apply once the group is filled in), so the form marks none of that group's fields. A list's rows start
 * afresh: a row added is a row whose fields are needed.
 */
export function describeSchema(input: z.ZodType, inOptional = false): FieldNode {
  const whole = input as unknown as Schema;
  const { schema, required } = unwrap(whole);
  const d = defOf(schema);
  switch (d.type) {
    case 'object': {
      const optional = inOptional || !required;
      return {
        kind: 'object',
        fields: Object.entries(d.shape ?? {}).map(([name, s]) => ({
          name,
          node: describeSchema(s as unknown as z.ZodType, optional),
          required: !optional && unwrap(s).required,
        })),
      };
    }
    case 'array': {
      const item = describeSchema(d.element as unknown as z.ZodType);
      if (item.kind === 'select') return { kind: 'checklist', options: item.options, catalogue: item.catalogue };
      if (item.kind === 'text' || item.kind === 'date' || item.kind === 'number') return { kind: 'lines' };
      return { kind: 'list', item };
    }
    case 'enum':
      return { kind: 'select', options: Object.values(d.entries ?? {}).map(String) };
    case 'literal':
      return { kind: 'select', options: (d.values ?? []).map(String) };
    case 'boolean':
      return { kind: 'checkbox' };
    case 'number':
    case 'int': {
      const c = hasCustomCheck(d) ? catalogueOf(whole, 'number') : null;
      return c ? { kind: 'select', ...c } : { kind: 'number' };
    }
    case 'string': {
      if (isDate(d)) return { kind: 'date' };
      const c = hasCustomCheck(d) ? catalogueOf(whole, 'string') : null;
      return c ? { kind: 'select', ...c } : { kind: 'text' };
    }
    default:
      return { kind: 'text' };
  }
}
