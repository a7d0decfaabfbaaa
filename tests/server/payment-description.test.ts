import { beforeAll, describe, expect, it } from 'vitest';
import { initI18n } from '../../server/i18n';
import { paymentDescription } from '../../server/modules/payments/start-payment';

beforeAll(() => initI18n());

/**
 * What the government payment portal shows the payer (server/modules/payments/start-payment.ts). A walk (walk1 item 15)
 * read "External facility Halal certificate — Halal mark fee" on the portal for a Halal mark bill: the mark is billed
 * under its certificate's payment service (7 external, 6 internal), and the description named that service.
 */
describe('the payment portal description', () => {
  it('a Halal mark bill names the Halal mark, in both languages, whatever certificate service it is billed under', () => {
    for (const service of [6, 7]) {
      const d = paymentDescription({ service, feeKind: 'halalMark', number: 'B-2026-000004' });
      expect(d).toEqual({ en: 'Halal mark — Halal mark fee (B-2026-000004)', ar: 'علامة حلال — رسوم علامة الحلال (B-2026-000004)' });
      expect(d.en).not.toContain('certificate');
    }
  });

  it('other bills keep their payment service: a meat shipment, an external certificate', () => {
    expect(paymentDescription({ service: 4, feeKind: 'shipment', number: 'B-2026-000003' }).en).toBe('Meat shipment — Shipment certificate fee (B-2026-000003)');
    expect(paymentDescription({ service: 7, feeKind: 'certificate', number: 'B-2026-000001' }).en).toMatch(/^External facility Halal certificate — .+ \(B-2026-000001\)$/);
  });
});
