import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SERVICES, validateStep, type RequestKind } from '../../machines/services';
import { OPERATIONS, UNIT_CODES, MAIN_CATEGORIES, enumField, draftObject } from '../../machines/forms';
import { describeSchema, type FieldNode } from '../../web/src/components/form/schema-fields';
import { sectionPrefillOf, specialStepOf, untouchedValueOf } from '../../web/src/routes/services/wizard-sections';
import en from '../../locales/en/requests.json';
import ar from '../../locales/ar/requests.json';

/** The generic wizard's inputs come from the service sections' zod schemas (web/src/components/form/schema-fields.ts). */

const fieldsOf = (node: FieldNode) => (node.kind === 'object' ? Object.fromEntries(node.fields.map((f) => [f.name, f])) : {});

describe('schema to fields', () => {
  it('maps each kind of value to its input', () => {
    const node = describeSchema(
      z.object({
        name: z.string().min(3),
        count: z.preprocess((v) => (typeof v === 'string' ? Number(v) : v), z.number().int()),
        kind: z.enum(['sea', 'air']),
        done: z.boolean(),
        when: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        lines: z.array(z.string()).default([]),
        operations: z.array(enumField(OPERATIONS, 'operationInvalid')),
        rows: z.array(z.object({ a: z.string() })),
        note: z.string().optional(),
      }),
    );
    const f = fieldsOf(node);
    expect(f.name!.node).toEqual({ kind: 'text' });
    expect(f.name!.required).toBe(true);
    expect(f.count!.node).toEqual({ kind: 'number' });
    expect(f.kind!.node).toEqual({ kind: 'select', options: ['sea', 'air'] });
    expect(f.done!.node).toEqual({ kind: 'checkbox' });
    expect(f.when!.node).toEqual({ kind: 'date' });
    expect(f.lines!.node).toEqual({ kind: 'lines' });
    expect(f.lines!.required).toBe(false);
    expect(f.operations!.node).toEqual({ kind: 'checklist', options: [...OPERATIONS], catalogue: 'operation' });
    expect(f.rows!.node).toEqual({ kind: 'list', item: { kind: 'object', fields: [{ name: 'a', node: { kind: 'text' }, required: true }] } });
    expect(f.note!.required).toBe(false);
  });

  it('reads the real service sections: catalogues, dates, nested optional objects, draft wrappers', () => {
    const line = describeSchema(SERVICES.shipment.sections.products!.complete);
    expect(line.kind).toBe('list');
    const item = line.kind === 'list' ? fieldsOf(line.item) : {};
    expect(item.unit!.node).toEqual({ kind: 'select', options: UNIT_CODES.map(String), catalogue: 'unit' });
    expect(item.productionDate!.node.kind).toBe('date');
    expect(item.quantity!.node.kind).toBe('number');
    expect(item.amount!.required).toBe(false);
    const slaughter = describeSchema(SERVICES.shipment.sections.slaughters!.complete);
    const s = slaughter.kind === 'list' ? fieldsOf(slaughter.item) : {};
    expect(s.category!.node).toEqual({ kind: 'select', options: [...MAIN_CATEGORIES], catalogue: 'category' });
    const other = fieldsOf(describeSchema(SERVICES.shipment.sections.other!.complete));
    expect(other.billOfLading!.required).toBe(false);
    expect(other.billOfLading!.node.kind).toBe('object');
    // A free text accepts any operation's name, so it stays a text input (not a false choice).
    expect(fieldsOf(describeSchema(SERVICES.cbDesignation.sections.facilityInfo!.complete)).nameEn!.node).toEqual({ kind: 'text' });
    // Draft wrappers (preprocess + optional) are looked through too.
    const draft = fieldsOf(describeSchema(draftObject({ goods: z.enum(['meat', 'other']) })));
    expect(draft.goods).toEqual({ name: 'goods', node: { kind: 'select', options: ['meat', 'other'] }, required: false });
  });

  it('marks a field required (the asterisk) only when the schema asks for it: none inside an optional group', () => {
    // The shipment's bill of lading and health certificate are optional: their number and date carry no asterisk.
    const other = fieldsOf(describeSchema(SERVICES.shipment.sections.other!.complete));
    for (const group of ['billOfLading', 'healthCertificate']) {
      expect(Object.values(fieldsOf(other[group]!.node)).map((f) => [f.name, f.required])).toEqual([
        ['number', false],
        ['date', false],
      ]);
    }
    expect(other.arrivalPort!.required).toBe(true);
    // Every service: nothing under an optional object is marked (a list's added row asks for its own fields).
    const marked = (node: FieldNode, path: string): string[] =>
      node.kind === 'object' ? node.fields.flatMap((f) => [...(f.required ? [`${path}.${f.name}`] : []), ...marked(f.node, `${path}.${f.name}`)]) : [];
    const underOptional = (node: FieldNode, path: string): string[] =>
      node.kind === 'list'
        ? underOptional(node.item, `${path}[]`)
        : node.kind === 'object'
          ? node.fields.flatMap((f) => (f.required ? underOptional(f.node, `${path}.${f.name}`) : marked(f.node, `${path}.${f.name}`)))
          : [];
    const wrong = Object.values(SERVICES).flatMap((def) =>
      Object.entries(def.sections).flatMap(([section, s]) => underOptional(describeSchema(s!.complete), `${def.kind}.${section}`)),
    );
    expect(wrong).toEqual([]);
  });

  it('reuses the internal wizard products step only where the product has the same fields', () => {
    expect(specialStepOf(SERVICES.externalCertificate, 'products')).toBe('products');
    expect(specialStepOf(SERVICES.shipment, 'products')).toBeNull();
    expect(specialStepOf(SERVICES.externalHalalMark, 'products')).toBeNull();
  });

  it("gives the internal certificate form's other sections their own components where a service has the same inputs, and nowhere else", () => {
    const own = Object.entries(SERVICES).flatMap(([kind, def]) =>
      Object.keys(def.sections)
        .filter((s) => !['products', 'attachments', 'categories'].includes(s) && specialStepOf(def, s))
        .map((s) => `${kind}.${s}`),
    );
    const internal = ['factory', 'address', 'branches', 'trademarks', 'hsCodes', 'operations', 'production', 'validity'];
    expect(own.sort()).toEqual(['internalCertificate', 'internalRenewal'].flatMap((k) => internal.map((s) => `${k}.${s}`)).sort());
  });

  it('keeps what an untouched step shows where its rules accept it (no branches, no files) and asks for the rest', () => {
    const untouched = (kind: RequestKind, s: string) => untouchedValueOf(SERVICES[kind], s);
    expect(untouched('internalCertificate', 'branches')).toEqual({ hasBranches: false, items: [] });
    expect(validateStep(SERVICES.internalCertificate, 'branches', { branches: untouched('internalCertificate', 'branches') })).toEqual([]);
    expect(untouched('internalAddProducts', 'attachments')).toEqual([]);
    expect(validateStep(SERVICES.internalAddProducts, 'attachments', { attachments: [] })).toEqual([]);
    expect(validateStep(SERVICES.internalCertificate, 'factory', { factory: untouched('internalCertificate', 'factory') })).not.toEqual([]);
  });

  it('shows the facility record above the steps that declare it, whatever their name, and above no other', () => {
    const shown = Object.entries(SERVICES).flatMap(([kind, def]) => Object.keys(def.sections).filter((s) => sectionPrefillOf(def, s)).map((s) => `${kind}.${s}`));
    // The generic wizard's factory steps (the internal wizard has its own factory step, without a facility to read).
    expect(shown.sort()).toEqual(['externalCertificate.factory', 'externalRenewal.factory', 'shipment.factory']);
    for (const at of shown) {
      const [kind, section] = at.split('.') as [RequestKind, string];
      expect(fieldsOf(describeSchema(SERVICES[kind].sections[section]!.complete)).facilityPublicId, at).toBeDefined();
    }
    // Declared by the contract, not recognised by the section's name.
    const factory = SERVICES.shipment.sections.factory!;
    const renamed = { ...SERVICES.shipment, sections: { exportingFactory: factory, factory: { ...factory, prefill: undefined } } };
    expect(sectionPrefillOf(renamed, 'exportingFactory')).toBe('facilityRecord');
    expect(sectionPrefillOf(renamed, 'factory')).toBeNull();
  });

  it('every generated field, step and choice of every service has a label in both languages', () => {
    const missing: string[] = [];
    const walk = (n: FieldNode, name: string) => {
      if (n.kind === 'object') for (const f of n.fields) {
        for (const [lang, l] of [['en', en], ['ar', ar]] as const) if (!(f.name in l.fields)) missing.push(`${lang} fields.${f.name}`);
        walk(f.node, f.name);
      }
      else if (n.kind === 'list') walk(n.item, name);
      // Country fields are a country select (i18n-iso-countries names), not a choice of their own.
      else if ((n.kind === 'select' || n.kind === 'checklist') && !n.catalogue && !/countryCode$/i.test(name))
        for (const o of n.options) for (const [lang, l] of [['en', en], ['ar', ar]] as const) if (!(l.options as Record<string, Record<string, string>>)[name]?.[o]) missing.push(`${lang} options.${name}.${o}`);
    };
    for (const kind of Object.keys(SERVICES) as RequestKind[]) {
      for (const [section, def] of Object.entries(SERVICES[kind].sections)) {
        for (const [lang, l] of [['en', en], ['ar', ar]] as const) if (!(section in l.steps)) missing.push(`${lang} steps.${section}`);
        if (!specialStepOf(SERVICES[kind], section)) walk(describeSchema(def.complete), section);
      }
    }
    expect(missing).toEqual([]);
  });
});
