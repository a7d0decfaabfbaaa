import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { Db } from '../../../db/client';
import { billLines, bills, facilities, payments, requests } from '../../../db/schema';
import { holdsForFacility, type Actor } from '../../../machines/actor';
import { workPermissionsOf } from '../../../machines/services/start-routes';
import '../facilities/errors';
import { kindOfRequest, maySeeRequestOf, recordsReadable } from '../../../workflows/read-scope';
import { isStaff } from '../../../machines/roles';
import { AppError, AppErrorCode } from '../../errors';
import type { Page } from '../../../workflows/engine';
import type { BillJson } from '../../../machines/forms/records';
import { serviceOf } from '../../../machines/services';
import type { RequestContext } from '../../../machines/types';

export type BillRow = typeof bills.$inferSelect;

/** A bill as the invoice screens and the bill file show it (spec 02 section 3, invoice and bill); the schema is shared with the web. */
export type BillView = BillJson;

export interface BillQuery {
  /** true: bills issued at the payment portal; false: not yet issued; absent: all. */
  issued?: boolean;
  status?: number;
  facilityId?: string;
  requestId?: string;
  /** Bill number, request number or payment reference (any part). */
  any?: string;
  /** true: month-end bulk invoices only; false: single bills only. */
  bulk?: boolean;
  pageNumber: number;
  pageSize: number;
}

/** Members of the bill's facility and Halal-center staff may see it. */
export function maySeeBill(actor: Actor, bill: Pick<BillRow, 'facilityPublicId'>): boolean {
  return isStaff(actor.permissions) || actor.facilityIds.includes(bill.facilityPublicId);
}

/** Only the facility's own users pay its bills. */
export const mayPayBill = (actor: Actor, bill: Pick<BillRow, 'facilityPublicId'>): boolean => actor.facilityIds.includes(bill.facilityPublicId);

/**
 * Paying moves the bill's request on, as the applicant's payment step does: a user of the facility who may not work
 * that request there (a delegate given only its profile, or only another service: a CB's shipments but not its
 * designation) sees the bill but may not pay it.
 */
export async function assertMayPayBill(db: Db, actor: Actor, bill: Pick<BillRow, 'facilityPublicId' | 'requestId'>): Promise<void> {
  const [request] = bill.requestId ? await db.select({ kind: requests.kind }).from(requests).where(eq(requests.id, bill.requestId)) : [];
  if (!holdsForFacility(actor, bill.facilityPublicId, workPermissionsOf(request?.kind))) throw new AppError('FacilityPermissionMissing');
}

/**
 * The bill, if the actor may see it; otherwise 404 as for a missing bill, so ids cannot be probed. A bill is read as
 * its request is (workflows/read-scope.ts): a delegate of the facility who may not work that service there gets 404 too.
 */
export async function loadBill(db: Db, actor: Actor, id: string, may: (a: Actor, b: BillRow) => boolean = maySeeBill): Promise<BillRow> {
  const [bill] = await db.select().from(bills).where(eq(bills.id, id));
  if (!bill || !may(actor, bill) || !maySeeRequestOf(actor, bill.facilityPublicId, await kindOfRequest(db, bill.requestId))) {
    throw new AppError(AppErrorCode.EntityNotFound);
  }
  return bill;
}

const joined = (db: Db) =>
  db
    .select({ bill: bills, requestNumber: requests.number, requestKind: requests.kind, snapshot: requests.snapshot, facility: facilities })
    .from(bills)
    .leftJoin(requests, eq(requests.id, bills.requestId))
    .leftJoin(facilities, eq(facilities.publicId, bills.facilityPublicId));

type JoinedRow = {
  bill: BillRow;
  requestNumber: string | null;
  requestKind: string | null;
  snapshot: Record<string, unknown> | null;
  facility: typeof facilities.$inferSelect | null;
};

/** The products a Halal-mark bill is for, as its request's service reads its data (null for other bills). */
function markProductCount(row: JoinedRow): number | null {
  if (row.bill.feeKind !== 'halalMark' || !row.requestKind) return null;
  const def = serviceOf(row.requestKind);
  const context = ((row.snapshot?.context ?? {}) as unknown) as RequestContext;
  if (!def) return null;
  const projection = def.project(context.data ?? {}, context);
  return projection.marks?.products ?? projection.products.length;
}

/**
 * The service a bill is for, as the bill file, the invoice screens and the payment portal name it (one source). A
 * Halal mark is billed under its certificate's payment service (6 or 7, spec 02 section 3), but the payer bought a
 * Halal mark: the name is the mark's, not the facility certificate's (walk1 item 15).
 */
export function billServiceName(bill: Pick<BillRow, 'service' | 'feeKind'>, t: TFunction): string {
  return bill.feeKind === 'halalMark' ? t('payments:certificate.kind.halalMark') : t(`payments:service.${bill.service}`);
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
const like = (text: string) => `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type Refund = BillView['refunds'][number];

/** The refunds recorded for payments of these bills (payments.refund_*), per bill, in the order they were recorded. */
async function refundsOf(db: Db, billIds: string[]): Promise<Map<string, Refund[]>> {
  const byBill = new Map<string, Refund[]>();
  if (!billIds.length) return byBill;
  const rows = await db
    .select({ billId: payments.billId, reference: payments.refundReference, refundedOn: payments.refundedOn, amount: payments.amount })
    .from(payments)
    .where(and(inArray(payments.billId, billIds), isNotNull(payments.refundRecordedAt)))
    .orderBy(asc(payments.refundRecordedAt));
  for (const r of rows) byBill.set(r.billId, [...(byBill.get(r.billId) ?? []), { reference: r.reference!, refundedOn: r.refundedOn!, amount: r.amount }]);
  return byBill;
}

function toView(row: JoinedRow, t: TFunction, refunds: Refund[] = []): BillView {
  const b = row.bill;
  const feeName = t(`payments:feeKind.${b.feeKind}`, { defaultValue: b.feeKind });
  const productCount = markProductCount(row);
  const name = b.bulk
    ? t('payments:billName.bulk', { period: b.period ?? '' })
    : productCount !== null
      ? t('payments:billName.mark', { name: feeName, count: productCount })
      : feeName;
  return {
    id: b.id,
    number: b.number,
    name,
    paymentReference: b.paymentReference,
    issued: b.paymentReference !== null,
    bulk: b.bulk,
    period: b.period,
    productCount,
    date: b.createdAt.toISOString(),
    dueAt: b.dueAt?.toISOString() ?? null,
    paidAt: b.paidAt?.toISOString() ?? null,
    service: { code: b.service, name: billServiceName(b, t) },
    feeKind: { code: b.feeKind, name: feeName },
    requestId: b.requestId,
    requestNumber: row.requestNumber,
    facility: {
      publicId: b.facilityPublicId,
      type: row.facility?.type ?? '',
      nameAr: row.facility?.nameAr ?? '—',
      nameEn: row.facility?.nameEn ?? '—',
    },
    amount: b.amount,
    vat: b.vat,
    total: b.total,
    credit: b.credit ?? null,
    status: { code: b.status, label: t(`payments:billStatus.${b.status}`) },
    refunds,
  };
}

export async function billView(db: Db, bill: BillRow, t: TFunction): Promise<BillView> {
  const [row] = await joined(db).where(eq(bills.id, bill.id));
  return toView(row, t, (await refundsOf(db, [bill.id])).get(bill.id));
}

/** A page of the bills the actor may see, newest first. */
export async function listBills(db: Db, actor: Actor, q: BillQuery, t: TFunction): Promise<Page<BillView>> {
  const where: SQL[] = [];
  if (!isStaff(actor.permissions)) {
    if (!actor.facilityIds.length) return { items: [], totalCount: 0, pageNumber: q.pageNumber, pageSize: q.pageSize };
    // The viewer's facilities, a delegate's only for the services delegated there (workflows/read-scope.ts).
    where.push(recordsReadable(actor, bills.facilityPublicId, bills.requestId)!);
  }
  if (q.issued === true) where.push(isNotNull(bills.paymentReference));
  if (q.issued === false) where.push(isNull(bills.paymentReference));
  if (q.status !== undefined) where.push(eq(bills.status, q.status));
  if (q.facilityId) where.push(eq(bills.facilityPublicId, q.facilityId));
  // A request's bills include the month-end bulk bill its invoice line joined (set A additions): the one it awaits and pays.
  if (q.requestId) where.push(or(eq(bills.requestId, q.requestId), inArray(bills.id, db.select({ id: billLines.billId }).from(billLines).where(eq(billLines.requestId, q.requestId))))!);
  if (q.bulk !== undefined) where.push(eq(bills.bulk, q.bulk));
  if (q.any?.trim()) {
    const p = like(q.any);
    where.push(or(ilike(bills.number, p), ilike(bills.paymentReference, p), ilike(requests.number, p))!);
  }
  const cond = where.length ? and(...where) : undefined;
  const [{ n }] = await db.select({ n: count() }).from(bills).leftJoin(requests, eq(requests.id, bills.requestId)).where(cond);
  const rows = await joined(db)
    .where(cond)
    .orderBy(desc(bills.createdAt), desc(bills.number))
    .limit(q.pageSize)
    .offset((q.pageNumber - 1) * q.pageSize);
  const refunds = await refundsOf(db, rows.map((r) => r.bill.id));
  return { items: rows.map((r) => toView(r, t, refunds.get(r.bill.id))), totalCount: Number(n), pageNumber: q.pageNumber, pageSize: q.pageSize };
}
