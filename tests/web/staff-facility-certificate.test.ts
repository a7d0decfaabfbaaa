import { describe, expect, it } from 'vitest';
import { certificateHeadingKey } from '../../web/src/routes/facilities/labels';
import { staffProfilePath } from '../../web/src/routes/services/links';
import ar from '../../locales/ar/facilities.json';
import en from '../../locales/en/facilities.json';

/**
 * The staff's view of a CB or facility (halal-profile/cb/$id, halal-profile/facility/$id) names the certificate it
 * shows by its kind: a facility's Halal certificate was headed "Designation certificate" (found by npm run walk).
 */
const text = (texts: typeof en, key: string): string => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], texts) as string;

describe("the staff view's certificate heading", () => {
  it("calls an internal or external facility's certificate a Halal certificate", () => {
    for (const kind of ['internalHalal', 'externalHalal']) {
      expect(text(en, certificateHeadingKey(kind))).toBe('Halal certificate');
      expect(text(ar, certificateHeadingKey(kind))).toBe('شهادة الحلال');
    }
  });

  it("calls a CB's certificate its designation certificate", () => {
    expect(text(en, certificateHeadingKey('cbDesignation'))).toBe('Designation certificate');
    expect(text(ar, certificateHeadingKey('cbDesignation'))).toBe('شهادة التعيين');
  });
});

describe("the request page's link to the staff view", () => {
  it("goes to a CB's view for a CB and to the facility view for an internal or external facility, by the type the server gives", () => {
    expect(staffProfilePath('cb-global-halal', 'cb')).toBe('/halal-profile/cb/cb-global-halal');
    expect(staffProfilePath('inf-almarai-foods', 'internal')).toBe('/halal-profile/facility/inf-almarai-foods');
    expect(staffProfilePath('exf-anatolia-meat', 'external')).toBe('/halal-profile/facility/exf-anatolia-meat');
  });
});
