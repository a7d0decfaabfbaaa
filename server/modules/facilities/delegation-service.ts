import { createHash, randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client';
import { delegateInvitations, delegations, facilityMembers, users } from '../../../db/schema';
import { SYSTEM_ACTOR, type Actor } from '../../../machines/actor';
import type { WorkflowEngine, RequestView } from '../../../workflows/engine';
import { AppError, AppErrorCode } from '../../errors';
import { tFor, type Language } from '../../i18n';
import { membershipOf, requireMember, type FacilityRow } from './access';
import { assertDelegationAllowed } from './certificate-rules';
import { violatedUniqueIndex } from './db-errors';
import type { FacilitiesDeps } from './deps';
import { isNationalOrResidentId, maskPhone, normalizePhone } from '../../../machines/forms/facilities/formats';
import { DELEGABLE_PERMISSIONS } from '../../../machines/forms/facilities/permissions';
import { latestChallenge, otpStateOf, resendOtp, sendSms, startOtp, verifyOtp, type OtpMessage } from './otp-service';
import {
  UserInFacilityRole,
  type FacilityType,
  type TDelegate,
  type TDelegationDto,
  type TDelegationStatus,
  type TDelegationStep,
} from '../../../machines/forms/facilities/schemas';
import './errors';

type DelegationRow = typeof delegations.$inferSelect;
const KIND = 'delegation';
const OTP_PURPOSE = 'delegation';

/*
 * The delegation wizards (cb-delegation, internal-delegation) on the workflow engine: each delegation is a request
 * of kind `delegation` (machines/delegation.ts), so its steps are the machine's transitions and its history is the
 * engine's hash-chained history. This module adds what the machine cannot do itself: the checks on the delegate,
 * the OTP service (codes, attempts and resend limits), the delegate's account and the messages.
 */

const splitName = (name: string) => {
  const [first, ...rest] = name.trim().split(/\s+/);
  return { firstName: first ?? '', lastName: rest.join(' ') };
};
const maskEmail = (email: string) => {
  const [local, domain] = email.split('@');
  return `${local.slice(0, 2)}***@${domain}`;
};

function assertNationalId(nationalId: string): string {
  const v = nationalId.trim();
  if (!isNationalOrResidentId(v)) throw new AppError('NationalIdInvalid');
  return v;
}

/** The wizard's name of the machine state: 'pending.awaitingOtp' -> 'awaitingOtp'. */
const statusName = (view: RequestView): TDelegationStatus => view.stateValue.split('.').pop() as TDelegationStatus;

/**
 * ValidateUserExisitenceBefore... (delegation wizard, step 1): is there a portal account for this national or
 * resident id, and is it already a user of the facility? Only the facility's main user may ask, and the answer
 * gives the name and a masked email and phone, enough to confirm the right person was found.
 */
export async function lookupDelegate(db: Db, actor: Actor, facilityPublicId: string, nationalIdInput: string, types: readonly FacilityType[]) {
  const { facility } = await requireMember(db, actor, facilityPublicId, { types, mainUser: true });
  const nationalId = assertNationalId(nationalIdInput);
  const [u] = await db.select().from(users).where(eq(users.nationalId, nationalId));
  if (!u) return { exists: false, alreadyMember: false, user: null };
  return {
    exists: true,
    alreadyMember: !!(await membershipOf(db, facility.id, u.id)),
    user: {
      userId: u.id,
      ...splitName(u.name),
      email: maskEmail(u.email),
      maskedPhone: u.phone ? maskPhone(u.phone) : null,
      preferredLanguage: u.preferredLanguage,
    },
  };
}

export interface StepContext {
  deps: FacilitiesDeps;
  engine: WorkflowEngine;
  actor: Actor;
  /** The caller's display name (the engine keeps it as the creator's name). */
  creatorName: string;
  types: readonly FacilityType[];
  /** Origin for the set-password link sent to a new delegate (PUBLIC_URL, else the caller's origin). */
  baseUrl: string;
  log?: FastifyBaseLogger;
}

async function toDto(ctx: StepContext, d: DelegationRow, view: RequestView, facility: FacilityRow): Promise<TDelegationDto> {
  const status = statusName(view);
  const challenge = status === 'awaitingOtp' ? await latestChallenge(ctx.deps.db, OTP_PURPOSE, d.id) : undefined;
  const [invitation] = await ctx.deps.db
    .select({ id: delegateInvitations.id })
    .from(delegateInvitations)
    .where(eq(delegateInvitations.delegationId, d.id));
  return {
    id: view.id,
    number: view.number,
    facilityPublicId: facility.publicId,
    status,
    statusCode: view.status,
    delegationType: d.type,
    permissions: d.permissions,
    delegate: { firstName: d.firstName, lastName: d.lastName, maskedPhone: maskPhone(d.phone), email: d.email },
    otp: challenge ? otpStateOf(ctx.deps, challenge) : null,
    accountCreated: !!invitation,
  };
}

function otpText(facility: FacilityRow, lang: Language): OtpMessage['text'] {
  const t = tFor(lang);
  const name = lang === 'ar' ? facility.nameAr : facility.nameEn;
  return (code, minutes) => t('facilities:sms.delegationOtp', { code, minutes, facility: name });
}

/**
 * Start: checks the delegate and the delegator's authority, starts the delegation in the engine (its START row
 * records the type and permissions given), keeps the delegate's details and sends the OTP.
 */
async function start(ctx: StepContext, step: Extract<TDelegationStep, { step: 'start' }>) {
  const { deps, actor, engine } = ctx;
  const { facility } = await requireMember(deps.db, actor, step.facilityPublicId, { types: ctx.types, mainUser: true });
  await assertDelegationAllowed(deps.db, facility);
  // One main user per facility, and the caller is it: a delegation cannot make another (spec 02 section 6).
  if (step.delegationType === UserInFacilityRole.MainUser) throw new AppError('MainUserExists');
  const d: TDelegate = step.delegate;
  const nationalId = assertNationalId(d.nationalId);
  const allowed = DELEGABLE_PERMISSIONS[facility.type as FacilityType];
  if (step.permissions.some((p) => !allowed.includes(p))) throw new AppError('DelegationPermissionInvalid');

  const [self] = await deps.db.select({ nationalId: users.nationalId }).from(users).where(eq(users.id, actor.userId));
  if (self?.nationalId === nationalId) throw new AppError('DelegateIsSelf');
  const [existing] = await deps.db.select().from(users).where(eq(users.nationalId, nationalId));
  if (existing) {
    const m = await membershipOf(deps.db, facility.id, existing.id);
    if (m) throw new AppError(m.role === UserInFacilityRole.MainUser ? 'MainUserProtected' : 'DelegateAlreadyMember');
  } else {
    if (!d.email) throw new AppError(AppErrorCode.ValidationFailed, {}, [{ field: 'delegate.email', message: 'required' }]);
    const [emailOwner] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, d.email));
    if (emailOwner) throw new AppError('DelegateEmailInUse');
  }
  // The OTP proves the delegate agrees: it goes to the phone on their account when they have one, not to a
  // number the delegator typed.
  const phone = existing?.phone ?? normalizePhone(d.phone ?? '');
  if (!phone) throw new AppError('PhoneInvalid');
  const email = existing?.email ?? d.email!;
  const lang: Language = existing ? (existing.preferredLanguage === 'en' ? 'en' : 'ar') : d.preferredLanguage;
  const permissions = step.permissions.length ? [...new Set(step.permissions)] : [...allowed];

  // An unfinished delegation of the same person to the same facility by this delegator is replaced by this one.
  const earlier = await deps.db
    .select({ id: delegations.id })
    .from(delegations)
    .where(and(eq(delegations.facilityId, facility.id), eq(delegations.nationalId, nationalId), eq(delegations.delegatorUserId, actor.userId)));
  for (const { id } of earlier) {
    const view = await engine.get(id);
    if (view && !view.finished && view.stateValue.startsWith('pending.')) await engine.send(id, { type: 'CANCEL' }, actor);
  }

  const view = await engine.start(
    KIND,
    { ownerUserId: actor.userId, facilityId: facility.publicId, data: { delegationType: UserInFacilityRole.SubUser, permissions } },
    actor,
    { creatorName: ctx.creatorName },
  );
  try {
    const [row] = await deps.db
      .insert(delegations)
      .values({
        id: view.id,
        facilityId: facility.id,
        delegatorUserId: actor.userId,
        nationalId,
        firstName: d.firstName,
        lastName: d.lastName,
        birthDate: d.birthDate,
        phone,
        preferredLanguage: lang,
        email,
        type: UserInFacilityRole.SubUser,
        permissions,
      })
      .returning();
    await startOtp(deps, { purpose: OTP_PURPOSE, subjectId: row.id, phone, text: otpText(facility, lang) });
    return toDto(ctx, row, view, facility);
  } catch (err) {
    // No code went out: the delegation cannot go on, so it does not linger as "awaiting OTP".
    await engine.send(view.id, { type: 'CANCEL' }, actor).catch(() => undefined);
    throw err;
  }
}

/** The delegation, provided the caller is the main user of its facility and the one who started it. */
async function loadOwn(ctx: StepContext, delegationId: string) {
  const view = await ctx.engine.get(delegationId);
  const [d] = view?.kind === KIND ? await ctx.deps.db.select().from(delegations).where(eq(delegations.id, view.id)) : [];
  if (!view || !d) throw new AppError('NotFacilityMember');
  const { facility } = await requireMember(ctx.deps.db, ctx.actor, view.facilityId, { types: ctx.types, mainUser: true });
  if (view.ownerUserId !== ctx.actor.userId) throw new AppError(AppErrorCode.NotAuthorized);
  return { d, view, facility };
}

/**
 * The delegate's account: the existing one (who must not be a user of the facility yet), or a new one without a
 * usable password and a one-time link to choose it. Returns the SMS to send once the delegation is active.
 */
async function delegateAccount(ctx: StepContext, d: DelegationRow, facility: FacilityRow) {
  const { deps } = ctx;
  const lang: Language = d.preferredLanguage === 'en' ? 'en' : 'ar';
  const t = tFor(lang);
  const facilityName = lang === 'ar' ? facility.nameAr : facility.nameEn;
  try {
    return await deps.db.transaction(async (tx) => {
      const [user] = await tx.select().from(users).where(eq(users.nationalId, d.nationalId));
      if (user) {
        const [m] = await tx
          .select({ role: facilityMembers.role })
          .from(facilityMembers)
          .where(and(eq(facilityMembers.facilityId, facility.id), eq(facilityMembers.userId, user.id)));
        if (m) throw new AppError(m.role === UserInFacilityRole.MainUser ? 'MainUserProtected' : 'DelegateAlreadyMember');
        return { userId: user.id, created: false, text: t('facilities:sms.delegationAdded', { facility: facilityName }) };
      }
      const [created] = await tx
        .insert(users)
        .values({
          userName: d.nationalId,
          email: d.email,
          name: `${d.firstName} ${d.lastName}`,
          // Not a scrypt hash: nobody can sign in until the delegate chooses a password through the link.
          passwordHash: '!invited',
          roles: ['applicant'],
          nationalId: d.nationalId,
          phone: d.phone,
          preferredLanguage: d.preferredLanguage,
        })
        .returning();
      const token = randomBytes(32).toString('base64url');
      const hours = deps.config.DELEGATE_INVITATION_HOURS;
      await tx.insert(delegateInvitations).values({
        userId: created.id,
        delegationId: d.id,
        tokenHash: createHash('sha256').update(token).digest('hex'),
        expiresAt: new Date(Date.now() + hours * 3_600_000),
      });
      const link = `${ctx.baseUrl}/delegate-invitation/${token}`;
      return { userId: created.id, created: true, text: t('facilities:sms.delegationNewAccount', { facility: facilityName, userName: created.userName, link, hours }) };
    });
  } catch (err) {
    const index = violatedUniqueIndex(err);
    if (index?.includes('email')) throw new AppError('DelegateEmailInUse');
    if (index) throw new AppError('DelegateAlreadyMember');
    throw err;
  }
}

/** Acknowledge: the delegate's account, then ACKNOWLEDGE in the engine (the membership is its effect), then the SMS. */
async function acknowledge(ctx: StepContext, d: DelegationRow, view: RequestView, facility: FacilityRow) {
  const { deps, engine } = ctx;
  if (statusName(view) !== 'pendingAcknowledgment') throw new AppError(AppErrorCode.TransitionNotAllowed);
  // The facility's certificates may have changed since the start.
  await assertDelegationAllowed(deps.db, facility);
  const account = await delegateAccount(ctx, d, facility);
  let next: RequestView;
  try {
    next = await engine.send(view.id, { type: 'ACKNOWLEDGE', acknowledged: true, delegateUserId: account.userId }, ctx.actor, view.version);
  } catch (err) {
    // The machine refused (cancelled or acknowledged meanwhile): an account made for this delegation goes too.
    if (account.created) await deps.db.delete(users).where(eq(users.id, account.userId));
    throw err;
  }
  await deps.db.update(delegations).set({ delegateUserId: account.userId }).where(eq(delegations.id, d.id));
  try {
    await sendSms(deps, deps.db, { phone: d.phone, purpose: 'delegationCompleted', subjectId: d.id, text: account.text });
  } catch (err) {
    // The delegation is complete (it is in the history); a refused message does not undo it.
    ctx.log?.warn({ err, delegationId: d.id }, 'delegation completed but its SMS was not sent');
  }
  return toDto(ctx, { ...d, delegateUserId: account.userId }, next, facility);
}

/**
 * Submit{CB,Facility}DelegationRequest: one call for every step of the wizard (start, resendOtp, verifyOtp,
 * acknowledge, cancel). The delegation machine decides which step is allowed now.
 */
export async function submitDelegationStep(ctx: StepContext, step: TDelegationStep): Promise<TDelegationDto> {
  if (step.step === 'start') return start(ctx, step);
  const { d, view, facility } = await loadOwn(ctx, step.delegationId);
  const { deps, engine } = ctx;
  switch (step.step) {
    case 'resendOtp': {
      if (statusName(view) !== 'awaitingOtp') throw new AppError(AppErrorCode.TransitionNotAllowed);
      const c = await latestChallenge(deps.db, OTP_PURPOSE, d.id);
      if (!c) throw new AppError(AppErrorCode.TransitionNotAllowed);
      await resendOtp(deps, c.id, otpText(facility, d.preferredLanguage === 'en' ? 'en' : 'ar'));
      return toDto(ctx, d, view, facility);
    }
    case 'verifyOtp': {
      // Checked before the code, so a code entered in the wrong step does not use up an attempt.
      if (statusName(view) !== 'awaitingOtp') throw new AppError(AppErrorCode.TransitionNotAllowed);
      const c = await latestChallenge(deps.db, OTP_PURPOSE, d.id);
      if (!c) throw new AppError(AppErrorCode.TransitionNotAllowed);
      await verifyOtp(deps, c.id, step.code);
      // The OTP service matched the code: the system records it in the delegation's history.
      const next = await engine.send(view.id, { type: 'OTP_VERIFIED' }, SYSTEM_ACTOR, view.version);
      return toDto(ctx, d, next, facility);
    }
    case 'acknowledge': {
      if (!step.acknowledged) throw new AppError('AcknowledgmentRequired');
      return acknowledge(ctx, d, view, facility);
    }
    case 'cancel': {
      const next = await engine.send(view.id, { type: 'CANCEL' }, ctx.actor, view.version);
      return toDto(ctx, d, next, facility);
    }
  }
}

/**
 * Removes a user from the facility (the main user only): a delegated user's delegation is revoked in the engine
 * (its history records it; the membership goes with effect.revokeDelegation). The main user is never removed.
 */
export async function removeMember(ctx: StepContext, facilityPublicId: string, userId: string): Promise<void> {
  const { deps, engine, actor } = ctx;
  const { facility } = await requireMember(deps.db, actor, facilityPublicId, { types: ctx.types, mainUser: true });
  const m = await membershipOf(deps.db, facility.id, userId);
  if (!m) throw new AppError('NotFacilityMember');
  if (m.role === UserInFacilityRole.MainUser) throw new AppError('MainUserProtected');
  const view = m.delegationId ? await engine.get(m.delegationId) : null;
  if (view?.kind === KIND && statusName(view) === 'active') {
    await engine.send(view.id, { type: 'REVOKE' }, actor, view.version);
    return;
  }
  // A sub user from before delegations ran in the engine (the seeded demo users): there is no delegation to revoke.
  await deps.db
    .delete(facilityMembers)
    .where(and(eq(facilityMembers.facilityId, facility.id), eq(facilityMembers.userId, userId), ne(facilityMembers.role, UserInFacilityRole.MainUser)));
}
