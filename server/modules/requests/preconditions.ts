import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { certificates, facilities, requests } from '../../../db/schema';
import type { OpenRenewalJson } from '../../../machines/forms/records';
import type { CertificateTableKind, FacilityType, Precondition, RenewalWindow, ServiceDefinition } from '../../../machines/services';
import { wholeMonthsBetween } from '../../../machines/services/fees';
import type { BusinessSettings } from '../../../machines/services/settings';
import { AppError, registerErrorStatus } from '../../errors';
import { assertCbDesignationUsable, assertCbHoldsNoDesignation, assertCbServicesAllowed, latestCertificate } from '../facilities/certificate-rules';
import { isSuspended } from '../public/certificate-status';
import { assertNotBlockedByExpiredCertificate } from './expired-certificate';
import { inForce } from '../../../workflows/certificate-behind';
import { riyadhDate } from '../../../machines/working-days';

/*
 * The preconditions of spec 02 sections 4 and 9 that a service declares (machines/services/types.ts Precondition),
 * evaluated against the database when a request starts and again when it is submitted.
 */

registerErrorStatus({
  ServiceNotForFacility: 400,
  ServiceNotStartable: 400,
  CertificateRequired: 400,
  CertificateNotValidMissing: 400,
  CertificateNotValidSuspended: 400,
  CertificateNotValidExpired: 400,
  RenewalNotOpen: 400,
  CertificateSuspended: 400,
  CertificateUnderAMonth: 400,
  RequestAlreadyOpen: 409,
});

export type CertificateRow = typeof certificates.$inferSelect;
export type FacilityRow = typeof facilities.$inferSelect;

const DAY = 86_400_000;
/** facilities.type -> the contract's facility type. */
export const FACILITY_TYPE: Record<string, FacilityType> = { InternalFacility: 'internal', ExternalFacility: 'external', ConformityBody: 'cb' };

/** Active or expiring soon and not past its expiry: the one rule the engine's effects use too (inForce). */
export const isValidCertificate = (c: Pick<CertificateRow, 'status' | 'expiresAt'>, now = new Date()) => inForce(c, now);

/**
 * The refusal for a certificate a service rests on that is not valid (isValidCertificate false), saying why: the
 * facility holds none, it is suspended, or it has expired (on its expiry date, the authority's calendar day). A Halal
 * or designation certificate has no cancelled state (spec 02: codes 1 to 4); only a Halal mark is cancelled, and no
 * service rests on a mark.
 */
export function certificateNotValid(cert: Pick<CertificateRow, 'number' | 'status' | 'kind' | 'suspendedAt' | 'expiresAt'> | null | undefined): AppError {
  if (!cert) return new AppError('CertificateNotValidMissing');
  if (isSuspended(cert)) return new AppError('CertificateNotValidSuspended', { number: cert.number });
  return new AppError('CertificateNotValidExpired', { number: cert.number, date: riyadhDate(cert.expiresAt.getTime()) });
}

export const daysLeft = (c: Pick<CertificateRow, 'expiresAt'>, now = new Date()) => Math.ceil((c.expiresAt.getTime() - now.getTime()) / DAY);

/** A certificate the request may be about: of the service's kinds, held by the facility (or issued by it, for a CB acting for a factory). */
export async function subjectCertificateFor(db: Db, def: ServiceDefinition, facilityPublicId: string, certificateId: string | undefined): Promise<CertificateRow | null> {
  if (def.subject.type !== 'certificate') return null;
  if (!certificateId) throw new AppError('CertificateRequired');
  const [cert] = await db
    .select()
    .from(certificates)
    .where(and(eq(certificates.id, certificateId), inArray(certificates.kind, [...def.subject.certificateKinds])));
  // A certificate the facility neither holds nor issued does not exist for it.
  if (!cert || (cert.facilityPublicId !== facilityPublicId && cert.cbPublicId !== facilityPublicId)) throw new AppError('EntityNotFound');
  return cert;
}

/** The facility's newest certificate of the kinds, by the one rule (latestCertificate). */
const newestCertificate = (db: Db, facilityPublicId: string, kinds: readonly CertificateTableKind[]): Promise<CertificateRow | undefined> =>
  latestCertificate(db, facilityPublicId, kinds);

/** A refusal said as data (an error code and its message parameters): the precondition throws it, a list only reads it. */
export interface Refusal {
  code: 'CertificateSuspended' | 'RenewalNotOpen';
  params: Record<string, string | number>;
}

/**
 * Why the renewal of a certificate may not start now, or null when its window is open: a suspended certificate is not
 * renewed until the suspension is lifted (README, choices), else it opens with at most the window's days left (or
 * expired). The start checks it (the renewalWindow precondition) and the certificates answers offer a renewal by it
 * (certificates/renewal-offer.ts), so the tab never offers a renewal the start refuses. Plain data, as a list reads it
 * for every row.
 */
export function renewalRefusal(subject: CertificateRow, window: RenewalWindow, settings: BusinessSettings, now: Date): Refusal | null {
  if (isSuspended(subject)) return { code: 'CertificateSuspended', params: { number: subject.number } };
  const days = settings[window.threshold];
  return daysLeft(subject, now) > days ? { code: 'RenewalNotOpen', params: { days, number: subject.number } } : null;
}

/** The certificate a request is about, as its machine keeps it (context.subject). */
const subjectIdSql = sql<string | null>`${requests.snapshot}->'context'->'subject'->>'certificateId'`;

/**
 * The oneOpenPerSubject rule for many subjects in one query: the requests of these kinds, started by the given facility
 * about the given certificate, that are neither deleted nor in a state the machine tags final (the queue column).
 * Answers a lookup by (facility, certificate), in the shape the certificates answers link it (ZOpenRenewal); the start
 * refuses a second request by it, the certificates list links the open one by it.
 */
export async function openRequestsAbout(
  db: Db,
  kinds: readonly string[],
  subjects: readonly { facilityPublicId: string; certificateId: string }[],
  exceptRequestId?: string,
): Promise<(facilityPublicId: string, certificateId: string) => OpenRenewalJson | undefined> {
  const rows =
    kinds.length && subjects.length
      ? await db
          .select({ id: requests.id, number: requests.number, kind: requests.kind, facilityPublicId: requests.facilityPublicId, certificateId: subjectIdSql })
          .from(requests)
          .where(
            and(
              inArray(requests.kind, [...kinds]),
              inArray(requests.facilityPublicId, [...new Set(subjects.map((s) => s.facilityPublicId))]),
              inArray(subjectIdSql, [...new Set(subjects.map((s) => s.certificateId))]),
              isNull(requests.deletedAt),
              sql`${requests.queue} is distinct from 'final'`,
              exceptRequestId ? ne(requests.id, exceptRequestId) : undefined,
            ),
          )
      : [];
  const open = new Map(rows.map((r) => [`${r.facilityPublicId}|${r.certificateId}`, { id: r.id, number: r.number, kind: r.kind }]));
  return (facilityPublicId, certificateId) => open.get(`${facilityPublicId}|${certificateId}`);
}

export interface PreconditionInput {
  db: Db;
  def: ServiceDefinition;
  facility: FacilityRow;
  subject: CertificateRow | null;
  settings: BusinessSettings;
  now: Date;
  /** The request being checked again on submission (not counted as "another open request"). */
  requestId?: string;
}

async function check(p: Precondition, i: PreconditionInput): Promise<void> {
  switch (p.type) {
    case 'validCertificate': {
      const cert = i.subject ?? (await newestCertificate(i.db, i.facility.publicId, p.certificateKinds));
      if (!cert || !isValidCertificate(cert, i.now)) throw certificateNotValid(cert);
      return;
    }
    case 'renewalWindow': {
      if (!i.subject) throw new AppError('CertificateRequired');
      const refusal = renewalRefusal(i.subject, p, i.settings, i.now);
      if (refusal) throw new AppError(refusal.code, refusal.params);
      return;
    }
    case 'aMonthLeftOnSubject': {
      // The months the mark fee counts (machines/services/fees.ts): none left means a 0.00 package for a few days.
      if (i.subject && wholeMonthsBetween(i.now, i.subject.expiresAt) < 1) throw new AppError('CertificateUnderAMonth', { number: i.subject.number });
      return;
    }
    case 'notBlockedByExpiredCertificate':
      return assertNotBlockedByExpiredCertificate(i.db, i.facility.publicId, i.def.kind, i.now);
    case 'cbAcceptanceValid':
      return assertCbServicesAllowed(i.facility, i.now);
    case 'cbDesignationValid':
      return assertCbDesignationUsable(i.db, i.facility, i.now);
    case 'cbHoldsNoDesignation':
      return assertCbHoldsNoDesignation(i.db, i.facility, i.settings.cbRenewalPromptDays, i.now);
    case 'oneOpenPerSubject': {
      if (!i.subject) return;
      const openAbout = await openRequestsAbout(i.db, [i.def.kind], [{ facilityPublicId: i.facility.publicId, certificateId: i.subject.id }], i.requestId);
      const same = openAbout(i.facility.publicId, i.subject.id);
      if (same) throw new AppError('RequestAlreadyOpen', { number: same.number });
      return;
    }
  }
}

/** Every precondition of the service, in order; the first that fails answers with its own message. */
export async function assertPreconditions(i: PreconditionInput): Promise<void> {
  for (const p of i.def.preconditions) await check(p, i);
}
