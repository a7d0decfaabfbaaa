import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { testConfig } from '../../server/config';
import {
  applicationFee,
  auditFee,
  certificateFee,
  chargeColumns,
  discounted,
  feeScheduleOf,
  formatAmount,
  markFee,
  shipmentBlocks,
  shipmentFee,
  toGrams,
  toHalalas,
  vatOn,
  withVat,
} from '../../server/modules/payments/fees';
import { billAmountFor } from '../../server/modules/payments/bill-amount';

const fees = feeScheduleOf(testConfig());

describe('SAR amounts and VAT', () => {
  it('shows VAT separately and totals with and without VAT', () => {
    expect(chargeColumns(withVat(toHalalas(1000), 0.15))).toEqual({ amount: '1000.00', vat: '150.00', total: '1150.00' });
    expect(chargeColumns(withVat(toHalalas('1234.50'), 0.15))).toEqual({ amount: '1234.50', vat: '185.18', total: '1419.68' });
    expect(chargeColumns(withVat(0, 0.15))).toEqual({ amount: '0.00', vat: '0.00', total: '0.00' });
  });

  it('rounds VAT half up to the halala, without binary-fraction errors', () => {
    expect(vatOn(10, 0.15)).toBe(2); // 1.5 halalas
    expect(vatOn(3, 0.15)).toBe(0); // 0.45
    expect(vatOn(1_000_001, 0.15)).toBe(150_000); // 150,000.15
    // 0.1 + 0.2 style traps: 1.10 SAR at 15 % is 16.5 halalas, rounded up to 17.
    expect(vatOn(toHalalas(1.1), 0.15)).toBe(17);
  });

  it('VAT is the exact rounded 15 % and total = amount + VAT, for any amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000_000 }), (amount) => {
        const c = withVat(amount, 0.15);
        const exact = (BigInt(amount) * 15n * 2n + 100n) / 200n; // half up of amount * 15 / 100
        expect(BigInt(c.vat)).toBe(exact);
        expect(c.total).toBe(c.amount + c.vat);
        expect(toHalalas(formatAmount(c.total))).toBe(c.total);
      }),
    );
  });

  it('parses and prints the database form of amounts', () => {
    expect(toHalalas('0.05')).toBe(5);
    expect(toHalalas('12.5')).toBe(1250);
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(123456789)).toBe('1234567.89');
    expect(() => toHalalas('1,000.00')).toThrow();
  });

  it('applies a discount before VAT (100 % is free of charge)', () => {
    expect(discounted(toHalalas(1000), 25)).toBe(toHalalas(750));
    expect(withVat(discounted(toHalalas(1000), 100), 0.15).total).toBe(0);
  });
});

describe('fee schedule', () => {
  it('exempts the CB designation request study fee', () => {
    expect(applicationFee(fees, 'cb')).toBe(0);
    expect(applicationFee(fees, 'internal')).toBe(toHalalas(1000));
  });

  it('charges audits per auditor and visit day of the agreed plan', () => {
    expect(auditFee(fees, { visitDays: 2, auditors: 3 })).toBe(toHalalas(15_000));
    expect(() => auditFee(fees, { visitDays: 1.5, auditors: 1 })).toThrow();
  });

  it('charges certificates yearly, or every year of the validity at once', () => {
    expect(certificateFee(fees, 'internal', 3, 'yearly')).toBe(toHalalas(5000));
    expect(certificateFee(fees, 'internal', 3, 'full')).toBe(toHalalas(15_000));
    expect(certificateFee(fees, 'external', 2, 'full')).toBe(toHalalas(15_000));
  });

  it('charges 1,000 SAR per started 27 tons of net weight', () => {
    expect(shipmentBlocks(0)).toBe(0);
    expect(shipmentBlocks(1)).toBe(1);
    expect(shipmentBlocks(toGrams(27, 'kl'))).toBe(1); // 27 kl of liquid counts as 27 t
    expect(shipmentBlocks(toGrams(27_000, 'kg'))).toBe(1);
    expect(shipmentBlocks(toGrams(27_000.001, 'kg'))).toBe(2);
    expect(shipmentBlocks(toGrams(54_000, 'kg'))).toBe(2);
    // Lines in different units add up: 20 t + 7,000,000 g + 1 kg is just over 27 t.
    expect(shipmentFee(fees, [{ netWeight: 20_000, unit: 'kg' }, { netWeight: 7_000_000, unit: 'g' }, { netWeight: 1, unit: 0 }])).toBe(toHalalas(2000));
    expect(shipmentFee(fees, [{ netWeight: 26_999, unit: 'kg' }])).toBe(toHalalas(1000));
  });

  it('charges marks per product per year, pro rata when less of the certificate remains', () => {
    expect(markFee(fees, 8, 12)).toBe(toHalalas(4000));
    expect(markFee(fees, 8, 30)).toBe(toHalalas(4000)); // never more than a year
    expect(markFee(fees, 3, 5)).toBe(toHalalas(625)); // 3 x 500 x 5 / 12
  });

  it('reads every amount from configuration', () => {
    const custom = feeScheduleOf(testConfig({ FEE_SHIPMENT_PER_27_TONS_SAR: '1200', FEE_APPLICATION_SAR: '0' }));
    expect(shipmentFee(custom, [{ netWeight: 1, unit: 'kg' }])).toBe(toHalalas(1200));
    expect(applicationFee(custom, 'internal')).toBe(0);
    expect(() => testConfig({ FEE_AUDIT_PER_AUDITOR_DAY_SAR: '-1' })).toThrow(/FEE_AUDIT_PER_AUDITOR_DAY_SAR/);
  });
});

describe('the amount of the bill a request enters a payment step with', () => {
  const bill = (feeKind: string, service: number, context: Record<string, unknown> = {}, paymentOption: 'yearly' | 'full' | null = null) =>
    billAmountFor(fees)({ feeKind, service, paymentOption, context });

  it('charges the application fee, except for a CB appointment request', () => {
    expect(bill('application', 6)).toBe(1000);
    expect(bill('application', 1)).toBe(0);
  });

  it('charges audit fees from the agreed plan: team leader, technical auditors and the Islamic affairs expert, per visit day', () => {
    const auditPlan = { visitDays: 2, teamLeaderUserId: 'a', technicalAuditorUserIds: ['b', 'c'], islamicAffairsExpert: 'Sheikh' };
    expect(bill('auditFees', 8, { auditPlan })).toBe(2 * 4 * 2500);
    expect(() => bill('auditFees', 8, {})).toThrow(/audit plan/);
  });

  it('charges certificate fees for a year, or for the whole validity when paid in full', () => {
    const context = { data: { validity: { years: 3 } } };
    expect(bill('certificate', 6, context, 'yearly')).toBe(5000);
    expect(bill('certificate', 6, context, 'full')).toBe(15_000);
    expect(bill('certificate', 7, context, 'full')).toBe(22_500);
    expect(bill('certificate', 5)).toBe(30_000);
  });

  it('charges shipments by the net weight of products and slaughters, in any unit', () => {
    const data = { products: [{ netWeight: 20_000, unit: 0 }], slaughter: { slaughters: [{ netWeight: 8, unit: 'kl' }] } };
    expect(bill('shipment', 4, { data })).toBe(2000);
  });

  it('charges Halal marks per product', () => {
    expect(bill('halalMark', 6, { data: { products: [{}, {}, {}] } })).toBe(1500);
    expect(bill('halalMark', 6, { data: { productCount: 2, months: 6 } })).toBe(500);
  });
});
