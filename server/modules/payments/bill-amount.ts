import type { BillInput } from '../../../workflows/effects';
import {
  applicationFee,
  auditFee,
  cbDesignationFee,
  certificateFee,
  markFee,
  shipmentFee,
  WEIGHT_UNITS,
  type FeeSchedule,
  type Halalas,
  type WeightUnit,
} from './fees';

/*
 * The amount of a bill the engine creates when a request enters a payment step (workflows/effects.ts calls
 * EffectDeps.billAmount, then applies the request's discount and VAT). What each fee reads from the request:
 * - application: the fixed fee; none for a CB appointment request (service 1, exempted by the spec);
 * - auditFees: the agreed audit plan (context.auditPlan): visit days x auditors, the auditors being the team leader,
 *   the technical auditors and the one Islamic affairs expert;
 * - certificate / renewal: CB designation (service 5) is one fee; facility certificates (6 internal, 7 external) are
 *   per year, for one year ('yearly') or the whole validity (data.validity.years, default 1) when paid 'full';
 * - addProducts: adding products to a certificate is reviewed like an application: the application fee;
 * - halalMark: per product (data.products, or data.productCount) for data.months (default 12) months;
 * - shipment: 1,000 SAR per started 27 tons of the products' and slaughters' net weight.
 */

type Data = Record<string, unknown>;

/** An array under `key`, at the top of the request data or inside one of its sections (wizard steps). */
function findArray(data: Data, key: string): unknown[] {
  if (Array.isArray(data[key])) return data[key] as unknown[];
  for (const section of Object.values(data)) {
    if (section && typeof section === 'object' && !Array.isArray(section) && Array.isArray((section as Data)[key])) {
      return (section as Data)[key] as unknown[];
    }
  }
  return [];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function auditPlanSize(plan: unknown): { visitDays: number; auditors: number } {
  const p = (plan ?? {}) as { visitDays?: unknown; technicalAuditorUserIds?: unknown; teamLeaderUserId?: unknown };
  const visitDays = num(p.visitDays);
  if (visitDays === undefined || typeof p.teamLeaderUserId !== 'string') {
    throw new Error('audit fees need the agreed audit plan (visitDays, teamLeaderUserId) in the request context');
  }
  const technical = Array.isArray(p.technicalAuditorUserIds) ? new Set(p.technicalAuditorUserIds).size : 0;
  return { visitDays, auditors: 1 + technical + 1 };
}

function weightLines(data: Data): { netWeight: number; unit: WeightUnit | number }[] {
  return [...findArray(data, 'products'), ...findArray(data, 'slaughters')].flatMap((line) => {
    const l = (line ?? {}) as { netWeight?: unknown; unit?: unknown };
    const netWeight = num(l.netWeight);
    const unit = typeof l.unit === 'number' || (typeof l.unit === 'string' && (WEIGHT_UNITS as readonly string[]).includes(l.unit)) ? l.unit : 'kg';
    return netWeight === undefined ? [] : [{ netWeight, unit: unit as WeightUnit | number }];
  });
}

/** Halalas of the bill, before discount and VAT. */
export function billHalalas(s: FeeSchedule, bill: BillInput): Halalas {
  const data = (bill.context.data ?? {}) as Data;
  switch (bill.feeKind) {
    case 'application':
      return applicationFee(s, bill.service === 1 ? 'cb' : bill.service === 7 ? 'external' : 'internal');
    case 'addProducts':
      return applicationFee(s, bill.service === 7 ? 'external' : 'internal');
    case 'auditFees':
      return auditFee(s, auditPlanSize(bill.context.auditPlan));
    case 'certificate':
    case 'renewal': {
      if (bill.service === 5 || bill.service === 1) return cbDesignationFee(s);
      const years = num((data.validity as { years?: unknown } | undefined)?.years) ?? 1;
      return certificateFee(s, bill.service === 7 ? 'external' : 'internal', Math.max(1, Math.round(years)), bill.paymentOption ?? 'yearly');
    }
    case 'halalMark': {
      const products = num(data.productCount) ?? findArray(data, 'products').length;
      return markFee(s, products, num(data.months) ?? 12);
    }
    case 'shipment':
      return shipmentFee(s, weightLines(data));
    default:
      throw new Error(`no fee for fee kind '${bill.feeKind}'`);
  }
}

/** EffectDeps.billAmount for the engine: SAR excluding VAT, before the request's discount. */
export const billAmountFor =
  (s: FeeSchedule) =>
  (bill: BillInput): number =>
    billHalalas(s, bill) / 100;
