import { and, eq, inArray, notInArray, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bills, certificates, delegations, facilityMembers, requests } from '../db/schema';
import { UserInFacilityRole } from '../machines/forms/facilities/schemas';
import { permissionsForFacility, type Actor } from '../machines/actor';
import { Permissions as P } from '../machines/permissions';
import { START_ROUTES, workPermissionsOf } from '../machines/services/start-routes';
import type { RequestKind } from '../machines/services/types';

/*
 * The read rule, in one place: who sees what a facility holds, per service. Every read door (the request lists, tabs,
 * search and dashboard counts, GET /api/requests/:id and its sub-reads, the event door's admission, bills, their files
 * and payment, certificates, their PDFs and marks, request files) asks these functions, by id or in SQL.
 *
 * - Halal-center staff see everything.
 * - A user of a facility sees a record of a service there while they hold, for that facility, the permission that
 *   works that service's requests (its Request permission, a shipment's Default: `workPermissionsOf`, the same one the
 *   write side asks for the applicant's steps and for paying a bill). The main user holds all of them; a sub user
 *   (delegate) the delegated ones. A record of no single service (a month-end bulk bill, a yearly instalment) is seen
 *   with any service's permission.
 * - An actor built without memberships (no `facilityPermissions`: the engine's own callers and fixtures; the server
 *   always builds them from the session) reads its facilities whole, as before delegations were read per service.
 * - A bill's lifecycle (a row of the requests table) is read as its bill, a certificate's or mark's as the certificate,
 *   in lists (SQL) as by id.
 * - A delegation is read by the facility's main user and by the delegate it names (and staff), not by the facility's
 *   other users: it holds a person's identity and what they were given (spec 01: delegation is the main user's).
 * - Anyone else sees nothing of the facility. A record refused by id does not exist for the reader (404), as another
 *   facility's does.
 */

const isStaff = (actor: Actor) => actor.permissions.includes(P.portals.halalCenter);

/** Every service's permission (any of them works a record of no single service). */
const SERVICE_PERMISSIONS: readonly string[] = workPermissionsOf(null);
const REQUEST_KINDS = Object.keys(START_ROUTES) as RequestKind[];

/** The service permission a certificate of each kind (certificates.kind) is read with: the service that issues it. */
const CERTIFICATE_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  internalHalal: [P.internalRequest.request],
  externalHalal: [P.externalRequest.request],
  cbDesignation: [P.cbAccreditation.request],
  shipment: [P.shipment.default],
  // An internal facility's marks are the internal service's, an external facility's (or its CB's) the external one's.
  halalMark: [P.internalRequest.request, P.externalRequest.request],
};
const CERTIFICATE_KINDS = Object.keys(CERTIFICATE_PERMISSIONS);
export const certificatePermissionsOf = (kind: string): readonly string[] => CERTIFICATE_PERMISSIONS[kind] ?? SERVICE_PERMISSIONS;

/** Whether the actor may read a record of the facility that the given service permissions (any of) work. */
export function maySeeService(actor: Actor, facilityPublicId: string, anyOf: readonly string[]): boolean {
  if (isStaff(actor)) return true;
  if (!actor.facilityIds.includes(facilityPublicId)) return false;
  if (!actor.facilityPermissions) return true;
  const held = permissionsForFacility(actor, facilityPublicId);
  return anyOf.some((p) => held.includes(p));
}

/** A request (or a record in the requests table) of this kind, filed by this facility. */
export const maySeeRequestOf = (actor: Actor, facilityPublicId: string, kind: string | null | undefined): boolean =>
  maySeeService(actor, facilityPublicId, workPermissionsOf(kind));

/** A certificate or mark: as its holder's user, or as the user of the CB that issued it. */
export const maySeeCertificateOf = (actor: Actor, cert: { kind: string; facilityPublicId: string; cbPublicId: string | null }): boolean =>
  [cert.facilityPublicId, cert.cbPublicId].some((f) => !!f && maySeeService(actor, f, certificatePermissionsOf(cert.kind)));

/**
 * The facilities whose records the actor reads, in SQL terms: `whole`, every service's; `partial`, a delegate's
 * facility with the request kinds and certificate kinds they may not read there. Null for staff (no bound).
 */
export interface ReadScope {
  whole: string[];
  partial: { facility: string; hiddenKinds: string[]; hiddenCertificateKinds: string[] }[];
}

export function readScopeOf(actor: Actor): ReadScope | null {
  if (isStaff(actor)) return null;
  const scope: ReadScope = { whole: [], partial: [] };
  for (const facility of actor.facilityIds) {
    if (!actor.facilityPermissions) {
      scope.whole.push(facility);
      continue;
    }
    const held = permissionsForFacility(actor, facility);
    const holds = (anyOf: readonly string[]) => anyOf.some((p) => held.includes(p));
    const hiddenKinds = REQUEST_KINDS.filter((k) => !holds(workPermissionsOf(k)));
    if (!hiddenKinds.length) scope.whole.push(facility);
    // Nothing of any service: nothing of the facility at all (not even a bulk bill).
    else if (holds(SERVICE_PERMISSIONS)) {
      scope.partial.push({ facility, hiddenKinds, hiddenCertificateKinds: CERTIFICATE_KINDS.filter((k) => !holds(CERTIFICATE_PERMISSIONS[k]!)) });
    }
  }
  return scope;
}

/**
 * The rows of `facility` (a column holding the facility's public id) the actor reads, given a condition that leaves
 * out a partial facility's hidden records. The main user's (and every whole facility's) condition is the plain
 * `facility in (...)` the lists were planned and benchmarked with; only a delegate's facilities add an `and`.
 */
function scoped(scope: ReadScope, facility: Column | SQL, hidden: (p: ReadScope['partial'][number]) => SQL): SQL {
  const parts: SQL[] = [];
  if (scope.whole.length) parts.push(sql`${facility} in ${scope.whole}`);
  for (const p of scope.partial) parts.push(sql`(${facility} = ${p.facility} and ${hidden(p)})`);
  if (!parts.length) return sql`false`;
  return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` or `)})`;
}

/**
 * Requests-table rows the actor reads; undefined for staff. `kind`, the one kind a list asks for: entity lifecycles are
 * listed only by kind (workflows/queries.ts), and read as their entity (maySeeRequestRow). Without an entity kind the
 * condition is the one the lists were planned and benchmarked with.
 */
export function requestsReadable(actor: Actor, kind?: string): SQL | undefined {
  const scope = readScopeOf(actor);
  if (!scope) return undefined;
  if (kind === 'delegation') return delegationsReadable(actor);
  const entity = kind === 'bill' ? billOfHiddenService : kind === 'certificate' || kind === 'halalMark' ? certificateOfHiddenKind : undefined;
  return scoped(scope, requests.facilityPublicId, (p) => {
    const shown = notInArray(requests.kind, p.hiddenKinds);
    const hidden = entity?.(p);
    return hidden ? and(shown, sql`not ${hidden}`)! : shown;
  });
}

/** A bill lifecycle whose bill names a request of a service hidden from the reader there (as kindOfRequest by id). */
const billOfHiddenService = (p: ReadScope['partial'][number]): SQL =>
  sql`exists (select 1 from ${bills} join ${requests} as billed on billed.id = ${bills.requestId} where ${bills.id} = ${requests.id} and billed.kind in ${p.hiddenKinds})`;

/** A certificate's or mark's lifecycle whose certificate is of a kind hidden from the reader there. */
const certificateOfHiddenKind = (p: ReadScope['partial'][number]): SQL | undefined =>
  p.hiddenCertificateKinds.length
    ? sql`exists (select 1 from ${certificates} where ${certificates.id} = ${requests.id} and ${inArray(certificates.kind, p.hiddenCertificateKinds)})`
    : undefined;

/**
 * Delegation lifecycles the actor reads, in SQL (non-staff): of their facilities, those they are the main user of or
 * the delegate of; an actor built without memberships reads its facilities whole.
 */
function delegationsReadable(actor: Actor): SQL {
  if (!actor.facilityIds.length) return sql`false`;
  const theirs = sql`${requests.facilityPublicId} in ${actor.facilityIds}`;
  if (!actor.facilityPermissions) return theirs;
  // As maySeeDelegation: the reader's membership of the delegation's facility, as its main user or its delegate.
  const readable = sql`exists (select 1 from ${delegations} join ${facilityMembers} on ${facilityMembers.facilityId} = ${delegations.facilityId} where ${delegations.id} = ${requests.id} and ${facilityMembers.userId} = ${actor.userId} and (${facilityMembers.role} = ${UserInFacilityRole.MainUser} or ${delegations.delegateUserId} = ${actor.userId}))`;
  return sql`(${theirs} and ${readable})`;
}

/** Whether the actor may read a delegation (a non-staff member of its facility): as its facility's main user or its delegate. */
async function maySeeDelegation(db: Db, actor: Actor, row: { id: string; facilityId: string }): Promise<boolean> {
  if (!actor.facilityPermissions) return true;
  const [d] = await db
    .select({ delegateUserId: delegations.delegateUserId, role: facilityMembers.role })
    .from(delegations)
    .leftJoin(facilityMembers, and(eq(facilityMembers.facilityId, delegations.facilityId), eq(facilityMembers.userId, actor.userId)))
    .where(eq(delegations.id, row.id));
  return !!d && (d.delegateUserId === actor.userId || d.role === UserInFacilityRole.MainUser);
}

/**
 * Rows of a table that names a facility and, optionally, a request (bills, attachments) the actor reads: the
 * facility's, unless they name a request of a service hidden from the reader there. Undefined for staff.
 */
export function recordsReadable(actor: Actor, facility: Column, requestId: Column): SQL | undefined {
  const scope = readScopeOf(actor);
  if (!scope) return undefined;
  return scoped(
    scope,
    facility,
    (p) => sql`not exists (select 1 from ${requests} where ${requests.id} = ${requestId} and ${inArray(requests.kind, p.hiddenKinds)})`,
  );
}

/**
 * Certificates the actor reads: as holder or (when `cb` is given) issuing CB, of a service they may read there.
 * Undefined for staff.
 */
export function certificatesReadable(actor: Actor, cols: { facility: Column; cb?: Column; kind: Column }): SQL | undefined {
  const scope = readScopeOf(actor);
  if (!scope) return undefined;
  const hidden = (p: ReadScope['partial'][number]) => (p.hiddenCertificateKinds.length ? notInArray(cols.kind, p.hiddenCertificateKinds) : sql`true`);
  return cols.cb ? or(scoped(scope, cols.facility, hidden), scoped(scope, cols.cb, hidden))! : scoped(scope, cols.facility, hidden);
}

/** The kind of the request a record (bill, file) names, for its by-id check: null for none. */
export async function kindOfRequest(db: Db, id: string | null | undefined): Promise<string | null> {
  if (!id) return null;
  const [row] = await db.select({ kind: requests.kind }).from(requests).where(eq(requests.id, id));
  return row?.kind ?? null;
}

/**
 * Whether the actor may read a row of the requests table by id: a request by its kind; a bill's lifecycle as its bill
 * (its request's service), a certificate's or mark's as the certificate (its kind's service), a delegation by its
 * facility's main user and its delegate.
 */
export async function maySeeRequestRow(db: Db, actor: Actor, row: { id: string; kind: string; facilityId: string }): Promise<boolean> {
  if (isStaff(actor)) return true;
  if (!actor.facilityIds.includes(row.facilityId)) return false;
  if (row.kind === 'bill') {
    const [bill] = await db.select({ requestId: bills.requestId }).from(bills).where(eq(bills.id, row.id));
    return maySeeRequestOf(actor, row.facilityId, await kindOfRequest(db, bill?.requestId));
  }
  if (row.kind === 'certificate' || row.kind === 'halalMark') {
    const [cert] = await db
      .select({ kind: certificates.kind, facilityPublicId: certificates.facilityPublicId, cbPublicId: certificates.cbPublicId })
      .from(certificates)
      .where(eq(certificates.id, row.id));
    return cert ? maySeeCertificateOf(actor, cert) : maySeeRequestOf(actor, row.facilityId, null);
  }
  if (row.kind === 'delegation') return maySeeDelegation(db, actor, row);
  return maySeeRequestOf(actor, row.facilityId, row.kind);
}
