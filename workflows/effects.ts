import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, getTableColumns, inArray, isNull, ne, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Tx } from '../db/client';
import { attachments, billLines, bills, certificates, facilities, facilityMembers, markPackageCredits, requests, workflowTimers } from '../db/schema';
import { creditSources, planCredit, recordCredit } from './mark-credit';
import { StepWaits } from './waiting';
import { certificateBehind, expiredOn, inForce } from './certificate-behind';
import { NEWEST_CERTIFICATE_FIRST } from './newest-certificate';
import type { Actor } from '../machines/actor';
import type { CertificateContext } from '../machines/certificate';
import type { EntityKind, Projection, ServiceRegistry } from '../machines/services';
import { emptyProjection, prefilledData, serviceOf, productKey } from '../machines/services';
import { chargeColumns, discounted, formatAmount, toHalalas, withVat } from '../machines/services/fees';
import type { BusinessSettings } from '../machines/services/settings';
import type { RequestContext } from '../machines/types';
import type { WorkflowEvent } from './engine';
import type { Effect } from './step';
import { NUMBER_SERIES, nextNumber } from './numbers';
import { HotStatement, fieldsOf } from './hot-statements';
import { AppError } from '../lib/app-error';

/*
 * The database effects a transition may request (machines/effects.ts names them and their params; the machines stay
 * pure). They run in the transaction of the event that requested them, so a bill exists exactly when the history
 * says it was created, and a refused or failed event leaves no bill behind. They read the request's data only through
 * its service's projection (machines/services). Bills, certificates and Halal marks get a lifecycle of their own:
 * each is started as a workflow (id = the entity's id) in the same transaction, and the request's effects move it
 * with system events, so its history records every change of status.
 */

export interface EffectDeps {
  /** The business settings in force (VAT rate, fees, payment window ...): read per effect, so a change applies at once. */
  settings: () => BusinessSettings;
  services: ServiceRegistry;
}

/** What the store gives an effect to start an entity's lifecycle, or to move one, in the same transaction. */
export interface EntityPort {
  start(
    kind: EntityKind,
    rec: {
      id: string;
      number: string;
      facilityPublicId: string;
      ownerUserId: string;
      data: Record<string, unknown>;
      /** The status the entity's row was inserted with: its first status is mirrored only when it differs. */
      status?: number;
    },
  ): Promise<void>;
  /** Sends a system event to an entity's lifecycle; false when its machine refuses it (e.g. already final). */
  send(id: string, event: WorkflowEvent): Promise<boolean>;
}

export interface EffectContext {
  /** The workflow row as the transition wrote it (a request, or an entity such as a certificate). */
  request: Pick<typeof requests.$inferSelect, 'id' | 'kind' | 'number' | 'facilityPublicId' | 'ownerUserId' | 'snapshot'>;
  actor: Actor;
  now: Date;
  entities: EntityPort;
}

type Params = Record<string, unknown>;
type Handler = (tx: Tx, params: Params, ctx: EffectContext, deps: EffectDeps) => Promise<void>;
type CertificateRow = typeof certificates.$inferSelect;

/**
 * Default validity of a new certificate, in months, when the request does not choose one. The spec gives 3 years for a
 * CB designation (on renewal; we read the first issue alike); facility certificates follow the applicant's choice (1-3
 * years) and default to 1; a shipment certificate covers one consignment and is valid 1 year.
 */
export const CERTIFICATE_VALIDITY_MONTHS: Record<string, number> = { cbDesignation: 36, internal: 12, external: 12, shipment: 12 };

/** machines' certificate kinds -> the certificates table's kind column and the number prefix. */
const CERTIFICATE_TABLE: Record<string, { kind: string; prefix: string }> = {
  cbDesignation: { kind: 'cbDesignation', prefix: 'CB' },
  internal: { kind: 'internalHalal', prefix: 'HC' },
  external: { kind: 'externalHalal', prefix: 'HC' },
  shipment: { kind: 'shipment', prefix: 'SC' },
};

const contextOf = (ctx: EffectContext) => ctx.request.snapshot.context as RequestContext;

/** The request's data as its service projects it; a kind without a service (a test fixture) projects nothing. */
function projectionOf(ctx: EffectContext, deps: EffectDeps): Projection {
  const def = serviceOf(ctx.request.kind, deps.services);
  if (!def) return emptyProjection();
  const context = contextOf(ctx);
  return def.project(context.data ?? {}, context);
}

function str(params: Params, key: string): string {
  const v = params[key];
  if (typeof v === 'string' && v) return v;
  throw new Error(`effect parameter '${key}' must be a non-empty string`);
}

/** A person-readable random code for the QR (no 0/O/1/I to misread). */
function verificationCode(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return [...randomBytes(16)].map((b) => alphabet[b % alphabet.length]).join('');
}

const addMonths = (d: Date, months: number) => {
  const out = new Date(d);
  out.setUTCMonth(out.getUTCMonth() + months);
  return out;
};
const periodOf = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

/** A statement of the effects' path, built once and prepared by name (workflows/hot-statements.ts). */
const hot = <Row>(name: string, q: ReturnType<typeof sql>, fields?: ReturnType<typeof fieldsOf>) => {
  const query = new PgDialect().sqlToQuery(q);
  return new HotStatement<Row>(name, () => ({ toSQL: () => query }), fields);
};
const columnList = (table: typeof certificates | typeof bills) =>
  sql.join(Object.values(getTableColumns(table)).map((c) => sql.identifier(c.name)), sql`, `);

/**
 * The request's own certificate (not a mark: the one it issued, or last renewed), else the facility's newest valid one: one round trip for what were two
 * queries, with the same order of preference (`pick`).
 */
const subjectStatement = hot<CertificateRow>(
  'wf_subject_certificate',
  sql`select ${columnList(certificates)} from (
        (select *, 0 as pick from ${certificates}
          where ("request_id" = ${sql.placeholder('requestId')} or "issued_by_request_id" = ${sql.placeholder('requestId')}) and "kind" <> 'halalMark'
          order by "issued_at" desc limit 1)
        union all
        (select *, 1 as pick from ${certificates} where "facility_public_id" = ${sql.placeholder('facilityPublicId')} and "status" in (1, 3)
          and "kind" <> 'halalMark' order by "issued_at" desc limit 1)
      ) as c order by pick limit 1`,
  fieldsOf(certificates),
);

const currentBillStatement = hot<typeof bills.$inferSelect>(
  'wf_current_bill',
  sql`select ${columnList(bills)} from ${bills}
      where "request_id" = ${sql.placeholder('requestId')}
         or "id" in (select ${billLines.billId} from ${billLines} where ${billLines.requestId} = ${sql.placeholder('requestId')})
      order by "created_at" desc limit 1`,
  fieldsOf(bills),
);

/**
 * A request's bill, numbered from the bill series in the same statement ('B-2026-000123', as nextNumber writes it):
 * the bill of every submission, so built once and one round trip instead of two.
 */
const billInsertStatement = hot<{ number: string }>(
  'wf_insert_bill',
  sql`insert into ${bills} ("id", "number", "request_id", "facility_public_id", "service", "fee_kind", "amount", "vat", "total", "credit", "valid_until", "status", "due_at", "created_at")
      select ${sql.placeholder('id')}, 'B-' || ${sql.placeholder('year')}::text || '-' || lpad(n, greatest(6, length(n)), '0'),
        ${sql.placeholder('requestId')}, ${sql.placeholder('facilityPublicId')}, ${sql.placeholder('service')}, ${sql.placeholder('feeKind')},
        ${sql.placeholder('amount')}, ${sql.placeholder('vat')}, ${sql.placeholder('total')}, ${sql.placeholder('credit')}, ${sql.placeholder('validUntil')}::timestamptz, 1,
        ${sql.placeholder('dueAt')}::timestamptz, ${sql.placeholder('createdAt')}::timestamptz
      from (select nextval('${sql.raw(NUMBER_SERIES.bill)}')::text as n) as drawn
      returning "number"`,
  [{ path: ['number'], field: bills.number }],
);

/**
 * The certificate a request is about: its subject; else the certificate the request itself issued (an issued external
 * certificate request adding products or categories, set A 108 / 132); else the facility's newest valid certificate
 * (not a mark). The request's own certificate comes first: the facility may hold a newer one (a second certificate of
 * the same factory, or a CB's designation when the CB made the request), and changes must not land on it.
 */
async function subjectCertificate(tx: Tx, ctx: EffectContext): Promise<CertificateRow | undefined> {
  const id = contextOf(ctx).subject?.certificateId;
  if (id) {
    const [cert] = await tx.select().from(certificates).where(eq(certificates.id, id));
    return cert;
  }
  const [cert] = await subjectStatement.execute(tx, { requestId: ctx.request.id, facilityPublicId: ctx.request.facilityPublicId });
  return cert;
}

async function requireSubject(tx: Tx, ctx: EffectContext): Promise<CertificateRow> {
  const cert = await subjectCertificate(tx, ctx);
  if (!cert) throw new Error(`request ${ctx.request.number} names no certificate to change`);
  return cert;
}

/** The request's current bill: its own, or the bulk bill its invoice line joined; the newest first. */
async function currentBill(tx: Tx, requestId: string) {
  const [bill] = await currentBillStatement.execute(tx, { requestId });
  return bill;
}

/**
 * The end of the validity a Halal-mark package is priced for (its fee rule: one year, or the whole months the subject
 * certificate has left when less): one year from now, or the certificate's expiry when sooner.
 */
async function markValidityEnd(tx: Tx, ctx: EffectContext): Promise<Date | undefined> {
  const subject = await subjectCertificate(tx, ctx);
  if (!subject) return undefined;
  const oneYear = addMonths(ctx.now, 12);
  return subject.expiresAt < oneYear ? subject.expiresAt : oneYear;
}

/** Halalas of the bill a transition asks for, before discount and VAT. */
async function billBase(tx: Tx, params: Params, ctx: EffectContext, deps: EffectDeps, schedule: BusinessSettings['fees']): Promise<number> {
  // Test machines may carry their amount (SAR); the real ones leave it to the service's fee rule.
  if (typeof params.amount === 'number') return toHalalas(params.amount);
  const feeKind = str(params, 'feeKind');
  if (ctx.request.kind === 'certificate') {
    // A yearly instalment: one year of the certificate's kind at the fee in force now.
    const [cert] = await tx.select({ kind: certificates.kind }).from(certificates).where(eq(certificates.id, ctx.request.id));
    return toHalalas(cert?.kind === 'externalHalal' ? schedule.externalCertificateYear : schedule.internalCertificateYear);
  }
  const def = serviceOf(ctx.request.kind, deps.services);
  const rule = def?.fees[feeKind as keyof typeof def.fees];
  if (!def || !rule) throw new Error(`${ctx.request.kind} has no fee rule for '${feeKind}'`);
  const subject = await subjectCertificate(tx, ctx);
  return rule({ projection: projectionOf(ctx, deps), context: contextOf(ctx), schedule, subjectExpiresAt: subject?.expiresAt ?? null, now: ctx.now });
}

/**
 * A conformity body issues, renews and marks a factory's certificate only under a designation it may use (the
 * cbDesignationValid rule of the start, submission and payment start, server/modules/facilities/certificate-rules.ts):
 * its newest designation held, neither expired nor suspended. These steps are the system's (a timer right after the
 * payment); a payment the portal took while the designation lapsed is kept, and the step waits (workflows/waiting.ts)
 * until the designation is renewed or reinstated, as a shipment waits for its factory's certificate. A request made by
 * the factory's own account, or by the Halal center's applicants, is not concerned.
 */
async function assertRequesterCbDesignated(tx: Tx, ctx: EffectContext): Promise<void> {
  const [own] = await tx.select({ type: facilities.type }).from(facilities).where(eq(facilities.publicId, ctx.request.facilityPublicId));
  if (own?.type !== 'ConformityBody') return;
  const [designation] = await tx
    .select({ number: certificates.number, status: certificates.status, expiresAt: certificates.expiresAt })
    .from(certificates)
    .where(and(eq(certificates.facilityPublicId, ctx.request.facilityPublicId), eq(certificates.kind, 'cbDesignation')))
    .orderBy(...NEWEST_CERTIFICATE_FIRST)
    .limit(1);
  if (!designation || designation.status === 2 || designation.status === 4 || designation.expiresAt <= ctx.now) {
    throw new StepWaits(`conformity body ${ctx.request.facilityPublicId} holds no usable designation${designation ? ` (${designation.number})` : ''}: it cannot certify a factory now`);
  }
}

async function certificateOwner(tx: Tx, ctx: EffectContext, projection: Projection): Promise<{ facilityPublicId: string; cbPublicId: string | null }> {
  const [own] = await tx.select({ type: facilities.type }).from(facilities).where(eq(facilities.publicId, ctx.request.facilityPublicId));
  const requestedByCb = own?.type === 'ConformityBody';
  return {
    facilityPublicId: projection.factoryPublicId ?? ctx.request.facilityPublicId,
    cbPublicId: projection.cbPublicId ?? (requestedByCb ? ctx.request.facilityPublicId : null),
  };
}

/** What an issued certificate lists: the projection's products, or the service's own goods (certificateGoods). */
async function issuedProducts(tx: Tx, ctx: EffectContext, deps: EffectDeps, projection: Projection, holderPublicId: string) {
  const goods = serviceOf(ctx.request.kind, deps.services)?.certificateGoods;
  if (!goods) return projection.products;
  const held = await tx
    .select({ products: certificates.products })
    .from(certificates)
    .where(and(eq(certificates.facilityPublicId, holderPublicId), eq(certificates.kind, CERTIFICATE_TABLE[goods.certifiedBy].kind)))
    .orderBy(...NEWEST_CERTIFICATE_FIRST);
  return goods.list(contextOf(ctx).data ?? {}, held.flatMap((c) => c.products));
}

/**
 * The certificate's products its renewal never saw, which the renewal therefore cannot have dropped: those added to the
 * certificate while the renewal was under way (not among the products it was offered, `input.subject.offeredProducts`,
 * kept when it started). A renewal started before it kept that list was offered the data of the request the
 * certificate names (as its own sections read it, the same prefilledData): then every product outside that data stays.
 */
async function productsAddedSince(tx: Tx, cert: CertificateRow, ctx: EffectContext, deps: EffectDeps, renewal: Projection) {
  const [own] = await tx.select({ input: requests.input }).from(requests).where(eq(requests.id, ctx.request.id));
  const offered = (own?.input as { subject?: { offeredProducts?: unknown } } | undefined)?.subject?.offeredProducts;
  let seen: Set<string>;
  if (Array.isArray(offered)) {
    seen = new Set([...offered.filter((k): k is string => typeof k === 'string'), ...renewal.products.map(productKey)]);
  } else {
    const def = serviceOf(ctx.request.kind, deps.services);
    const [renewed] = cert.requestId ? await tx.select({ snapshot: requests.snapshot }).from(requests).where(eq(requests.id, cert.requestId)) : [];
    const context = renewed?.snapshot.context as RequestContext | undefined;
    const prefilled = def && context ? def.project(prefilledData(def, context.data ?? {}), context).products : [];
    seen = new Set([...prefilled, ...renewal.products].map(productKey));
  }
  return cert.products.filter((p) => !seen.has(productKey(p)));
}

/**
 * Yearly instalments of a certificate paid yearly: every year after the first, billed on its anniversary. A request
 * made free of charge (100% discount, spec 02 section 4) has none: its later years are free as well; a partial discount
 * is carried to each (the rest of the request's certificate fee), the certificate's lifecycle billing with it.
 */
function installmentsOf(ctx: EffectContext, projection: Projection, certificateKind: string, years: number, validFrom: Date) {
  if (Number((contextOf(ctx) as Partial<RequestContext>).discountPercent ?? 0) >= 100) return undefined;
  const option = contextOf(ctx).paymentOption ?? projection.paymentWay;
  if (option !== 'yearly' || years <= 1 || (certificateKind !== 'internal' && certificateKind !== 'external')) return undefined;
  return { count: years - 1, firstDueAt: addMonths(validFrom, 12).toISOString(), service: certificateKind === 'internal' ? 6 : 7 };
}

/**
 * The discount of a certificate's yearly instalment: the one granted on the request that issued or last renewed it
 * (`certificates.request_id`), as each instalment is the rest of that request's certificate fee. A renewal carries its
 * own discount, never the old request's. Read from the request, not the certificate's lifecycle (whose released
 * version knows no discount).
 */
async function instalmentDiscount(tx: Tx, certificateId: string): Promise<number> {
  const [row] = await tx
    .select({ percent: sql<string | null>`${requests.snapshot}->'context'->>'discountPercent'` })
    .from(certificates)
    .innerJoin(requests, eq(requests.id, certificates.requestId))
    .where(eq(certificates.id, certificateId));
  const percent = Number(row?.percent ?? 0);
  return Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) : 0;
}

/**
 * The yearly instalments of a certificate's validity that were never billed, billed before it is renewed. Every year
 * of the validity the applicant chose is owed, as paying in full would have paid it (spec 02 section 9: "yearly, or the
 * full amount at once"), suspended years included: a suspended certificate arms no anniversary bill, so a certificate
 * suspended over an anniversary that is reinstated gets that year's bill at once (its deadline, past, fires on
 * re-entry), and one that expires suspended and is renewed gets it here, each a bill of one year at the fee in force, on
 * the certificate (as an anniversary's), with the discount of the request that issued that validity (so before
 * `request_id` moves to the renewal). By its renewal every anniversary of the old validity is past (renewal opens 60
 * days before the expiry; the last anniversary is a year before it), so what is left was never billed.
 */
async function billInstalmentsLeft(tx: Tx, cert: CertificateRow, ctx: EffectContext, deps: EffectDeps): Promise<void> {
  const [row] = await tx
    .select({ id: requests.id, kind: requests.kind, number: requests.number, facilityPublicId: requests.facilityPublicId, ownerUserId: requests.ownerUserId, snapshot: requests.snapshot })
    .from(requests)
    .where(and(eq(requests.id, cert.id), eq(requests.kind, 'certificate')));
  const lifecycle = row?.snapshot.context as Partial<CertificateContext> | undefined;
  const left = Number(lifecycle?.installmentsLeft ?? 0);
  if (!row || !(left > 0)) return;
  const params = { service: lifecycle?.installmentService ?? 6, feeKind: 'certificateInstallment', paymentOption: 'yearly' };
  for (let i = 0; i < left; i++) await EFFECT_HANDLERS['effect.createBill'](tx, params, { ...ctx, request: row }, deps);
}

export const EFFECT_HANDLERS: Record<string, Handler> = {
  'effect.createBill': async (tx, params, ctx, deps) => {
    const settings = deps.settings();
    const base = await billBase(tx, params, ctx, deps, settings.fees);
    if (!Number.isFinite(base) || base < 0) throw new Error(`no valid fee for ${ctx.request.kind} (${String(params.feeKind)})`);
    const discount = ctx.request.kind === 'certificate' ? await instalmentDiscount(tx, ctx.request.id) : Number((contextOf(ctx) as Partial<RequestContext>).discountPercent ?? 0);
    const service = Number(params.service);
    const feeKind = str(params, 'feeKind');
    // A Halal-mark package: the unused balance of the certificate's earlier packages is credited (workflows/mark-credit.ts).
    const certificateId = contextOf(ctx).subject?.certificateId;
    const markCredit =
      feeKind === 'halalMark' && params.bulk !== true && certificateId
        ? planCredit(
            discounted(base, discount),
            await creditSources(tx, { requestId: ctx.request.id, facilityPublicId: ctx.request.facilityPublicId, certificateId, lock: true }, deps.services),
          )
        : null;
    const charge = withVat(discounted(base, discount) - (markCredit?.credit ?? 0), settings.vatRate);
    const columns = chargeColumns(charge);
    if (params.bulk === true) {
      // Month-end bulk invoice: a line now, the payable bill at the end of the month (issueMonthInvoice).
      await tx.insert(billLines).values({
        requestId: ctx.request.id,
        facilityPublicId: ctx.request.facilityPublicId,
        service,
        feeKind,
        ...columns,
        period: periodOf(ctx.now),
        createdAt: ctx.now,
      });
      return;
    }
    const id = randomUUID();
    const [{ number }] = await billInsertStatement.execute(tx, {
      id,
      year: String(ctx.now.getUTCFullYear()),
      requestId: ctx.request.id,
      facilityPublicId: ctx.request.facilityPublicId,
      service,
      feeKind,
      ...columns,
      credit: markCredit ? formatAmount(markCredit.credit) : null,
      validUntil: feeKind === 'halalMark' ? ((await markValidityEnd(tx, ctx))?.toISOString() ?? null) : null,
      dueAt: new Date(ctx.now.getTime() + settings.paymentWindowHours * 3_600_000).toISOString(),
      createdAt: ctx.now.toISOString(),
    });
    const bill = { id, number };
    await ctx.entities.start('bill', { id, number, facilityPublicId: ctx.request.facilityPublicId, ownerUserId: ctx.request.ownerUserId, data: {}, status: 1 });
    if (markCredit && certificateId) {
      await recordCredit(tx, { requestId: ctx.request.id, facilityPublicId: ctx.request.facilityPublicId, certificateId, billId: bill.id, now: ctx.now }, markCredit.uses);
      if (markCredit.credit > 0 && charge.total === 0) {
        // The balance covers the whole package: the bill is settled by the credit (nothing to pay on the portal, which
        // refuses a zero bill), and the request hears PAYMENT_CONFIRMED from a timer due now, durably and in its history.
        await ctx.entities.send(bill.id, { type: 'PAYMENT_CONFIRMED', paymentReference: `CREDIT-${bill.number}` });
        await tx.update(bills).set({ paymentReference: `CREDIT-${bill.number}` }).where(eq(bills.id, bill.id));
        await tx.insert(workflowTimers).values({ requestId: ctx.request.id, event: 'PAYMENT_CONFIRMED', after: 'creditCovered', dueAt: ctx.now, createdAt: ctx.now });
      }
    }
  },

  /** The request's bill is cancelled (4); a line not yet invoiced is dropped from the month's invoice. */
  'effect.cancelBill': async (tx, _params, ctx) => {
    const lines = await tx
      .update(billLines)
      .set({ status: 'cancelled' })
      .where(and(eq(billLines.requestId, ctx.request.id), eq(billLines.status, 'pending')))
      .returning({ id: billLines.id });
    const bill = await currentBill(tx, ctx.request.id);
    // The bill this payment state issued was paid on the portal, the request not yet told (it is, on the portal's next
    // callback): cancelling would lose the payment, so the cancellation is refused and the payment moves the request on.
    // (A request waiting with an invoice line has no bill of this step: its latest bill is an earlier one.)
    if (!lines.length && bill?.status === 2 && !bill.bulk) throw new AppError('BillAlreadyPaid');
    if (bill && !bill.bulk) await ctx.entities.send(bill.id, { type: 'CANCEL' });
    // A mark package's credit is given back with its bill: it was never used for marks.
    if (bill) await tx.delete(markPackageCredits).where(eq(markPackageCredits.billId, bill.id));
  },
  'effect.expireBill': async (tx, _params, ctx) => {
    const bill = await currentBill(tx, ctx.request.id);
    // Paid on the portal before the window ended, the request not yet told: the payment wins. The deadline waits
    // (tried again every WAITING_RETRY_MS) until the portal's next callback, or the payment reconciliation sweep, moves
    // the request on (and cancels it). The same for the month-end bulk bill a request awaits in its payment state (the
    // newest bill its invoice line joined): paid, it waits too, rather than expiring the request with the money taken.
    if (bill?.status === 2) throw new StepWaits(`bill ${bill.number} was paid on the portal: the request waits for the payment`);
    if (bill) await ctx.entities.send(bill.id, { type: 'PAYMENT_EXPIRED' });
    if (bill) await tx.delete(markPackageCredits).where(eq(markPackageCredits.billId, bill.id));
  },
  /** The payments module may have marked the bill paid already when it verified the callback; its lifecycle hears it here. */
  'effect.markBillPaid': async (tx, _params, ctx) => {
    const bill = await currentBill(tx, ctx.request.id);
    if (bill) await ctx.entities.send(bill.id, { type: 'PAYMENT_CONFIRMED', ...(bill.paymentReference ? { paymentReference: bill.paymentReference } : {}) });
  },

  /**
   * Month end (spec 02 section 9): the facility's invoice lines of the month become ONE bulk bill. The first of the
   * facility's waiting requests whose timer fires creates it with every pending line of that month; the others find
   * their line already on it. The facility row is locked so two of them never create two bills.
   */
  'effect.issueMonthInvoice': async (tx, _params, ctx, deps) => {
    const [line] = await tx.select().from(billLines).where(eq(billLines.requestId, ctx.request.id)).orderBy(desc(billLines.createdAt)).limit(1);
    if (!line) throw new Error(`request ${ctx.request.number} has no invoice line`);
    if (line.billId) return;
    await tx.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, line.facilityPublicId)).for('update');
    const [again] = await tx.select({ billId: billLines.billId }).from(billLines).where(eq(billLines.id, line.id));
    if (again?.billId) return;
    const pending = await tx
      .select()
      .from(billLines)
      .where(and(eq(billLines.facilityPublicId, line.facilityPublicId), eq(billLines.period, line.period), eq(billLines.status, 'pending')));
    const sum = (k: 'amount' | 'vat' | 'total') => formatAmount(pending.reduce((s, l) => s + toHalalas(l[k]), 0));
    const services = [...new Set(pending.map((l) => l.service))];
    const [bill] = await tx
      .insert(bills)
      .values({
        number: await nextNumber(tx, 'bill', ctx.now, 'B'),
        requestId: null,
        facilityPublicId: line.facilityPublicId,
        service: services.length === 1 ? services[0] : line.service,
        feeKind: 'bulkInvoice',
        amount: sum('amount'),
        vat: sum('vat'),
        total: sum('total'),
        status: 1,
        bulk: true,
        period: line.period,
        dueAt: new Date(ctx.now.getTime() + deps.settings().paymentWindowHours * 3_600_000),
        createdAt: ctx.now,
      })
      .returning();
    await tx.update(billLines).set({ billId: bill.id, status: 'invoiced' }).where(inArray(billLines.id, pending.map((l) => l.id)));
    await ctx.entities.start('bill', { id: bill.id, number: bill.number, facilityPublicId: bill.facilityPublicId, ownerUserId: ctx.request.ownerUserId, data: {}, status: 1 });
  },

  'effect.issueCertificate': async (tx, params, ctx, deps) => {
    const certificateKind = str(params, 'certificateKind');
    const table = CERTIFICATE_TABLE[certificateKind];
    if (!table) throw new Error(`unknown certificate kind '${certificateKind}'`);
    const projection = projectionOf(ctx, deps);
    // A shipment is never certified against a suspended or expired factory certificate: the issue waits and its timer
    // tries it again (machines/shipment.ts v2: the paid shipment waits), as effect.issueHalalMarks does.
    const behind = params.whileFactoryCertified === true ? await certificateBehind(tx, { ...ctx.request, context: contextOf(ctx) }, ctx.now, deps.services) : null;
    if (behind && !behind.inForce) throw new StepWaits(`certificate ${behind.number} is not valid: no shipment certificate can be issued against it`);
    const months =
      typeof params.validityMonths === 'number' ? params.validityMonths : projection.validityYears ? projection.validityYears * 12 : CERTIFICATE_VALIDITY_MONTHS[certificateKind];
    // A factory's certificate, and a shipment issued by the system once paid (v2), only under a usable designation.
    if (certificateKind === 'external' || params.whileFactoryCertified === true) await assertRequesterCbDesignated(tx, ctx);
    const owner = await certificateOwner(tx, ctx, projection);
    const expiresAt = addMonths(ctx.now, months);
    const products = await issuedProducts(tx, ctx, deps, projection, owner.facilityPublicId);
    const [cert] = await tx
      .insert(certificates)
      .values({
        number: await nextNumber(tx, 'certificate', ctx.now, table.prefix),
        kind: table.kind,
        requestId: ctx.request.id,
        issuedByRequestId: ctx.request.id,
        facilityPublicId: owner.facilityPublicId,
        cbPublicId: owner.cbPublicId,
        scope: projection.scope,
        categories: projection.categories,
        products,
        verificationCode: verificationCode(),
        issuedAt: ctx.now,
        validFrom: ctx.now,
        expiresAt,
      })
      .returning();
    const installments = installmentsOf(ctx, projection, certificateKind, Math.round(months / 12), ctx.now);
    await ctx.entities.start('certificate', {
      id: cert.id,
      number: cert.number,
      facilityPublicId: cert.facilityPublicId,
      ownerUserId: ctx.request.ownerUserId,
      data: { expiresAt: expiresAt.toISOString(), ...(installments ? { installments } : {}) },
    });
  },

  /**
   * A renewal extends the existing certificate (spec 02 section 4: "must be renewed"): the new validity runs on from its
   * expiry (from today when it has expired, and then it is valid from today), its products become the renewal's and its categories gain the renewal's
   * (categories added earlier are never removed); its lifecycle hears RENEW with the new date and instalments.
   * The renewal was offered the certificate's products as they stood when it started, added ones included, so the
   * certificate then lists exactly those it kept, plus any added while it was under way (productsAddedSince).
   */
  'effect.renewCertificate': async (tx, params, ctx, deps) => {
    const certificateKind = str(params, 'certificateKind');
    if (certificateKind === 'external') await assertRequesterCbDesignated(tx, ctx);
    const cert = await requireSubject(tx, ctx);
    // Suspended meanwhile: not renewed until the suspension is lifted (the staff door refuses it first, still-usable.ts);
    // a renewal the system issues once paid waits and is tried again, renewed once the certificate is reinstated.
    if (cert.status === 4 || cert.suspendedAt) throw new StepWaits(`certificate ${cert.number} is suspended: it is not renewed until the suspension is lifted`);
    await billInstalmentsLeft(tx, cert, ctx, deps);
    const projection = projectionOf(ctx, deps);
    const months =
      typeof params.validityMonths === 'number' ? params.validityMonths : projection.validityYears ? projection.validityYears * 12 : CERTIFICATE_VALIDITY_MONTHS[certificateKind];
    // Renewed before its expiry, the validity runs on without a break: valid from the same day, to the old expiry plus
    // the validity. Renewed after it (a gap), it is valid again only from the renewal: the days it was expired are not
    // covered. Issued today either way: the certificate the holder downloads now is the renewed one (README, choices).
    const lapsed = expiredOn(cert, ctx.now);
    const from = lapsed ? ctx.now : cert.expiresAt;
    const expiresAt = addMonths(from, months);
    await tx
      .update(certificates)
      .set({
        issuedAt: ctx.now,
        ...(lapsed ? { validFrom: ctx.now } : {}),
        expiresAt,
        products: projection.products.length ? [...projection.products, ...(await productsAddedSince(tx, cert, ctx, deps, projection))] : cert.products,
        categories: [...new Set([...cert.categories, ...projection.categories])],
        requestId: ctx.request.id,
      })
      .where(eq(certificates.id, cert.id));
    const installments = installmentsOf(ctx, projection, certificateKind, Math.round(months / 12), from);
    const renewed = await ctx.entities.send(cert.id, {
      type: 'RENEW',
      expiresAt: expiresAt.toISOString(),
      installmentsLeft: installments?.count ?? 0,
      nextInstallmentAt: installments?.firstDueAt ?? null,
    });
    if (!renewed) throw new Error(`certificate ${cert.number} refused its renewal`);
  },

  /** The requested products join the certificate; those already on it are not added twice. */
  'effect.updateCertificateProducts': async (tx, _params, ctx, deps) => {
    const cert = await requireSubject(tx, ctx);
    const known = new Set(cert.products.map(productKey));
    const added = projectionOf(ctx, deps).products.filter((p) => !known.has(productKey(p)));
    await tx.update(certificates).set({ products: [...cert.products, ...added] }).where(eq(certificates.id, cert.id));
  },
  /** Categories are only ever added (spec 02 section 4: categories added earlier cannot be removed). */
  'effect.addCertificateCategories': async (tx, _params, ctx, deps) => {
    const cert = await requireSubject(tx, ctx);
    const categories = [...new Set([...cert.categories, ...projectionOf(ctx, deps).categories])];
    await tx.update(certificates).set({ categories }).where(eq(certificates.id, cert.id));
  },
  /** One Halal mark per product of the request, only against a valid certificate, valid one year but never beyond it. */
  'effect.issueHalalMarks': async (tx, _params, ctx, deps) => {
    const cert = await requireSubject(tx, ctx);
    if (!inForce(cert, ctx.now)) {
      // Suspended, it may be reinstated: wait. Expired, it never comes back for the months the package was priced for:
      // the request (v2) ends instead and its payment is refunded (machines/simple-request.ts endsWithCertificate).
      const expired = expiredOn(cert, ctx.now);
      throw new StepWaits(`certificate ${cert.number} is not valid: no Halal mark can be issued against it`, expired ? 'CERTIFICATE_EXPIRED' : undefined);
    }
    await assertRequesterCbDesignated(tx, ctx);
    // Never beyond what the package was priced for: a certificate renewed between the bill and its payment does not
    // lengthen marks billed for the months it had left then.
    const priced = (await currentBill(tx, ctx.request.id))?.validUntil;
    const expiresAt = [addMonths(ctx.now, 12), cert.expiresAt, ...(priced ? [priced] : [])].reduce((a, b) => (b < a ? b : a));
    const projection = projectionOf(ctx, deps);
    for (const [index, product] of projection.products.entries()) {
      const [mark] = await tx
        .insert(certificates)
        .values({
          number: await nextNumber(tx, 'mark', ctx.now, 'HM'),
          kind: 'halalMark',
          requestId: ctx.request.id,
          facilityPublicId: cert.facilityPublicId,
          cbPublicId: cert.cbPublicId,
          // Each mark carries its own product's scope (a package may mix Saudi and Global products).
          scope: projection.marks?.scopes?.[index] ?? projection.scope,
          products: [product],
          verificationCode: verificationCode(),
          issuedAt: ctx.now,
          validFrom: ctx.now,
          expiresAt,
          status: 4,
        })
        .returning();
      await ctx.entities.start('halalMark', {
        id: mark.id,
        number: mark.number,
        facilityPublicId: mark.facilityPublicId,
        ownerUserId: ctx.request.ownerUserId,
        data: { validFrom: ctx.now.toISOString(), expiresAt: expiresAt.toISOString(), certificateId: cert.id },
        status: 4,
      });
    }
  },
  /** The credit this package took from earlier packages' unused tags is theirs again (its marks were never issued). */
  'effect.returnMarkCredit': async (tx, _params, ctx) => {
    await tx.delete(markPackageCredits).where(eq(markPackageCredits.usedByRequestId, ctx.request.id));
  },
  /**
   * The draft leaves every list; its row and history stay for the audit trail. Its files go with it ("deletes the
   * draft"): no one downloads or lists them any more (a renewal names its certified request's files, never a draft's).
   */
  'effect.deleteDraft': async (tx, _params, ctx) => {
    await tx.update(requests).set({ deletedAt: ctx.now }).where(eq(requests.id, ctx.request.id));
    await tx.update(attachments).set({ deletedAt: ctx.now }).where(and(eq(attachments.requestId, ctx.request.id), isNull(attachments.deletedAt)));
  },
  /**
   * The delegate (the account the ACKNOWLEDGE event named) becomes a member of the facility with the delegated
   * permissions. An existing membership is never changed: a person who is already a member (the main user above
   * all) is refused, and the one-main-user index refuses a second main user.
   */
  'effect.grantDelegation': async (tx, _params, ctx) => {
    const context = ctx.request.snapshot.context as Record<string, unknown>;
    const data = (context.data ?? {}) as Record<string, unknown>;
    const userId = typeof context.delegateUserId === 'string' ? context.delegateUserId : '';
    if (!userId) throw new Error('delegation without a delegate user');
    const [facility] = await tx.select({ id: facilities.id }).from(facilities).where(eq(facilities.publicId, ctx.request.facilityPublicId));
    if (!facility) throw new Error(`facility ${ctx.request.facilityPublicId} does not exist`);
    const role = data.delegationType === 0 ? 0 : 1;
    const permissions = Array.isArray(data.permissions) ? data.permissions.filter((p): p is string => typeof p === 'string') : [];
    const added = await tx
      .insert(facilityMembers)
      .values({ facilityId: facility.id, userId, role, permissions, delegationId: ctx.request.id, createdAt: ctx.now })
      .onConflictDoNothing({ target: [facilityMembers.facilityId, facilityMembers.userId] })
      .returning({ userId: facilityMembers.userId });
    if (!added.length) throw new AppError('DelegateAlreadyMember');
  },
  /** Withdraws the membership this delegation created; a main user's membership is never removed. */
  'effect.revokeDelegation': async (tx, _params, ctx) => {
    await tx
      .delete(facilityMembers)
      .where(and(eq(facilityMembers.delegationId, ctx.request.id), ne(facilityMembers.role, 0)));
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

/**
 * Entity lifecycles mirror their status into the entity's own table, so lists and the public verification page read
 * one column: certificates and marks (certificates.status), bills (bills.status; paid_at when paid).
 */
export async function mirrorEntityStatus(tx: Tx, kind: string, id: string, status: number, now: Date): Promise<void> {
  if (kind === 'certificate' || kind === 'halalMark') {
    await tx
      .update(certificates)
      .set({ status, ...(kind === 'certificate' ? { suspendedAt: status === 4 ? now : null } : {}) })
      .where(eq(certificates.id, id));
  } else if (kind === 'bill') {
    await billStatusStatement.execute(tx, { id, status, paid: status === 2, now: now.toISOString() });
  }
}

/** A bill's status; paid (2) also sets paid_at unless the payments module set it already. */
const billStatusStatement = hot(
  'wf_bill_status',
  sql`update ${bills} set "status" = ${sql.placeholder('status')},
        "paid_at" = case when ${sql.placeholder('paid')}::boolean then coalesce("paid_at", ${sql.placeholder('now')}::timestamptz) else "paid_at" end
      where "id" = ${sql.placeholder('id')}`,
);
