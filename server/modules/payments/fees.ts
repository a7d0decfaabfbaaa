/**
 * Fees and VAT. Amounts are SAR; arithmetic is done in whole halalas (1 SAR = 100 halalas) so that VAT and totals
 * never carry binary-fraction errors, and the database stores them as numeric(14,2) strings.
 *
 * The fee schedule. The specification gives one amount (shipments: 1,000 SAR per 27 tons of net weight, excluding VAT)
 * and the rules around the others (the CB request study fee is exempted; internal and external certificate fees are
 * paid per year, or in full at once; audit fees depend on the agreed audit plan; Halal marks cost per product per year,
 * with a different fee when less than a year of the certificate remains). The amounts below are our choice, in the
 * range of what Saudi conformity services charge, and every one is a configuration variable (server/config.ts):
 *
 * | What                                         | Default (SAR, excl. VAT) | Variable                           | Service |
 * |----------------------------------------------|--------------------------|------------------------------------|---------|
 * | Application (request study), internal/external| 1,000 per request       | FEE_APPLICATION_SAR                | 6 / 7   |
 * | Application, CB designation                  | 0 (exempted by the spec) | —                                  | 1       |
 * | Audit: per auditor per visit day             | 2,500                    | FEE_AUDIT_PER_AUDITOR_DAY_SAR      | 8       |
 * | Internal facility certificate, per year      | 5,000                    | FEE_INTERNAL_CERTIFICATE_YEAR_SAR  | 6       |
 * | External facility certificate, per year      | 7,500                    | FEE_EXTERNAL_CERTIFICATE_YEAR_SAR  | 7       |
 * | CB designation certificate (3 years)         | 30,000                   | FEE_CB_DESIGNATION_SAR             | 5       |
 * | Shipment, per started 27 tons of net weight  | 1,000 (the spec's)       | FEE_SHIPMENT_PER_27_TONS_SAR       | 2, 3, 4 |
 * | Halal mark, per product per year             | 500 (pro rata by month)  | FEE_MARK_PER_PRODUCT_YEAR_SAR      | 6 / 7   |
 *
 * VAT is VAT_RATE (0.15) of the amount, rounded half up to the halala, shown separately; total = amount + VAT.
 */
import type { Config } from '../../config';

export type Halalas = number;

export interface FeeSchedule {
  application: number;
  auditPerAuditorDay: number;
  internalCertificateYear: number;
  externalCertificateYear: number;
  cbDesignation: number;
  shipmentPer27Tons: number;
  markPerProductYear: number;
}

export function feeScheduleOf(config: Config): FeeSchedule {
  return {
    application: config.FEE_APPLICATION_SAR,
    auditPerAuditorDay: config.FEE_AUDIT_PER_AUDITOR_DAY_SAR,
    internalCertificateYear: config.FEE_INTERNAL_CERTIFICATE_YEAR_SAR,
    externalCertificateYear: config.FEE_EXTERNAL_CERTIFICATE_YEAR_SAR,
    cbDesignation: config.FEE_CB_DESIGNATION_SAR,
    shipmentPer27Tons: config.FEE_SHIPMENT_PER_27_TONS_SAR,
    markPerProductYear: config.FEE_MARK_PER_PRODUCT_YEAR_SAR,
  };
}

/** SAR (a number, or a numeric string such as "1150.00" from the database) to halalas. */
export function toHalalas(sar: number | string): Halalas {
  if (typeof sar === 'string') {
    const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(sar.trim());
    if (!m) throw new Error(`not a SAR amount: ${sar}`);
    const h = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
    return m[1] ? -h : h;
  }
  return Math.round(sar * 100);
}

/** Halalas to the database's and the API's form: "1150.00". */
export function formatAmount(h: Halalas): string {
  const sign = h < 0 ? '-' : '';
  const abs = Math.abs(h);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export interface Charge {
  /** Without VAT. */
  amount: Halalas;
  vat: Halalas;
  /** With VAT. */
  total: Halalas;
}

/** VAT on an amount, rounded half up to the halala, computed in integers (rate in basis points). */
export function vatOn(amount: Halalas, vatRate: number): Halalas {
  const bp = Math.round(vatRate * 10_000);
  return Math.floor((amount * bp + 5_000) / 10_000);
}

export function withVat(amount: Halalas, vatRate: number): Charge {
  const vat = vatOn(amount, vatRate);
  return { amount, vat, total: amount + vat };
}

/** The same charge as the strings the bills table stores. */
export function chargeColumns(c: Charge): { amount: string; vat: string; total: string } {
  return { amount: formatAmount(c.amount), vat: formatAmount(c.vat), total: formatAmount(c.total) };
}

/** A discount of 0-100 % (spec: a request may be free of charge) applied before VAT, rounded to the halala. */
export function discounted(amount: Halalas, discountPercent = 0): Halalas {
  const p = Math.min(100, Math.max(0, discountPercent));
  return Math.round((amount * (100 - p)) / 100);
}

/** Application (study) fee: exempted for CB designation requests (spec 02 section 1). */
export function applicationFee(s: FeeSchedule, service: 'internal' | 'external' | 'cb'): Halalas {
  return service === 'cb' ? 0 : toHalalas(s.application);
}

/** Audit fees follow the agreed audit plan: every auditor (team leader, technical auditors, Islamic affairs expert) for every visit day. */
export function auditFee(s: FeeSchedule, plan: { visitDays: number; auditors: number }): Halalas {
  if (!Number.isInteger(plan.visitDays) || !Number.isInteger(plan.auditors) || plan.visitDays < 0 || plan.auditors < 0) {
    throw new Error('visitDays and auditors must be whole numbers');
  }
  return toHalalas(s.auditPerAuditorDay) * plan.visitDays * plan.auditors;
}

/** Payment way (spec 01 section 9): yearly instalments, or the whole validity at once. */
export type PaymentOption = 'yearly' | 'full';

/** Certificate fees: one year's fee for 'yearly', every year of the validity for 'full' (no discount for paying ahead). */
export function certificateFee(s: FeeSchedule, kind: 'internal' | 'external', validityYears: number, option: PaymentOption): Halalas {
  if (!Number.isInteger(validityYears) || validityYears < 1) throw new Error('validityYears must be a whole number of at least 1');
  const perYear = toHalalas(kind === 'internal' ? s.internalCertificateYear : s.externalCertificateYear);
  return option === 'yearly' ? perYear : perYear * validityYears;
}

export const cbDesignationFee = (s: FeeSchedule): Halalas => toHalalas(s.cbDesignation);

/** Spec 02 section 3 units: 0 kg, 1 g, 2 mg, 3 kl, 4 l, 5 ml. */
export const WEIGHT_UNITS = ['kg', 'g', 'mg', 'kl', 'l', 'ml'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

/** Grams per unit. Litres count as kilograms (the density of water): shipments of liquids are billed by volume. */
const GRAMS: Record<WeightUnit, number> = { kg: 1_000, g: 1, mg: 0.001, kl: 1_000_000, l: 1_000, ml: 1 };

/** A weight in whole grams (rounded), so sums and the 27-ton test are exact. */
export function toGrams(value: number, unit: WeightUnit | number): number {
  const u = typeof unit === 'number' ? WEIGHT_UNITS[unit] : unit;
  if (!u) throw new Error(`unknown weight unit ${unit}`);
  return Math.round(value * GRAMS[u]);
}

/** 27 metric tons in grams. */
const BLOCK_GRAMS = 27_000_000;

/**
 * Shipment fee (spec 02 section 9): 1,000 SAR per 27 tons of total net weight, excluding VAT. Every started block of
 * 27 tons counts in full (rounded up): 27 t pays 1 block, 27.001 t pays 2, and any shipment with weight pays at least 1.
 */
export function shipmentBlocks(netGrams: number): number {
  if (netGrams <= 0) return 0;
  return Math.ceil(netGrams / BLOCK_GRAMS);
}

export function shipmentFee(s: FeeSchedule, lines: { netWeight: number; unit: WeightUnit | number }[]): Halalas {
  const grams = lines.reduce((sum, l) => sum + toGrams(l.netWeight, l.unit), 0);
  return shipmentBlocks(grams) * toHalalas(s.shipmentPer27Tons);
}

/**
 * Halal mark fee: per product per year; a mark never outlives its facility certificate, so when fewer than 12 months
 * remain the mark gets those months at a pro-rata fee (spec 02 section 9: "the remaining months and a different fee").
 */
export function markFee(s: FeeSchedule, products: number, monthsRemaining: number): Halalas {
  const months = Math.max(0, Math.min(12, Math.floor(monthsRemaining)));
  return Math.round((toHalalas(s.markPerProductYear) * products * months) / 12);
}
