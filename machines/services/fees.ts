/**
 * Fees and VAT, pure. Amounts are SAR; arithmetic is done in whole halalas (1 SAR = 100 halalas) so that VAT and totals
 * never carry binary-fraction errors; the database stores them as numeric(14,2) strings.
 *
 * The fee schedule. The specification gives one amount (shipments: 1,000 SAR per 27 tons of net weight, excluding VAT)
 * and the rules around the others (the CB request study fee is exempted; internal and external certificate fees are
 * paid per year, or in full at once; audit fees depend on the agreed audit plan; Halal marks cost per product per year,
 * with a different fee when less than a year of the certificate remains). The amounts below are our choice, in the
 * range of what Saudi conformity services charge; each is a configuration variable (the default) and an administrator
 * setting (machines/services/settings.ts):
 *
 * | What                                              | Default SAR excl. VAT  | Variable                          | Service |
 * |---------------------------------------------------|------------------------|-----------------------------------|---------|
 * | Application (request study), internal/external    | 1,000 per request      | FEE_APPLICATION_SAR               | 6 / 7   |
 * | Request study, CB designation                     | 0 (exempted, spec)     | —                                 | —       |
 * | Audit: per auditor per visit day                  | 2,500                  | FEE_AUDIT_PER_AUDITOR_DAY_SAR     | 8       |
 * | Internal facility certificate, per year           | 5,000                  | FEE_INTERNAL_CERTIFICATE_YEAR_SAR | 6       |
 * | External facility certificate, per year           | 7,500                  | FEE_EXTERNAL_CERTIFICATE_YEAR_SAR | 7       |
 * | CB appointment request (technical review, visit)  | 10,000                 | FEE_CB_APPOINTMENT_REQUEST_SAR    | 1       |
 * | CB appointment (designation certificate, 3 years) | 30,000                 | FEE_CB_DESIGNATION_SAR            | 5       |
 * | CB renewal (3 years)                              | 25,000                 | FEE_CB_RENEWAL_SAR                | 5       |
 * | Shipment, per started 27 tons of net weight       | 1,000 (the spec's)     | FEE_SHIPMENT_PER_27_TONS_SAR      | 2, 3, 4 |
 * | Halal mark, per tag (product-year) of a package   | 500 (pro rata by month)| FEE_MARK_PER_PRODUCT_YEAR_SAR     | 6 / 7   |
 *
 * VAT is the VAT rate (0.15) of the amount, rounded half up to the halala, shown separately; total = amount + VAT.
 */
import type { FeeSchedule } from './settings';

export type Halalas = number;

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

/** Application (study) fee of a facility request. The CB request study fee is exempted (spec 02 section 1): CB services have no application fee rule. */
export const applicationFee = (s: FeeSchedule): Halalas => toHalalas(s.application);

/** Audit fees follow the agreed audit plan: every auditor (team leader, technical auditors, Islamic affairs expert) for every visit day. */
export function auditFee(s: FeeSchedule, plan: { visitDays: number; auditors: number }): Halalas {
  if (!Number.isInteger(plan.visitDays) || !Number.isInteger(plan.auditors) || plan.visitDays < 0 || plan.auditors < 0) {
    throw new Error('visitDays and auditors must be whole numbers');
  }
  return toHalalas(s.auditPerAuditorDay) * plan.visitDays * plan.auditors;
}

/** The auditors an audit plan bills: the team leader, each distinct technical auditor and the Islamic affairs expert. */
export function auditPlanSize(plan: unknown): { visitDays: number; auditors: number } {
  const p = (plan ?? {}) as { visitDays?: unknown; technicalAuditorUserIds?: unknown; teamLeaderUserId?: unknown };
  if (typeof p.visitDays !== 'number' || typeof p.teamLeaderUserId !== 'string') {
    throw new Error('audit fees need the agreed audit plan (visitDays, teamLeaderUserId) in the request context');
  }
  const technical = Array.isArray(p.technicalAuditorUserIds)
    ? new Set(p.technicalAuditorUserIds.filter((id) => id !== p.teamLeaderUserId)).size
    : 0;
  return { visitDays: p.visitDays, auditors: 1 + technical + 1 };
}

/** Payment way (spec 01 section 9): yearly instalments, or the whole validity at once. */
export type PaymentOption = 'yearly' | 'full';

/**
 * Certificate fees for the first bill: one year's fee for 'yearly' (the following years are billed on each
 * anniversary by the certificate's own lifecycle), every year of the validity for 'full' (no discount for paying ahead).
 */
export function certificateFee(perYearSar: number, validityYears: number, option: PaymentOption): Halalas {
  if (!Number.isInteger(validityYears) || validityYears < 1) throw new Error('validityYears must be a whole number of at least 1');
  return option === 'yearly' ? toHalalas(perYearSar) : toHalalas(perYearSar) * validityYears;
}

/** Spec 02 section 3 units: 0 kg, 1 g, 2 mg, 3 kl, 4 l, 5 ml. */
export const WEIGHT_UNITS = ['kg', 'g', 'mg', 'kl', 'l', 'ml'] as const;
export type WeightUnit = (typeof WEIGHT_UNITS)[number];

/** Grams per unit. Litres count as kilograms (the density of water): shipments of liquids are billed by volume. */
const GRAMS: Record<WeightUnit, number> = { kg: 1_000, g: 1, mg: 0.001, kl: 1_000_000, l: 1_000, ml: 1 };

/** A weight in whole grams (rounded), so sums and the 27-ton test are exact. Unit: code 0-5 or its name. */
export function toGrams(value: number, unit: WeightUnit | number): number {
  const u = typeof unit === 'number' ? WEIGHT_UNITS[unit] : unit;
  if (!u) throw new Error(`unknown weight unit ${unit}`);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`a weight must be a positive number, got ${value}`);
  return Math.round(value * GRAMS[u]);
}

/** 27 metric tons in grams. */
const BLOCK_GRAMS = 27_000_000;

/**
 * Shipment fee (spec 02 section 9): 1,000 SAR per 27 tons of total net weight, excluding VAT. Every started block of
 * 27 tons counts in full (rounded up): 27 t pays 1 block, 27.001 t pays 2. A shipment without weight has no fee
 * because it cannot be submitted (the shipment service refuses it), never because it is billed 0.00.
 */
export function shipmentBlocks(netGrams: number): number {
  if (!Number.isFinite(netGrams) || netGrams <= 0) throw new Error('a shipment fee needs a positive total net weight');
  return Math.ceil(netGrams / BLOCK_GRAMS);
}

export const shipmentFee = (s: FeeSchedule, netGrams: number): Halalas => shipmentBlocks(netGrams) * toHalalas(s.shipmentPer27Tons);

/** Whole months from `now` to `until` (a started month is not counted), 0 when `until` has passed. */
export function wholeMonthsBetween(now: Date, until: Date): number {
  if (until <= now) return 0;
  let months = (until.getUTCFullYear() - now.getUTCFullYear()) * 12 + (until.getUTCMonth() - now.getUTCMonth());
  const probe = new Date(now);
  probe.setUTCMonth(probe.getUTCMonth() + months);
  if (probe > until) months--;
  return Math.max(0, months);
}

/**
 * Halal mark fee: per product per year; a mark never outlives its facility certificate, so when fewer than 12 months
 * remain the mark gets those months at a pro-rata fee (spec 02 section 9: "the remaining months and a different fee").
 */
export function markFee(s: FeeSchedule, products: number, monthsRemaining: number): Halalas {
  const months = Math.max(0, Math.min(12, Math.floor(monthsRemaining)));
  return Math.round((toHalalas(s.markPerProductYear) * products * months) / 12);
}
