import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { TFunction } from 'i18next';
import { attachments, certificates, requests, users } from '../../../db/schema';
import type { Actor } from '../../../machines/actor';
import { mayStart, mayWorkQueue, queueWorkPermissions } from '../../../machines/allowed-actions';
import { isRequestKind, productKey, serviceOf, validateSubmission, prefilledData, withCertificateProducts, type DataIssue, type FeeRule, type ServiceDefinition } from '../../../machines/services';
import { REQUESTED_PRODUCTS } from '../../../machines/services/external';
import { discounted, withVat, type Charge } from '../../../machines/services/fees';
import { creditSources, planCredit } from '../../../workflows/mark-credit';
import type { RequestContext } from '../../../machines/types';
import type { RequestView, SendOptions, WorkflowEvent } from '../../../workflows/engine';
import { maySeeRequestOf, maySeeRequestRow } from '../../../workflows/read-scope';
import { readRequest } from '../../../workflows/store';
import type { Language } from '../../i18n';
import { AppError, AppErrorCode, registerErrorStatus, type ValidationDetail } from '../../errors';
import { crRegistryOf } from '../../adapters/cr-registry';
import { foodAuthorityOf } from '../../adapters/food-authority';
import { grantsOf } from '../../admin/role-store';
import { lockAttachments, lockRequestAttachments, unlockRequestAttachments } from '../attachments/service';
import { findFacility } from '../facilities/access';
import { planTimingIssues } from './plan-timing';
import { assertStillUsable } from './still-usable';
import { assertCertificateChangeAllowed, CERTIFICATE_CHANGES } from './certificate-changes';
import { assertPreconditions, FACILITY_TYPE, subjectCertificateFor, type CertificateRow } from './preconditions';
import { fileOwners, namedExporterIssues, namedFactoryIssues, productsAlreadyOnCertificate, runServerChecks, type FileScope } from './server-checks';

/*
 * The one way a request is started or moved, whichever door the call came through (the generic request calls, a
 * service's own convenience calls): the service contract's facility types, permissions and preconditions at start;
 * the checks that need the database on submission; the real-employee rule for assignment; then the engine, whose
 * send step validates every payload against the same contract (both adapters).
 */

registerErrorStatus({ AssigneeNotEligible: 400 });

/** Lifecycles whose events only their own calls send (server/modules/facilities/delegation-service.ts). */
const OWN_CALLS_ONLY = new Set(['delegation']);

/** What the applicant is told beside the answer; `names` are shown in the reader's language as one list. */
export interface Notice {
  key: string;
  params?: Record<string, unknown>;
  names?: Record<string, { ar: string; en: string }[]>;
}

// One list formatter per language, made once: every event answer passes through noticeTexts.
const LIST_FORMATS = new Map<Language, Intl.ListFormat>();
const listFormat = (lang: Language) => LIST_FORMATS.get(lang) ?? LIST_FORMATS.set(lang, new Intl.ListFormat(lang, { type: 'conjunction' })).get(lang)!;

/** The notices in the reader's language: each name list joined the way the language runs a list in (Intl.ListFormat). */
export function noticeTexts(t: TFunction, lang: Language, notices: Notice[]): string[] {
  return notices.map((n) => {
    const names = Object.fromEntries(Object.entries(n.names ?? {}).map(([k, v]) => [k, listFormat(lang).format(v.map((name) => name[lang]))]));
    return t(n.key, { ...n.params, ...names });
  });
}

export interface StartBody {
  kind: string;
  facilityId: string;
  certificateId?: string;
  data?: Record<string, unknown>;
}

const invalid = (details: ValidationDetail[]) => new AppError(AppErrorCode.ValidationFailed, {}, details);
const asDetails = (issues: { path: string; message: string; params?: Record<string, unknown> }[]): ValidationDetail[] =>
  issues.map((i) => ({ field: i.path, message: i.message, ...(i.params ? { params: i.params } : {}) }));
/** The 400 answer for issues a server check found (each with its field path and message). */
export const refusedData = (issues: { path: string; message: string; params?: Record<string, unknown> }[]) => invalid(asDetails(issues));

/** The request if this actor may see it; one they may not see does not exist for them (404, not 403). */
export async function visibleRequest(app: FastifyInstance, id: string, actor: Actor): Promise<RequestView> {
  const view = await app.engine.get(id);
  // The read rule (workflows/read-scope.ts): a delegate sees only the services delegated to them there.
  if (!view || view.deleted || !(await maySeeRequestRow(app.db, actor, view))) throw new AppError(AppErrorCode.EntityNotFound);
  return view;
}

function definitionOf(app: FastifyInstance, kind: string): ServiceDefinition {
  const def = isRequestKind(kind) ? serviceOf(kind, app.services) : undefined;
  // Bills, certificates, marks and delegations are started by other transitions and their own screens, never here.
  if (!def) throw new AppError('ServiceNotStartable', { kind });
  return def;
}

/**
 * What a renewal starts with (`prefill: 'subjectRequest'`): the data of the request that issued (or last renewed) the
 * certificate, as far as the new service's draft schemas take it, with the certificate's products as they stand now,
 * those added since included (withCertificateProducts), to keep or drop. `offered` is what it was offered: the
 * certificate's product keys, kept in the request's input so the renewal replaces exactly those (effect.renewCertificate)
 * and a product added while it was under way stays.
 */
async function prefillFrom(app: FastifyInstance, def: ServiceDefinition, subject: CertificateRow | null): Promise<{ data: Record<string, unknown>; offered?: string[] }> {
  if (def.prefill !== 'subjectRequest' || !subject?.requestId) return { data: {} };
  const dataOf = (snapshot: unknown) => ((snapshot as { context?: Partial<RequestContext> } | undefined)?.context?.data ?? {}) as Record<string, unknown>;
  const original = ((await app.engine.get(subject.requestId))?.context.data ?? {}) as Record<string, unknown>;
  const prefilled = prefilledData(def, original);
  if (!def.sections.products || !subject.products.length) return { data: prefilled };
  const changes = Object.values(app.services).filter((d) => d.outcome === 'changesCertificate').map((d) => d.kind);
  const rows = await app.db
    .select({ id: requests.id, snapshot: requests.snapshot })
    .from(requests)
    .where(
      or(
        inArray(requests.id, [...new Set([subject.requestId, subject.issuedByRequestId].filter((id): id is string => !!id))]),
        and(
          inArray(requests.kind, changes),
          sql`${requests.snapshot}->'context'->'subject'->>'certificateId' = ${subject.id}`,
          eq(requests.queue, 'final'),
          isNull(requests.deletedAt),
        ),
      ),
    )
    .orderBy(desc(requests.updatedAt));
  // The request that last renewed the certificate first, then the newest change.
  const ordered = [...rows.filter((r) => r.id === subject.requestId), ...rows.filter((r) => r.id !== subject.requestId)];
  const forms = ordered.flatMap((r) => {
    const d = dataOf(r.snapshot);
    return [d.products, d[REQUESTED_PRODUCTS]].flatMap((list) => (Array.isArray(list) ? list : []));
  });
  return { data: withCertificateProducts(def, prefilled, subject.products, forms), offered: subject.products.map(productKey) };
}

/**
 * Whether the actor may start the service now (facility type, permissions, subject certificate, preconditions), without
 * starting it: what a wizard's route guard asks. Throws the first rule that fails, with its own message.
 */
export async function assertMayStart(app: FastifyInstance, actor: Actor, body: StartBody) {
  const def = definitionOf(app, body.kind);
  const facility = await findFacility(app.db, body.facilityId);
  if (!facility || !actor.facilityIds.includes(facility.publicId)) throw new AppError(AppErrorCode.EntityNotFound);
  if (!def.facilityTypes.includes(FACILITY_TYPE[facility.type])) throw new AppError('ServiceNotForFacility', { kind: def.kind });
  if (!def.startPermissions.some((p) => actor.permissions.includes(p))) throw new AppError(AppErrorCode.NotAuthorized);
  // The kind's permissions for that facility (a sub user holds only the delegated ones there).
  if (!mayStart(def.kind, actor, facility.publicId, body.data ?? {})) throw new AppError(AppErrorCode.NotAuthorized);
  const subject = await subjectCertificateFor(app.db, def, facility.publicId, body.certificateId);
  await assertPreconditions({ db: app.db, def, facility, subject, settings: app.settings.current(), now: new Date() });
  return { def, facility, subject };
}

/** The factory a draft's data names (section `factory`), as sent: read before any schema, for the foreignFactory rule. */
function factoryNamedIn(data: Record<string, unknown> | undefined): string | null {
  const factory = data?.factory as { facilityPublicId?: unknown } | null | undefined;
  return factory && typeof factory === 'object' && typeof factory.facilityPublicId === 'string' ? factory.facilityPublicId.trim() : null;
}

/** The exporting conformity body a shipment draft's data names (section `other`), as sent. */
function exportingCbNamedIn(data: Record<string, unknown> | undefined): string | null {
  const other = data?.other as { exportingCbPublicId?: unknown } | null | undefined;
  return other && typeof other === 'object' && typeof other.exportingCbPublicId === 'string' ? other.exportingCbPublicId.trim() : null;
}

/**
 * The foreignFactory rule (server-checks.ts namedFactoryIssues) at the doors a draft's data passes before its
 * submission: the start with data and every save (EDIT) naming a factory; for a shipment also who exports it
 * (namedExporterIssues), over the sections saved and those already stored (`stored`, an EDIT replaces whole sections).
 * A refusal stores nothing.
 */
async function assertFactoryMayBeNamed(
  app: FastifyInstance,
  def: ServiceDefinition,
  facilityPublicId: string,
  subjectHolder: string | null,
  data: Record<string, unknown> | undefined,
  stored: Record<string, unknown> = {},
): Promise<void> {
  const issues = await factoryNamingIssues(app, def, facilityPublicId, subjectHolder, data, stored);
  if (issues.length) throw refusedData(issues);
}

/** What assertFactoryMayBeNamed refuses, as issues. */
async function factoryNamingIssues(
  app: FastifyInstance,
  def: ServiceDefinition,
  facilityPublicId: string,
  subjectHolder: string | null,
  data: Record<string, unknown> | undefined,
  stored: Record<string, unknown>,
): Promise<DataIssue[]> {
  if (!def.serverChecks.includes('foreignFactory')) return [];
  const issues = await namedFactoryIssues(app.db, facilityPublicId, factoryNamedIn(data), subjectHolder);
  if (!issues.length && def.serverChecks.includes('shipmentCovered')) {
    const merged = { ...stored, ...(data ?? {}) };
    issues.push(...(await namedExporterIssues(app.db, facilityPublicId, factoryNamedIn(merged), exportingCbNamedIn(merged))));
  }
  return issues;
}

/**
 * The candidates a request's factory choice accepts: those a save naming them as its factory is not refused for (the
 * same rule, assertFactoryMayBeNamed, asked of each; the exporter it names is its own field's question). The wizard's
 * choice offers only these (GET /api/Facility/GetUserFacilities?forRequest=), so a CB is not offered for its shipment
 * a factory it did not certify; the save still refuses one named otherwise.
 */
export async function factoriesTheChoiceAccepts(app: FastifyInstance, actor: Actor, requestId: string, candidates: readonly string[]): Promise<Set<string>> {
  const view = await visibleRequest(app, requestId, actor);
  const def = isRequestKind(view.kind) ? serviceOf(view.kind, app.services) : undefined;
  if (!def) return new Set();
  const stored = ((view.context as Partial<RequestContext>).data ?? {}) as Record<string, unknown>;
  const holder = await subjectHolderOf(app, view);
  const accepted = new Set<string>();
  for (const facilityPublicId of candidates) {
    const issues = await factoryNamingIssues(app, def, view.facilityId, holder, { factory: { facilityPublicId } }, stored);
    if (!issues.some((i) => i.path === 'factory.facilityPublicId')) accepted.add(facilityPublicId);
  }
  return accepted;
}

export async function startRequest(app: FastifyInstance, actor: Actor, creatorName: string, body: StartBody): Promise<RequestView> {
  const { def, facility, subject } = await assertMayStart(app, actor, body);
  await assertFactoryMayBeNamed(app, def, facility.publicId, subject?.facilityPublicId ?? null, body.data);
  const prefill = await prefillFrom(app, def, subject);
  const data = { ...prefill.data, ...(body.data ?? {}) };
  return app.engine.start(
    def.kind,
    {
      ownerUserId: actor.userId,
      facilityId: facility.publicId,
      ...(Object.keys(data).length ? { data } : {}),
      subject: { certificateId: subject?.id ?? null, ...(prefill.offered ? { offeredProducts: prefill.offered } : {}) },
    },
    actor,
    { creatorName },
  );
}

/**
 * ASSIGN_TO_EMPLOYEE names an active Halal-center employee who holds a permission to work the request's queue: not a
 * locked account (it cannot sign in, and the employee list leaves it out) nor one of a read-only role (refused every
 * write), either of which would hold the request where nobody can act on it until it is assigned again.
 */
async function assertEligibleAssignee(app: FastifyInstance, view: RequestView, assigneeUserId: unknown): Promise<void> {
  const refuse = () => invalid([{ field: 'assigneeUserId', message: 'machines:validation.assigneeNotEligible' }]);
  if (typeof assigneeUserId !== 'string' || !/^[0-9a-f-]{36}$/i.test(assigneeUserId)) throw refuse();
  const [user] = await app.db.select().from(users).where(eq(users.id, assigneeUserId));
  if (!user || user.lockedAt) throw refuse();
  const row = await readRequest(app.db, view.id);
  const needed = row && isRequestKind(view.kind) ? queueWorkPermissions(view.kind, row.snapshot as never, view.machineVersion) : [];
  if (!mayWorkQueue(await grantsOf(app.db, user.roles), needed)) throw refuse();
}

/**
 * Who may send to a request at all, before the machine decides: one they may not see does not exist for them (404),
 * and delegations are driven by their own calls only (their steps need the OTP service and the delegate's account).
 */
const admitFor = (actor: Actor) => (request: { kind: string; facilityId: string }) => {
  if (!maySeeRequestOf(actor, request.facilityId, request.kind)) throw new AppError(AppErrorCode.EntityNotFound);
  if (OWN_CALLS_ONLY.has(request.kind)) throw new AppError(AppErrorCode.NotAuthorized);
};

/** The staff event that issues or changes the certificate (the applicant's payment is the other door: start-payment.ts). */
export const USES_CERTIFICATE = 'ISSUE_CERTIFICATE';

/**
 * The staff events that use the request's certificate: the issue, and registration accepting a change of an issued
 * certificate (added products), which bills it: accepted while the certificate is suspended or expired, the bill could
 * not be paid (start-payment.ts) and would expire, stopping the request through no fault of the applicant.
 */
export const usesCertificate = (kind: string, type: string, registry?: Parameters<typeof serviceOf>[1]): boolean =>
  type === USES_CERTIFICATE || (type === 'ACCEPT' && serviceOf(kind, registry)?.outcome === 'changesCertificate');

/** Events whose checks below need the request before the engine runs (the assignee's eligibility, files, submission). */
const READS_REQUEST_FIRST = new Set(['ASSIGN_TO_EMPLOYEE', 'SUBMIT_CORRECTIVE_ACTIONS', 'SUBMIT_AUDIT_RESULT', 'SUBMIT', 'RESUBMIT', USES_CERTIFICATE, 'ACCEPT', ...CERTIFICATE_CHANGES]);

export interface SendBody {
  type: string;
  expectedVersion: number;
  payload?: Record<string, unknown>;
}

/** A draft is the state every request service names 'draft' (machines/fragments/common.ts draftState), at any depth. */
const isDraftState = (stateValue: string) => stateValue === 'draft' || stateValue.endsWith('.draft');

/**
 * Whether a RETURN left the request's files for the applicant to correct: registration returned the whole request or
 * its service's attachment section (the same sections requestFilesOpen opens), and the case goes on.
 */
function filesReturned(app: FastifyInstance, view: RequestView): boolean {
  const section = isRequestKind(view.kind) ? serviceOf(view.kind, app.services)?.attachmentSection : undefined;
  const returned = ((view.context as Partial<RequestContext>).returnedSections ?? []) as string[];
  return !!section && !view.finished && (returned.length === 0 || returned.includes(section));
}

/**
 * Sends an event to a request on behalf of a person. Returns the request as the event left it, and the notices the
 * person should read (products excluded because the certificate already lists them). `alsoWrite` goes with the
 * event itself (SendOptions.alsoWrite: the call's audit row), not with an EDIT a submission sends before it.
 * A submission freezes the request's files; a cancellation that sends it back to draft (spec 02 section 4: "moves it
 * back to draft") opens them again, as any draft's are, and so does a return of them for correction (section 4 step 2)
 * until the resubmission freezes them again.
 */
export async function sendRequestEvent(
  app: FastifyInstance,
  actor: Actor,
  id: string,
  body: SendBody,
  alsoWrite?: SendOptions['alsoWrite'],
): Promise<{ view: RequestView; notices: Notice[] }> {
  const payload = body.payload ?? {};
  const timing = planTimingIssues(body.type, payload, new Date());
  const admit = admitFor(actor);
  const options: SendOptions = alsoWrite ? { admit, alsoWrite } : { admit };
  const savesFactory =
    body.type === 'EDIT' && (factoryNamedIn(payload.data as Record<string, unknown> | undefined) !== null || exportingCbNamedIn(payload.data as Record<string, unknown> | undefined) !== null);
  if (!timing.length && !savesFactory && !READS_REQUEST_FIRST.has(body.type)) {
    // Nothing to check before the machine: the engine's own read of the request (under its row lock) serves the
    // visibility check, one read instead of two (issue 18, the event path).
    const view = await app.engine.send(id, { ...payload, type: body.type }, actor, body.expectedVersion, options);
    if ((body.type === 'CANCEL' && isDraftState(view.stateValue)) || (body.type === 'RETURN' && filesReturned(app, view))) {
      await unlockRequestAttachments(app.db, view.id);
    }
    return { view, notices: [] };
  }
  const view = await visibleRequest(app, id, actor);
  admit(view);
  if (timing.length) throw invalid(timing);
  if (body.type === 'ASSIGN_TO_EMPLOYEE') await assertEligibleAssignee(app, view, payload.assigneeUserId);
  const namedFiles = await assertEventFilesBelong(app, view.id, body.type, payload);

  const def = isRequestKind(view.kind) ? serviceOf(view.kind, app.services) : undefined;
  if (def && savesFactory) {
    const stored = ((view.context as Partial<RequestContext>).data ?? {}) as Record<string, unknown>;
    await assertFactoryMayBeNamed(app, def, view.facilityId, await subjectHolderOf(app, view), payload.data as Record<string, unknown>, stored);
  }
  const notices: Notice[] = [];
  let expectedVersion = body.expectedVersion;
  // Staff issuing or changing the certificate: only while the certificate may still be used (still-usable.ts), asked
  // once the machine allows the event (403/409 first).
  if (usesCertificate(view.kind, body.type, app.services) && (await app.engine.allowedActions(view.id, actor)).some((a) => a.type === body.type)) await assertStillUsable(app, view, new Date(), body.type);
  // A change asked for on an issued certificate (set A): the added-products rules, once the machine allows it.
  if (CERTIFICATE_CHANGES.has(body.type) && (await app.engine.allowedActions(view.id, actor)).some((a) => a.type === body.type)) {
    await assertCertificateChangeAllowed(app, view, body.type, payload);
  }
  if (def && (body.type === 'SUBMIT' || body.type === 'RESUBMIT')) {
    // Allowed at all? The machine answers first (403/409 before any data check).
    const allowed = await app.engine.allowedActions(view.id, actor);
    if (!allowed.some((a) => a.type === body.type)) return { view: await app.engine.send(view.id, { ...payload, type: body.type }, actor, expectedVersion, options), notices };
    const prepared = await prepareSubmission(app, def, view, actor, expectedVersion);
    expectedVersion = prepared.version;
    notices.push(...prepared.notices);
  }
  const event: WorkflowEvent = { ...payload, type: body.type };
  if (namedFiles.length) {
    // The files an audit answer names (a finding's document, a corrective action's evidence and signature) are what the
    // other side decides on: locked with the event (in its transaction; on Temporal once it has answered), so nobody
    // of the facility removes them afterwards (attachments/service.ts deleteAttachment).
    let lockedInEvent = false;
    const sent = await app.engine.send(view.id, event, actor, expectedVersion, {
      ...options,
      alsoWrite: async (tx) => {
        lockedInEvent = true;
        await Promise.all([options.alsoWrite?.(tx), lockAttachments(tx, view.id, namedFiles)]);
      },
    });
    if (!lockedInEvent) await lockAttachments(app.db, view.id, namedFiles);
    return { view: sent, notices };
  }
  if (!def || (body.type !== 'SUBMIT' && body.type !== 'RESUBMIT')) return { view: await app.engine.send(view.id, event, actor, expectedVersion, options), notices };
  // The files sent are frozen from now on: shown locked, a later request that starts with them (a renewal) only drops
  // them from its own data, and a deletion is refused unless the machine lets this request's files be edited again.
  // Locked in the event's own transaction (committed with the submission or not at all); an engine without one
  // (Temporal) does not call alsoWrite, and the files are locked once it has answered (the lock is idempotent).
  let lockedInEvent = false;
  const sent = await app.engine.send(view.id, event, actor, expectedVersion, {
    ...options,
    alsoWrite: async (tx) => {
      lockedInEvent = true;
      await Promise.all([options.alsoWrite?.(tx), lockRequestAttachments(tx, view.id)]);
    },
  });
  if (!lockedInEvent) await lockRequestAttachments(app.db, view.id);
  return { view: sent, notices };
}

/** The facility holding the certificate a request is about (a renewal's), or null. */
async function subjectHolderOf(app: FastifyInstance, view: RequestView): Promise<string | null> {
  const id = (view.context as Partial<RequestContext>).subject?.certificateId;
  if (!id) return null;
  const [row] = await app.db.select({ holder: certificates.facilityPublicId }).from(certificates).where(eq(certificates.id, id));
  return row?.holder ?? null;
}

/**
 * Files an audit event names (a non-conformity's supporting document; a corrective action's document and the customer
 * signature file, spec 02 data model "Non-conformity ... customer signature file") must have been uploaded to this
 * request: a file of another request or facility is refused on every door, before the machine hears the event.
 */
async function assertEventFilesBelong(app: FastifyInstance, requestId: string, type: string, payload: Record<string, unknown>): Promise<string[]> {
  const named: { path: string; id: string }[] = [];
  const collect = (list: unknown, key: string, fields: string[]) => {
    (Array.isArray(list) ? list : []).forEach((item, i) => {
      for (const f of fields) {
        const v = (item as Record<string, unknown> | null)?.[f];
        if (typeof v === 'string' && v) named.push({ path: `${key}.${i}.${f}`, id: v });
      }
    });
  };
  if (type === 'SUBMIT_CORRECTIVE_ACTIONS') collect(payload.actions, 'actions', ['documentId', 'customerSignatureFileId']);
  else if (type === 'SUBMIT_AUDIT_RESULT') collect(payload.nonConformities, 'nonConformities', ['supportingDocumentId']);
  if (!named.length) return [];
  const ids = [...new Set(named.map((n) => n.id))];
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const rows = ids.some((id) => uuid.test(id))
    ? await app.db
        .select({ id: attachments.id })
        .from(attachments)
        .where(and(inArray(attachments.id, ids.filter((id) => uuid.test(id))), eq(attachments.requestId, requestId), isNull(attachments.deletedAt)))
    : [];
  const found = new Set(rows.map((r) => r.id));
  const missing = named.filter((n) => !found.has(n.id));
  if (missing.length) throw refusedData(missing.map((m) => ({ path: m.path, message: 'form.attachmentNotFound', params: { count: 1 } })));
  return ids;
}

/**
 * Before SUBMIT / RESUBMIT: the preconditions hold still, products the certificate already lists are excluded (an EDIT
 * in the request's history) and the user is told which, and the server checks find nothing.
 */
async function prepareSubmission(
  app: FastifyInstance,
  def: ServiceDefinition,
  view: RequestView,
  actor: Actor,
  expectedVersion: number,
): Promise<{ version: number; notices: Notice[] }> {
  const facility = await findFacility(app.db, view.facilityId);
  if (!facility) throw new AppError(AppErrorCode.EntityNotFound);
  const context = view.context as unknown as RequestContext;
  const subjectId = context.subject?.certificateId ?? null;
  const [subject] = subjectId ? await app.db.select().from(certificates).where(eq(certificates.id, subjectId)) : [];
  const settings = app.settings.current();
  const now = new Date();
  await assertPreconditions({ db: app.db, def, facility, subject: subject ?? null, settings, now, requestId: view.id });

  // Products already on the certificate are left out (an EDIT, and a notice naming them), but only once the rest of the
  // submission passes: a refused submission leaves the draft as the applicant wrote it.
  let current = context;
  let excluded: { ar: string; en: string }[] = [];
  // Where each product checked sits in the stored draft, so a refusal points at the row the applicant sees.
  let storedIndex = (i: number) => i;
  if (def.serverChecks.includes('productsNotOnCertificate') && subject) {
    const projection = def.project(context.data ?? {}, context);
    const already = productsAlreadyOnCertificate(projection, subject);
    // The projection reads the products section through its complete schema: same rows, same order as stored.
    const products = Array.isArray(context.data?.products) ? (context.data.products as unknown[]) : [];
    const onCertificate = (i: number) => projection.products[i] !== undefined && already.has(productKey(projection.products[i]));
    const keep = products.filter((_, i) => !onCertificate(i));
    if (already.size && keep.length) {
      excluded = projection.products.filter((_, i) => onCertificate(i)).map((p) => ({ ar: p.nameAr, en: p.nameEn }));
      current = { ...context, data: { ...context.data, products: keep } };
      const kept = products.flatMap((_, i) => (onCertificate(i) ? [] : [i]));
      storedIndex = (i) => kept[i] ?? i;
    }
  }
  // Data the contract refuses anyway is answered by the engine's own validation (of the stored data), before any
  // external service is asked.
  if (!validateSubmission(def, current.data ?? {}).ok) return { version: expectedVersion, notices: [] };
  const issues = await runServerChecks({
    db: app.db,
    def,
    requestId: view.id,
    facilityPublicId: view.facilityId,
    context: current,
    projection: def.project(current.data ?? {}, current),
    subject: subject ?? null,
    files: await fileScope(app, def, view.id, subject ?? null),
    settings,
    now,
    registry: crRegistryOf(app),
    foodAuthority: foodAuthorityOf(app),
  });
  if (issues.length) throw invalid(asDetails(issues.map((i) => ({ ...i, path: i.path.replace(/^products\.(\d+)/, (_, n: string) => `products.${storedIndex(Number(n))}`) }))));
  if (!excluded.length) return { version: expectedVersion, notices: [] };
  const edited = await app.engine.send(view.id, { type: 'EDIT', data: { products: current.data?.products } }, actor, expectedVersion);
  return { version: edited.version, notices: [{ key: 'requests:notices.productsExcluded', names: { products: excluded } }] };
}

/** The files a request may name (server-checks.ts fileOwners), for its file list: the request and its subject read here. */
export async function requestFileOwners(app: FastifyInstance, requestId: string): Promise<FileScope> {
  const view = await app.engine.get(requestId);
  const def = view && isRequestKind(view.kind) ? serviceOf(view.kind, app.services) : undefined;
  const certificateId = (view?.context as Partial<RequestContext> | undefined)?.subject?.certificateId;
  if (def?.prefill !== 'subjectRequest' || !certificateId) return fileOwners(def, requestId, []);
  const [subject] = await app.db.select({ requestId: certificates.requestId }).from(certificates).where(eq(certificates.id, certificateId));
  return fileScope(app, def, requestId, subject ?? null);
}

/** The files a request may name, with its service and subject certificate in hand (its submission has both). */
async function fileScope(app: FastifyInstance, def: ServiceDefinition, requestId: string, subject: Pick<CertificateRow, 'requestId'> | null): Promise<FileScope> {
  if (def.prefill !== 'subjectRequest' || !subject?.requestId) return fileOwners(def, requestId, []);
  return fileOwners(def, requestId, await namedFiles(app, subject.requestId));
}

/** The files a request's data names, read by its service's projection (as its submission check read them). */
async function namedFiles(app: FastifyInstance, requestId: string): Promise<string[]> {
  const view = await app.engine.get(requestId);
  const def = view && isRequestKind(view.kind) ? serviceOf(view.kind, app.services) : undefined;
  if (!view || !def) return [];
  const context = view.context as unknown as RequestContext;
  return def.project(context.data ?? {}, context).attachmentIds;
}

/**
 * Whether the actor may change the form's files of a request now (issue 10 item 8): only while the machine lets
 * them EDIT the service's attachment section — in a draft, or when registration returned that section (or the
 * whole request). Submitted files are otherwise frozen.
 */
export async function requestFilesOpen(app: FastifyInstance, actor: Actor, requestId: string): Promise<boolean> {
  const view = await app.engine.get(requestId);
  if (!view || view.deleted) return false;
  const def = isRequestKind(view.kind) ? serviceOf(view.kind, app.services) : undefined;
  const section = def?.attachmentSection;
  if (!section) return false;
  const actions = await app.engine.allowedActions(requestId, actor);
  if (!actions.some((a) => a.type === 'EDIT')) return false;
  const returned = ((view.context as Partial<RequestContext>).returnedSections ?? []) as string[];
  return returned.length === 0 || returned.includes(section);
}

export interface FeePreviewItem {
  feeKind: string;
  /** Halalas before VAT (after the request's discount and any carried-over credit), its VAT and total; null while a later step decides it (the audit plan). */
  charge: Charge | null;
  /**
   * Halal-mark packages: products marked now, tags bought, the price before credit, the credit carried over from the
   * certificate's earlier packages, and the balance left after it (for a later package).
   */
  markPackage?: { products: number; tags: number; price: number; credit: number; creditLeft: number };
}

/**
 * What the request would be billed, bill by bill, by the same fee rules and settings the bills are created with
 * (workflows/effects.ts effect.createBill): the service's fee kinds, each computed from the request's data now. A
 * fee that depends on a step still ahead (an audit fee before the plan) has no amount yet.
 */
export async function previewFees(app: FastifyInstance, actor: Actor, id: string): Promise<{ display: ServiceDefinition['feeDisplay']; items: FeePreviewItem[] }> {
  const view = await visibleRequest(app, id, actor);
  const def = isRequestKind(view.kind) ? serviceOf(view.kind, app.services) : undefined;
  if (!def) throw new AppError('ServiceNotStartable', { kind: view.kind });
  const context = view.context as unknown as RequestContext;
  const subjectId = context.subject?.certificateId ?? null;
  const [subject] = subjectId ? await app.db.select({ expiresAt: certificates.expiresAt }).from(certificates).where(eq(certificates.id, subjectId)) : [];
  const settings = app.settings.current();
  const projection = def.project(context.data ?? {}, context);
  const discount = Number(context.discountPercent ?? 0);
  // Only what this request bills: a fee of a later change of its certificate (def.laterFees) is not asked for now.
  const billed = (Object.entries(def.fees) as [string, FeeRule][]).filter(([feeKind]) => !(def.laterFees as readonly string[] | undefined)?.includes(feeKind));
  const items = billed.map(([feeKind, rule]): FeePreviewItem => {
    let base: number;
    try {
      base = rule({ projection, context, schedule: settings.fees, subjectExpiresAt: subject?.expiresAt ?? null, now: new Date() });
    } catch {
      return { feeKind, charge: null };
    }
    return { feeKind, charge: Number.isFinite(base) && base >= 0 ? withVat(discounted(base, discount), settings.vatRate) : null };
  });
  // A Halal-mark package shows the credit its bill will get (the same reading as effect.createBill; nothing is consumed here).
  const markItem = items.find((i) => i.feeKind === 'halalMark' && i.charge);
  if (markItem?.charge && subjectId && projection.marks) {
    const sources = await creditSources(app.db, { requestId: view.id, facilityPublicId: view.facilityId, certificateId: subjectId }, app.services);
    const price = markItem.charge.amount;
    const plan = planCredit(price, sources);
    markItem.charge = withVat(price - plan.credit, settings.vatRate);
    markItem.markPackage = { products: projection.marks.products, tags: projection.marks.tags, price, credit: plan.credit, creditLeft: plan.left };
  }
  return { display: def.feeDisplay, items };
}
