import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { bills, certificates, facilities, facilityMembers, requests } from '../db/schema';
import type { Actor } from '../machines/actor';
import type { Effect } from './step';
import { nextSequenceValue } from './numbers';

/*
 * The database effects a transition may request (machines/effects.ts names them and their params; the machines stay
 * pure). They run in the transaction of the event that requested them, so a bill exists exactly when the history
 * says it was created, and a refused or failed event leaves no bill behind.
 */

export interface BillInput {
  service: number;
  feeKind: string;
  paymentOption: 'yearly' | 'full' | null;
  /** The request's machine context (its data holds what fees depend on: products, weights, auditor days). */
  context: Record<string, unknown>;
}

export interface EffectDeps {
  vatRate: number;
  /** Milliseconds a new bill stays payable (PAYMENT_WINDOW_HOURS). */
  paymentWindowMs: number;
  /** SAR amount excluding VAT of a new bill, before the request's discount (the payments module's fee schedule). */
  billAmount?: (bill: BillInput) => number;
}

export interface EffectContext {
  /** The request row as the transition wrote it (without its start input). */
  request: Omit<typeof requests.$inferSelect, 'input'>;
  actor: Actor;
  now: Date;
}

type Params = Record<string, unknown>;
type Handler = (tx: Tx, params: Params, ctx: EffectContext, deps: EffectDeps) => Promise<void>;
type CertificateRow = typeof certificates.$inferSelect;
type Product = CertificateRow['products'][number];

/**
 * Validity of a new certificate, in months. The spec gives 3 years for a CB designation renewal and says Halal
 * certificate fees are paid annually; we read: CB designation 3 years (first issue and renewal alike), Halal
 * certificates of facilities 1 year, a shipment certificate 1 year (it covers one shipment).
 */
export const CERTIFICATE_VALIDITY_MONTHS: Record<string, number> = {
  cbDesignation: 36,
  internal: 12,
  external: 12,
  shipment: 12,
};

/** machines' certificate kinds -> the certificates table's kind column. */
const CERTIFICATE_TABLE_KIND: Record<string, string> = {
  cbDesignation: 'cbDesignation',
  internal: 'internalHalal',
  external: 'externalHalal',
  shipment: 'shipment',
};

const money = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
const contextOf = (ctx: EffectContext) => ctx.request.snapshot.context as Record<string, unknown>;
const dataOf = (ctx: EffectContext) => (contextOf(ctx).data ?? {}) as Record<string, unknown>;

function str(params: Params, key: string): string {
  const v = params[key];
  if (typeof v === 'string' && v) return v;
  throw new Error(`effect parameter '${key}' must be a non-empty string`);
}

/** The first array found under `key` in the request data, at the top or inside a section (wizard step). */
function findArray(data: Record<string, unknown>, key: string): unknown[] {
  if (Array.isArray(data[key])) return data[key] as unknown[];
  for (const section of Object.values(data)) {
    if (section && typeof section === 'object' && !Array.isArray(section)) {
      const inner = (section as Record<string, unknown>)[key];
      if (Array.isArray(inner)) return inner;
    }
  }
  return [];
}

function productsOf(data: Record<string, unknown>): Product[] {
  return findArray(data, 'products').flatMap((p) => {
    if (!p || typeof p !== 'object') return [];
    const o = p as Record<string, unknown>;
    const text = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : undefined);
    if (!text('nameAr') && !text('nameEn')) return [];
    return [{ nameAr: text('nameAr') ?? '', nameEn: text('nameEn') ?? '', brandAr: text('brandAr'), brandEn: text('brandEn'), hsCode: text('hsCode') ?? text('saudiHsCode') }];
  });
}

/**
 * The categories a certificate covers: plain codes, `{ id }`, or the request form's `{ category, subCategories }`
 * (a whole main category when no sub-category is chosen, else `main/sub` for each chosen one).
 */
function categoriesOf(data: Record<string, unknown>): string[] {
  return findArray(data, 'categories').flatMap((c) => {
    if (typeof c === 'string') return [c];
    if (!c || typeof c !== 'object') return [];
    const o = c as { id?: unknown; category?: unknown; subCategories?: unknown };
    if (typeof o.id === 'string') return [o.id];
    if (typeof o.category !== 'string') return [];
    const subs = Array.isArray(o.subCategories) ? o.subCategories.filter((x): x is string => typeof x === 'string') : [];
    return subs.length ? subs.map((sub) => `${o.category}/${sub}`) : [o.category];
  });
}

/** The validity the applicant chose (`validity: { years }` in any section of the request data), in months. */
function chosenValidityMonths(data: Record<string, unknown>): number | undefined {
  const sections = [data, ...Object.values(data).filter((v): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v))];
  for (const section of sections) {
    const years = (section.validity as { years?: unknown } | undefined)?.years;
    if (typeof years === 'number' && Number.isInteger(years) && years > 0) return years * 12;
  }
  return undefined;
}

async function nextNumber(tx: Tx, prefix: string, now: Date): Promise<string> {
  return `${prefix}-${now.getUTCFullYear()}-${String(await nextSequenceValue(tx)).padStart(6, '0')}`;
}

/** A person-readable random code for the certificate's QR (no 0/O/1/I to misread). */
function verificationCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(16)].map((b) => alphabet[b % alphabet.length]).join('');
}

const addMonths = (d: Date, months: number) => {
  const out = new Date(d);
  out.setUTCMonth(out.getUTCMonth() + months);
  return out;
};

/** Closes the request's open bill: 2 paid, 3 expired, 4 cancelled. A bill already closed stays as it is. */
async function closeOpenBills(tx: Tx, ctx: EffectContext, status: 2 | 3 | 4): Promise<void> {
  await tx
    .update(bills)
    .set({ status, ...(status === 2 ? { paidAt: ctx.now } : {}) })
    .where(and(eq(bills.requestId, ctx.request.id), eq(bills.status, 1)));
}

/** The certificate a request changes: data.certificateId when the request names one, else the facility's newest active one. */
async function targetCertificate(tx: Tx, ctx: EffectContext): Promise<CertificateRow> {
  const data = dataOf(ctx);
  const named = typeof data.certificateId === 'string' ? data.certificateId : undefined;
  const [cert] = named
    ? await tx.select().from(certificates).where(and(eq(certificates.id, named), eq(certificates.facilityPublicId, ctx.request.facilityPublicId)))
    : await tx
        .select()
        .from(certificates)
        .where(
          and(
            eq(certificates.facilityPublicId, ctx.request.facilityPublicId),
            inArray(certificates.status, [1, 3]),
            ne(certificates.kind, 'halalMark'),
          ),
        )
        .orderBy(desc(certificates.issuedAt))
        .limit(1);
  if (!cert) throw new Error(`request ${ctx.request.number} names no certificate of ${ctx.request.facilityPublicId} to change`);
  return cert;
}

async function issue(tx: Tx, ctx: EffectContext, params: Params, validFrom: Date): Promise<void> {
  const certificateKind = str(params, 'certificateKind');
  const data = dataOf(ctx);
  const months =
    typeof params.validityMonths === 'number'
      ? params.validityMonths
      : (chosenValidityMonths(data) ?? CERTIFICATE_VALIDITY_MONTHS[certificateKind]);
  if (months === undefined) throw new Error(`no validity for certificate kind '${certificateKind}'`);
  await tx.insert(certificates).values({
    number: await nextNumber(tx, 'HC', ctx.now),
    kind: CERTIFICATE_TABLE_KIND[certificateKind] ?? certificateKind,
    requestId: ctx.request.id,
    facilityPublicId: ctx.request.facilityPublicId,
    cbPublicId: typeof data.cbPublicId === 'string' ? data.cbPublicId : null,
    categories: categoriesOf(data),
    products: productsOf(data),
    verificationCode: verificationCode(),
    issuedAt: ctx.now,
    validFrom,
    expiresAt: addMonths(validFrom, months),
  });
}

export const EFFECT_HANDLERS: Record<string, Handler> = {
  'effect.createBill': async (tx, params, ctx, deps) => {
    const context = contextOf(ctx);
    const input: BillInput = {
      service: Number(params.service),
      feeKind: str(params, 'feeKind'),
      paymentOption: (params.paymentOption as BillInput['paymentOption']) ?? null,
      context,
    };
    // Tests' machines may carry the amount; the real ones leave it to the fee schedule.
    const base = typeof params.amount === 'number' ? params.amount : deps.billAmount?.(input);
    if (base === undefined || !Number.isFinite(base)) throw new Error('no fee schedule: EffectDeps.billAmount is not set');
    const discount = Math.min(100, Math.max(0, Number(context.discountPercent ?? 0)));
    const amount = Math.round(base * (100 - discount)) / 100;
    const vat = Math.round(amount * deps.vatRate * 100) / 100;
    await tx.insert(bills).values({
      number: await nextNumber(tx, 'B', ctx.now),
      requestId: ctx.request.id,
      facilityPublicId: ctx.request.facilityPublicId,
      service: input.service,
      feeKind: input.feeKind,
      amount: money(amount),
      vat: money(vat),
      total: money(amount + vat),
      status: 1,
      dueAt: new Date(ctx.now.getTime() + deps.paymentWindowMs),
      createdAt: ctx.now,
    });
  },
  'effect.cancelBill': (tx, _params, ctx) => closeOpenBills(tx, ctx, 4),
  'effect.expireBill': (tx, _params, ctx) => closeOpenBills(tx, ctx, 3),
  /** The payments module may have marked it paid already when it verified the callback; then nothing changes. */
  'effect.markBillPaid': (tx, _params, ctx) => closeOpenBills(tx, ctx, 2),
  'effect.issueCertificate': (tx, params, ctx) => issue(tx, ctx, params, ctx.now),
  /** A renewal is a new certificate that starts where the current one ends, so validity never has a gap or overlap. */
  'effect.renewCertificate': async (tx, params, ctx) => {
    const kind = str(params, 'certificateKind');
    const [current] = await tx
      .select()
      .from(certificates)
      .where(and(eq(certificates.facilityPublicId, ctx.request.facilityPublicId), eq(certificates.kind, CERTIFICATE_TABLE_KIND[kind] ?? kind)))
      .orderBy(desc(certificates.expiresAt))
      .limit(1);
    const from = current && current.expiresAt > ctx.now ? current.expiresAt : ctx.now;
    await issue(tx, ctx, params, from);
  },
  'effect.updateCertificateProducts': async (tx, _params, ctx) => {
    const cert = await targetCertificate(tx, ctx);
    const key = (p: Product) => `${p.nameEn}\u0000${p.nameAr}\u0000${p.brandEn ?? ''}`;
    const known = new Set(cert.products.map(key));
    const added = productsOf(dataOf(ctx)).filter((p) => !known.has(key(p)));
    await tx.update(certificates).set({ products: [...cert.products, ...added] }).where(eq(certificates.id, cert.id));
  },
  /** Categories are only ever added (spec: categories added earlier cannot be removed). */
  'effect.addCertificateCategories': async (tx, _params, ctx) => {
    const cert = await targetCertificate(tx, ctx);
    const categories = [...new Set([...cert.categories, ...categoriesOf(dataOf(ctx))])];
    await tx.update(certificates).set({ categories }).where(eq(certificates.id, cert.id));
  },
  /** One Halal mark per product of the request, valid one year but never beyond the facility's certificate. */
  'effect.issueHalalMarks': async (tx, _params, ctx) => {
    const cert = await targetCertificate(tx, ctx);
    const oneYear = addMonths(ctx.now, 12);
    const expiresAt = cert.expiresAt < oneYear ? cert.expiresAt : oneYear;
    const data = dataOf(ctx);
    for (const product of productsOf(data)) {
      await tx.insert(certificates).values({
        number: await nextNumber(tx, 'HM', ctx.now),
        kind: 'halalMark',
        requestId: ctx.request.id,
        facilityPublicId: ctx.request.facilityPublicId,
        cbPublicId: cert.cbPublicId,
        scope: typeof data.scope === 'string' ? data.scope : null,
        products: [product],
        verificationCode: verificationCode(),
        issuedAt: ctx.now,
        validFrom: ctx.now,
        expiresAt,
      });
    }
  },
  /** The draft leaves every list; its row and history stay for the audit trail. */
  'effect.deleteDraft': async (tx, _params, ctx) => {
    await tx.update(requests).set({ deletedAt: ctx.now }).where(eq(requests.id, ctx.request.id));
  },
  /** The delegate becomes a member of the facility (main 0 or sub 1, with the delegated permissions). */
  'effect.grantDelegation': async (tx, _params, ctx) => {
    const context = contextOf(ctx);
    const data = dataOf(ctx);
    const userId = String(context.delegateUserId ?? data.delegateUserId ?? '');
    if (!userId) throw new Error('delegation without a delegate user');
    const [facility] = await tx.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, ctx.request.facilityPublicId));
    if (!facility) throw new Error(`facility ${ctx.request.facilityPublicId} does not exist`);
    const role = Number(data.delegationType ?? 1) === 0 ? 0 : 1;
    const permissions = Array.isArray(data.permissions) ? data.permissions.filter((p): p is string => typeof p === 'string') : [];
    await tx
      .insert(facilityMembers)
      .values({ facilityId: facility.id, userId, role, permissions, createdAt: ctx.now })
      .onConflictDoUpdate({ target: [facilityMembers.facilityId, facilityMembers.userId], set: { role, permissions } });
  },
  'effect.revokeDelegation': async (tx, _params, ctx) => {
    const userId = String(contextOf(ctx).delegateUserId ?? dataOf(ctx).delegateUserId ?? '');
    const [facility] = await tx.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, ctx.request.facilityPublicId));
    if (!facility || !userId) return;
    await tx.delete(facilityMembers).where(and(eq(facilityMembers.facilityId, facility.id), eq(facilityMembers.userId, userId)));
  },
};

/** Applies effects in order; an effect without a handler is a programming error and aborts the transaction. */
export async function applyEffects(tx: Tx, effects: Effect[], ctx: EffectContext, deps: EffectDeps): Promise<void> {
  for (const effect of effects) {
    const handler = EFFECT_HANDLERS[effect.type];
    if (!handler) throw new Error(`No handler for ${effect.type}: add it to workflows/effects.ts`);
    await handler(tx, effect.params, ctx, deps);
  }
}
