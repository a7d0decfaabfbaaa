import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { testConfig } from '../../server/config';
import { businessDefaults } from '../../server/business-defaults';
import {
  applicationFee,
  auditFee,
  certificateFee,
  chargeColumns,
  discounted,
  formatAmount,
  markFee,
  shipmentBlocks,
  shipmentFee,
  toGrams,
  toHalalas,
  vatOn,
  withVat,
  wholeMonthsBetween,
} from '../../machines/services/fees';
import { SERVICES, type RequestKind } from '../../machines/services';
import type { FeeKind } from '../../machines/effects';
import type { RequestContext } from '../../machines/types';
import { parsedData } from './fixtures';

const fees = businessDefaults(testConfig()).fees;

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
  it('charges the application fee of a facility request (the CB study fee is exempted: CB services have no application fee)', () => {
    expect(applicationFee(fees)).toBe(toHalalas(1000));
    expect(SERVICES.cbDesignation.fees.application).toBeUndefined();
  });

  it('charges audits per auditor and visit day of the agreed plan', () => {
    expect(auditFee(fees, { visitDays: 2, auditors: 3 })).toBe(toHalalas(15_000));
    expect(() => auditFee(fees, { visitDays: 1.5, auditors: 1 })).toThrow();
  });

  it('charges certificates yearly, or every year of the validity at once', () => {
    expect(certificateFee(fees.internalCertificateYear, 3, 'yearly')).toBe(toHalalas(5000));
    expect(certificateFee(fees.internalCertificateYear, 3, 'full')).toBe(toHalalas(15_000));
    expect(certificateFee(fees.externalCertificateYear, 2, 'full')).toBe(toHalalas(15_000));
  });

  it('charges 1,000 SAR per started 27 tons of net weight, and refuses to price no weight at all', () => {
    expect(() => shipmentBlocks(0)).toThrow();
    expect(shipmentBlocks(1)).toBe(1);
    expect(shipmentBlocks(toGrams(27, 'kl'))).toBe(1); // 27 kl of liquid counts as 27 t
    expect(shipmentBlocks(toGrams(27_000, 'kg'))).toBe(1);
    expect(shipmentBlocks(toGrams(27_000.001, 'kg'))).toBe(2);
    expect(shipmentBlocks(toGrams(54_000, 'kg'))).toBe(2);
    // Lines in different units add up: 20 t + 7,000,000 g + 1 kg is just over 27 t.
    expect(shipmentFee(fees, toGrams(20_000, 'kg') + toGrams(7_000_000, 'g') + toGrams(1, 0))).toBe(toHalalas(2000));
    expect(shipmentFee(fees, toGrams(26_999, 'kg'))).toBe(toHalalas(1000));
    expect(() => toGrams(-5, 'kg')).toThrow();
    expect(() => toGrams(0, 'kg')).toThrow();
  });

  it('charges marks per product per year, pro rata when less of the certificate remains', () => {
    expect(markFee(fees, 8, 12)).toBe(toHalalas(4000));
    expect(markFee(fees, 8, 30)).toBe(toHalalas(4000)); // never more than a year
    expect(markFee(fees, 3, 5)).toBe(toHalalas(625)); // 3 x 500 x 5 / 12
    expect(wholeMonthsBetween(new Date('2026-01-15T00:00:00Z'), new Date('2026-06-14T00:00:00Z'))).toBe(4);
    expect(wholeMonthsBetween(new Date('2026-01-15T00:00:00Z'), new Date('2026-06-15T00:00:00Z'))).toBe(5);
  });

  it('reads every amount from configuration', () => {
    const custom = businessDefaults(testConfig({ FEE_SHIPMENT_PER_27_TONS_SAR: '1200', FEE_APPLICATION_SAR: '0' })).fees;
    expect(shipmentFee(custom, toGrams(1, 'kg'))).toBe(toHalalas(1200));
    expect(applicationFee(custom)).toBe(0);
    expect(() => testConfig({ FEE_AUDIT_PER_AUDITOR_DAY_SAR: '-1' })).toThrow(/FEE_AUDIT_PER_AUDITOR_DAY_SAR/);
  });
});

describe('the fee each service charges, from its own stored data', () => {
  const now = new Date('2026-11-23T10:00:00Z');
  const context = (kind: RequestKind, over: Partial<RequestContext> = {}): RequestContext =>
    ({ data: parsedData(kind), paymentOption: null, auditPlan: null, discountPercent: 0, ...over }) as RequestContext;
  const fee = (kind: RequestKind, feeKind: FeeKind, c: RequestContext = context(kind), subjectExpiresAt: Date | null = null) => {
    const def = SERVICES[kind];
    const rule = def.fees[feeKind];
    if (!rule) throw new Error(`${kind} has no ${feeKind} fee`);
    return rule({ projection: def.project(c.data, c), context: c, schedule: fees, subjectExpiresAt, now }) / 100;
  };

  it('internal certificate: application, audit fees from the agreed plan, and the chosen validity paid yearly or in full', () => {
    expect(fee('internalCertificate', 'application')).toBe(1000);
    const auditPlan = { visitDays: 2, teamLeaderUserId: 'a', technicalAuditorUserIds: ['b', 'c'], islamicAffairsExpert: 'Sheikh' };
    expect(fee('internalCertificate', 'auditFees', context('internalCertificate', { auditPlan }))).toBe(2 * 4 * 2500);
    expect(() => fee('internalCertificate', 'auditFees')).toThrow(/audit plan/);
    // The fixture chooses 3 years: yearly bills one year now, in full all three.
    expect(fee('internalCertificate', 'certificate', context('internalCertificate', { paymentOption: 'yearly' }))).toBe(5000);
    expect(fee('internalCertificate', 'certificate', context('internalCertificate', { paymentOption: 'full' }))).toBe(15_000);
  });

  it('external certificate: the payment way and validity chosen in the wizard', () => {
    expect(fee('externalCertificate', 'certificate')).toBe(2 * 7500); // full, 2 years
  });

  it('CB designation: the appointment request (service 1) and the appointment (service 5); the renewal has its own fee', () => {
    expect(fee('cbDesignation', 'auditFees')).toBe(10_000);
    expect(fee('cbDesignation', 'certificate')).toBe(30_000);
    expect(fee('cbRenewal', 'renewal')).toBe(25_000);
    expect(SERVICES.cbDesignation.feeDisplay).toBe('excludingVat');
    expect(SERVICES.cbRenewal.feeDisplay).toBe('includingVat');
  });

  it('shipment: by the net weight of products and slaughters, in their units', () => {
    // 20,000 kg of products and 8 kl of slaughters: 28 t, two started blocks of 27 t.
    expect(fee('shipment', 'shipment')).toBe(2000);
  });

  it('Halal marks: the package per tag (one product-year each), pro rata for the months the certificate has left', () => {
    // The fixture: 2 products in a package of 16 tags.
    expect(fee('internalHalalMark', 'halalMark', context('internalHalalMark'), new Date('2028-01-01T00:00:00Z'))).toBe(16 * 500);
    expect(fee('internalHalalMark', 'halalMark', context('internalHalalMark'), new Date('2027-05-24T00:00:00Z'))).toBe(16 * 500 * 6 / 12);
  });
});
