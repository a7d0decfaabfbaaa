import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { certificates } from '../../../db/schema';
import { isRequestKind, serviceOf, type Precondition, type ServiceDefinition } from '../../../machines/services';
import type { RequestContext } from '../../../machines/types';
import type { RequestView } from '../../../workflows/engine';
import { AppError, registerErrorStatus } from '../../errors';
import { findFacility } from '../facilities/access';
import { isSuspended } from '../public/certificate-status';
import { assertPreconditions } from './preconditions';
import { factoryTakenBy, productsAlreadyOnCertificate } from './server-checks';

registerErrorStatus({ ExternalFacilityTaken: 409, NothingLeftToAdd: 409 });

/**
 * The preconditions that say the facility may still use what a request is about (spec 02 section 4: "an expired
 * certificate cannot be used", "an expired internal certificate blocks issuing certificates and other services until
 * renewed", "an expired notification or acceptance certificate blocks use of services"), and that a CB requesting a
 * designation holds none yet: a second designation request opened before the first was issued is neither paid for nor
 * issued (README, choices). The start-only ones (the renewal window, one open request per certificate) are not asked again.
 */
const USE: ReadonlySet<Precondition['type']> = new Set([
  'validCertificate',
  'notBlockedByExpiredCertificate',
  'cbAcceptanceValid',
  'cbDesignationValid',
  'cbHoldsNoDesignation',
]);

/**
 * A request submitted while its certificate was valid may meet an expired or suspended one later, or a foreign factory
 * another account has certified meanwhile (spec 02 section 4: "this request is suspended and the user may exit and
 * cancel"). Before the steps that use the certificate — paying the request's bill, and staff issuing or changing the
 * certificate — the service's use preconditions and its externalFacilityNotTaken check are asked again; each refusal
 * says why in the caller's language and changes nothing. The request waits where it is: once the certificate is
 * renewed or reinstated it goes on; the applicant may cancel it meanwhile (README, choices).
 */
export async function assertStillUsable(app: FastifyInstance, view: Pick<RequestView, 'id' | 'kind' | 'facilityId' | 'context'>, now = new Date(), event?: string): Promise<void> {
  const def = isRequestKind(view.kind) ? serviceOf(view.kind, app.services) : undefined;
  if (!def) return;
  if (event !== ISSUE_EVENT) await assertSomethingLeftToAdd(app, def, view);
  const preconditions = def.preconditions.filter((p) => USE.has(p.type));
  const checksFactory = def.serverChecks.includes('externalFacilityNotTaken');
  const renews = def.preconditions.some((p) => p.type === 'renewalWindow');
  if (!preconditions.length && !checksFactory && !renews) return;
  const facility = await findFacility(app.db, view.facilityId);
  if (!facility) return;
  const context = view.context as unknown as RequestContext;
  const subjectId = context.subject?.certificateId ?? null;
  const [subject] = subjectId ? await app.db.select().from(certificates).where(eq(certificates.id, subjectId)) : [];
  // A renewal's certificate suspended after the renewal was submitted: it is not renewed (nor its renewal fee taken)
  // until the suspension is lifted, as a renewal does not start then (renewalRefusal); the renewal waits where it is.
  if (renews && subject && isSuspended(subject)) throw new AppError('CertificateSuspended', { number: subject.number });
  await assertPreconditions({ db: app.db, def: { ...def, preconditions }, facility, subject: subject ?? null, settings: app.settings.current(), now, requestId: view.id });
  if (!checksFactory) return;
  const factory = def.project(context.data ?? {}, context).factoryPublicId;
  const other = factory ? await factoryTakenBy(app.db, factory, view.facilityId, now) : undefined;
  if (other) throw new AppError('ExternalFacilityTaken', { number: other.number });
}

/** The staff step that issues or changes the certificate once paid (service.ts USES_CERTIFICATE). */
const ISSUE_EVENT = 'ISSUE_CERTIFICATE';

/**
 * An add-products request submitted while its products were new may find every one of them on its certificate later
 * (another request of the same certificate, submitted at the same time, added them first): accepted and paid, it would
 * bill the applicant for a change that adds nothing. Registration accepting it, and its payment, are refused then,
 * saying so; registration returns it (the applicant edits or cancels it) and an unpaid bill is cancelled with it or
 * expires. The issue of a request already paid is not refused: the payment is taken, the request ends as it would.
 */
async function assertSomethingLeftToAdd(app: FastifyInstance, def: ServiceDefinition, view: Pick<RequestView, 'context'>): Promise<void> {
  if (def.outcome !== 'changesCertificate' || !def.serverChecks.includes('productsNotOnCertificate')) return;
  const context = view.context as unknown as RequestContext;
  const subjectId = context.subject?.certificateId;
  if (!subjectId) return;
  const [subject] = await app.db.select().from(certificates).where(eq(certificates.id, subjectId));
  const projection = def.project(context.data ?? {}, context);
  if (!subject || !projection.products.length) return;
  if (productsAlreadyOnCertificate(projection, subject).size === projection.products.length) throw new AppError('NothingLeftToAdd', { number: subject.number });
}

/** Whether assertStillUsable lets the request go on (the actions it offers follow it). */
export async function isStillUsable(app: FastifyInstance, view: Pick<RequestView, 'id' | 'kind' | 'facilityId' | 'context'>, now = new Date(), event?: string): Promise<boolean> {
  try {
    await assertStillUsable(app, view, now, event);
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}
