import { and, count, desc, eq, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import type { Db } from '../../../db/client';
import { bills, facilities, requests } from '../../../db/schema';
import type { Actor } from '../../../machines/actor';
import { isStaff } from '../../../machines/roles';
import { AppError, AppErrorCode } from '../../errors';
import type { Page } from '../../../workflows/engine';

export type BillRow = typeof bills.$inferSelect;

/** A bill as the invoice screens and the bill file show it (spec 02 section 3, invoice and bill). */
export interface BillView {
  id: string;
  number: string;
  /** The government payment portal's reference; null until the bill is issued there (first payment attempt). */
  paymentReference: string | null;
  /** True once the bill has a payment reference at the payment portal. */
  issued: boolean;
  /** ISO instants. */
  date: string;
  dueAt: string | null;
  paidAt: string | null;
  service: { code: number; name: string };
  feeKind: { code: string; name: string };
  requestId: string | null;
  requestNumber: string | null;
  facility: { publicId: string; type: string; nameAr: string; nameEn: string };
  /** SAR, two decimals: without VAT, the VAT, and the total with VAT. */
  amount: string;
  vat: string;
  total: string;
  status: { code: number; label: string };
}

export interface BillQuery {
  /** true: bills issued at the payment portal; false: not yet issued; absent: all. */
  issued?: boolean;
  status?: number;
  facilityId?: string;
  requestId?: string;
  pageNumber: number;
  pageSize: number;
}

/** Members of the bill's facility and Halal-center staff may see it. */
export function maySeeBill(actor: Actor, bill: Pick<BillRow, 'facilityPublicId'>): boolean {
  return isStaff(actor.permissions) || actor.facilityIds.includes(bill.facilityPublicId);
}

/** Only the facility's own users pay its bills. */
export const mayPayBill = (actor: Actor, bill: Pick<BillRow, 'facilityPublicId'>): boolean => actor.facilityIds.includes(bill.facilityPublicId);

/** The bill, if the actor may see it; otherwise 404 as for a missing bill, so ids cannot be probed. */
export async function loadBill(db: Db, actor: Actor, id: string, may: (a: Actor, b: BillRow) => boolean = maySeeBill): Promise<BillRow> {
  const [bill] = await db.select().from(bills).where(eq(bills.id, id));
  if (!bill || !may(actor, bill)) throw new AppError(AppErrorCode.EntityNotFound);
  return bill;
}

const joined = (db: Db) =>
  db
    .select({ bill: bills, requestNumber: requests.number, facility: facilities })
    .from(bills)
    .leftJoin(requests, eq(requests.id, bills.requestId))
    .leftJoin(facilities, eq(facilities.publicId, bills.facilityPublicId));

type JoinedRow = { bill: BillRow; requestNumber: string | null; facility: typeof facilities.$inferSelect | null };

function toView(row: JoinedRow, t: TFunction): BillView {
  const b = row.bill;
  return {
    id: b.id,
    number: b.number,
    paymentReference: b.paymentReference,
    issued: b.paymentReference !== null,
    date: b.createdAt.toISOString(),
    dueAt: b.dueAt?.toISOString() ?? null,
    paidAt: b.paidAt?.toISOString() ?? null,
    service: { code: b.service, name: t(`payments:service.${b.service}`) },
    feeKind: { code: b.feeKind, name: t(`payments:feeKind.${b.feeKind}`, { defaultValue: b.feeKind }) },
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
    status: { code: b.status, label: t(`payments:billStatus.${b.status}`) },
  };
}

export async function billView(db: Db, bill: BillRow, t: TFunction): Promise<BillView> {
  const [row] = await joined(db).where(eq(bills.id, bill.id));
  return toView(row, t);
}

/** A page of the bills the actor may see, newest first. */
export async function listBills(db: Db, actor: Actor, q: BillQuery, t: TFunction): Promise<Page<BillView>> {
  const where: SQL[] = [];
  if (!isStaff(actor.permissions)) {
    if (!actor.facilityIds.length) return { items: [], totalCount: 0, pageNumber: q.pageNumber, pageSize: q.pageSize };
    where.push(inArray(bills.facilityPublicId, actor.facilityIds));
  }
  if (q.issued === true) where.push(isNotNull(bills.paymentReference));
  if (q.issued === false) where.push(isNull(bills.paymentReference));
  if (q.status !== undefined) where.push(eq(bills.status, q.status));
  if (q.facilityId) where.push(eq(bills.facilityPublicId, q.facilityId));
  if (q.requestId) where.push(eq(bills.requestId, q.requestId));
  const cond = where.length ? and(...where) : undefined;
  const [{ n }] = await db.select({ n: count() }).from(bills).where(cond);
  const rows = await joined(db)
    .where(cond)
    .orderBy(desc(bills.createdAt), desc(bills.number))
    .limit(q.pageSize)
    .offset((q.pageNumber - 1) * q.pageSize);
  return { items: rows.map((r) => toView(r, t)), totalCount: Number(n), pageNumber: q.pageNumber, pageSize: q.pageSize };
}
