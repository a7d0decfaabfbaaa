import { beforeAll, describe, expect, it } from 'vitest';
import { START_ROUTES } from '../../machines/services/start-routes';
import { registerScreens } from '../../web/src/screens';
import { certificateServices, startableServices } from '../../web/src/routes/services/services';

/*
 * walk3 D1: a facility's certificates tab offers on each certificate only the services whose subject accepts that
 * certificate's kind. A CB holding its designation certificate was offered the external facility's renewal, add
 * products and Halal marks too, which all ended on a 404.
 */

// A CB user who may also start external facilities' services (a CB's type may start both).
const CB_USER = [...new Set(Object.values(START_ROUTES).flatMap((r) => r.startPermissions))];
const kinds = (certificateKind?: string) => startableServices('cb', CB_USER, certificateKind).map((d) => d.kind).sort();

beforeAll(() => {
  registerScreens(Object.values(START_ROUTES).map((r) => ({ path: r.start, component: {} })));
});

describe('services offered from a certificate', () => {
  it('a CB designation certificate offers the CB renewal and added categories, nothing of an external facility', () => {
    expect(kinds('cbDesignation')).toEqual(['cbAddCategories', 'cbRenewal']);
  });

  it('an external facility certificate offers the external services', () => {
    expect(kinds('externalHalal')).toEqual(['externalAddProducts', 'externalHalalMark', 'externalRenewal']);
  });

  it('a certificate kind no service starts from offers nothing; without a certificate, the facility’s own services', () => {
    expect(kinds('shipment')).toEqual([]);
    expect(kinds()).toEqual(['cbDesignation', 'externalCertificate', 'shipment']);
  });
});

describe('renewal offered from a certificate only inside its window (crawl: a CB certificate expiring in 2028 offered renewal)', () => {
  const offered = (renewal: { kind: string } | null) => certificateServices('cb', CB_USER, { kind: 'cbDesignation', renewal }).map((d) => d.kind).sort();

  it('a certificate whose renewal the server does not offer shows no renewal, only its other services', () => {
    expect(offered(null)).toEqual(['cbAddCategories']);
  });

  it('a certificate inside its renewal window offers the renewal the server names', () => {
    expect(offered({ kind: 'cbRenewal' })).toEqual(['cbAddCategories', 'cbRenewal']);
  });
});
