import { describe, expect, it } from 'vitest';
import ar from '../../locales/ar/forms.json';
import en from '../../locales/en/forms.json';
import { named } from '../../web/src/routes/requests/RequestDataView';

/*
 * walk1 #7: the request summary and page showed "Factory: exf-anatolia-meat" (the facility's public id) and the
 * operations "slaughtering", "packaging" (their codes). They read as names in the reader's language.
 */
const texts = { ar, en } as const;
const tFor = (lang: 'ar' | 'en') => (key: string, o?: Record<string, unknown>) => {
  const [ns, path] = key.includes(':') ? key.split(':') : ['requests', key];
  const value = ns === 'forms' ? path!.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], texts[lang]) : undefined;
  return typeof value === 'string' ? value : String(o?.defaultValue ?? key);
};
const FACTORIES = { 'exf-anatolia-meat': { nameAr: 'مصنع الأناضول للحوم', nameEn: 'Anatolia Meat Factory' } };

describe('request data: names, not codes', () => {
  it('an operation (the column of the operations table) reads as its label', () => {
    expect(named('operation', 'slaughtering', tFor('en'))).toBe('Slaughtering');
    expect(named('operation', 'packaging', tFor('ar'))).toBe(ar.operation.packaging);
  });

  it('the chosen factory reads as its name in the reader’s language', () => {
    expect(named('facilityPublicId', 'exf-anatolia-meat', tFor('en'), FACTORIES, 'en')).toBe('Anatolia Meat Factory');
    expect(named('facilityPublicId', 'exf-anatolia-meat', tFor('ar'), FACTORIES, 'ar')).toBe('مصنع الأناضول للحوم');
  });

  it('a shipment’s exporting conformity body reads as its name, not its public id', () => {
    const cbs = { 'cb-global-halal': { nameAr: 'هيئة الحلال العالمية', nameEn: 'Global Halal Body' } };
    expect(named('exportingCbPublicId', 'cb-global-halal', tFor('en'), cbs, 'en')).toBe('Global Halal Body');
    expect(named('exportingCbPublicId', 'cb-global-halal', tFor('ar'), cbs, 'ar')).toBe('هيئة الحلال العالمية');
  });
});
