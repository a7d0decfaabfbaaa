import { createHash, randomBytes } from 'node:crypto';
import { and, eq, or } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { delegateInvitations, delegations, facilityMembers, users } from '../../../db/schema';
import type { Actor } from '../../../machines/actor';
import { Permissions as P } from '../../../machines/permissions';
import { AppError, AppErrorCode } from '../../errors';
import { tFor, type Language } from '../../i18n';
import { requireMember, type FacilityRow } from './access';
import { assertDelegationAllowed } from './certificate-rules';
import { violatedUniqueIndex } from './db-errors';
import { nextDelegationStatus, type DelegationEvent, type DelegationStatus } from './delegation-machine';
import type { FacilitiesDeps } from './deps';
import { isNationalOrResidentId, maskPhone, normalizePhone } from '../../../machines/forms/facilities/formats';
import { latestChallenge, otpStateOf, resendOtp, sendSms, startOtp, verifyOtp, type OtpMessage } from './otp-service';
import { UserInFacilityRole, type FacilityType, type TDelegate, type TDelegationDto, type TDelegationStep } from '../../../machines/forms/facilities/schemas';
import './errors';

type DelegationRow = typeof delegations.$inferSelect;
const OTP_PURPOSE = 'delegation';

/**
 * What a delegate may be given, per facility type (spec 02 section 6: the main delegate has all permissions; a sub
 * delegate all except delegation, which is the membership role, not a permission). An empty selection means all.
 * Other modules read a member's list from facility_members.permissions to scope what the delegate may do there.
 */
export const DELEGABLE_PERMISSIONS: Record<FacilityType, readonly string[]> = {
  InternalFacility: [
    P.facility.internal,
    P.facility.internalEdit,
    P.internalRequest.request,
    P.internalRequest.submit,
    P.files.uploadProductPhoto,
    P.files.downloadProductPhoto,
  ],
  ExternalFacility: [
    P.facility.external,
    P.facility.externalEdit,
    P.externalRequest.request,
    P.externalRequest.submit,
    P.shipment.default,
    P.shipment.submit,
  ],
  ConformityBody: [
    P.facility.conformityBody,
    P.facility.conformityBodyEdit,
    P.cbAccreditation.request,
    P.cbAccreditation.submit,
    P.externalRequest.request,
    P.externalRequest.submit,
    P.shipment.default,
    P.shipment.submit,
    P.files.uploadProductPhoto,
    P.files.downloadProductPhoto,
  ],
};

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
  const [m] = await db
    .select({ role: facilityMembers.role })
    .from(facilityMembers)
    .where(and(eq(facilityMembers.facilityId, facility.id), eq(facilityMembers.userId, u.id)));
  return {
    exists: true,
    alreadyMember: !!m,
    user: {
      userId: u.id,
      ...splitName(u.name),
      email: maskEmail(u.email),
      maskedPhone: u.phone ? maskPhone(u.phone) : null,
      preferredLanguage: u.preferredLanguage,
    },
  };
}

async function toDto(deps: FacilitiesDeps, d: DelegationRow, facility: FacilityRow): Promise<TDelegationDto> {
  const challenge = d.status === 'awaitingOtp' ? await latestChallenge(deps.db, OTP_PURPOSE, d.id) : undefined;
  const [invitation] = d.delegateUserId
    ? await deps.db.select({ id: delegateInvitations.id }).from(delegateInvitations).where(eq(delegateInvitations.delegationId, d.id))
    : [];
  return {
    id: d.id,
    facilityPublicId: facility.publicId,
    status: d.status as DelegationStatus,
    delegationType: d.type,
    delegate: { firstName: d.firstName, lastName: d.lastName, maskedPhone: maskPhone(d.phone), email: d.email },
    otp: challenge ? otpStateOf(deps, challenge) : null,
    accountCreated: !!invitation,
  };
}

function otpText(facility: FacilityRow, lang: Language): OtpMessage['text'] {
  const t = tFor(lang);
  const name = lang === 'ar' ? facility.nameAr : facility.nameEn;
  return (code, minutes) => t('facilities:sms.delegationOtp', { code, minutes, facility: name });
}

/** Moves the delegation through its machine, or refuses with TransitionNotAllowed (409). */
function next(d: DelegationRow, event: DelegationEvent): DelegationStatus {
  const status = nextDelegationStatus(d.status as DelegationStatus, d.delegatorUserId, event);
  if (!status) throw new AppError(AppErrorCode.TransitionNotAllowed);
  return status;
}

interface StepContext {
  deps: FacilitiesDeps;
  actor: Actor;
  types: readonly FacilityType[];
  /** Origin for the set-password link sent to a new delegate (PUBLIC_URL, else the caller's origin). */
  baseUrl: string;
}

/** Start: checks the delegate and the delegator's authority, records the delegation and sends the OTP. */
async function start(ctx: StepContext, step: Extract<TDelegationStep, { step: 'start' }>) {
  const { deps, actor } = ctx;
  const { facility } = await requireMember(deps.db, actor, step.facilityPublicId, { types: ctx.types, mainUser: true });
  await assertDelegationAllowed(deps.db, facility);
  const d: TDelegate = step.delegate;
  const nationalId = assertNationalId(d.nationalId);
  if (step.delegationType === UserInFacilityRole.MainUser && step.confirmMainDelegation !== true) {
    throw new AppError('MainDelegationConfirmationRequired');
  }
  const allowed = DELEGABLE_PERMISSIONS[facility.type as FacilityType];
  if (step.permissions.some((p) => !allowed.includes(p))) throw new AppError('DelegationPermissionInvalid');

  const [self] = await deps.db.select({ nationalId: users.nationalId }).from(users).where(eq(users.id, actor.userId));
  if (self?.nationalId === nationalId) throw new AppError('DelegateIsSelf');
  const [existing] = await deps.db.select().from(users).where(eq(users.nationalId, nationalId));
  if (existing) {
    const [m] = await deps.db
      .select({ role: facilityMembers.role })
      .from(facilityMembers)
      .where(and(eq(facilityMembers.facilityId, facility.id), eq(facilityMembers.userId, existing.id)));
    if (m) throw new AppError('DelegateAlreadyMember');
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

  // An unfinished delegation of the same person to the same facility is replaced by this one.
  await deps.db
    .update(delegations)
    .set({ status: 'cancelled', cancelledAt: new Date() })
    .where(
      and(
        eq(delegations.facilityId, facility.id),
        eq(delegations.nationalId, nationalId),
        or(eq(delegations.status, 'awaitingOtp'), eq(delegations.status, 'awaitingAcknowledgment')),
      ),
    );
  const [row] = await deps.db
    .insert(delegations)
    .values({
      facilityId: facility.id,
      delegatorUserId: actor.userId,
      nationalId,
      firstName: d.firstName,
      lastName: d.lastName,
      birthDate: d.birthDate,
      phone,
      preferredLanguage: lang,
      email,
      type: step.delegationType,
      permissions: step.permissions.length ? step.permissions : [...allowed],
      status: 'awaitingOtp',
    })
    .returning();
  try {
    await startOtp(deps, { purpose: OTP_PURPOSE, subjectId: row.id, phone, text: otpText(facility, lang) });
  } catch (err) {
    // No code went out: the delegation cannot go on, so it does not linger as "awaiting OTP".
    await deps.db.update(delegations).set({ status: 'cancelled', cancelledAt: new Date() }).where(eq(delegations.id, row.id));
    throw err;
  }
  return toDto(deps, row, facility);
}

/** The delegation, provided the caller is the main user of its facility (only delegators drive the wizard). */
async function loadOwn(ctx: StepContext, delegationId: string): Promise<{ d: DelegationRow; facility: FacilityRow }> {
  const [d] = await ctx.deps.db.select().from(delegations).where(eq(delegations.id, delegationId));
  if (!d) throw new AppError('NotFacilityMember');
  const { facility } = await requireMember(ctx.deps.db, ctx.actor, d.facilityId, { types: ctx.types, mainUser: true });
  return { d, facility };
}

async function complete(ctx: StepContext, d: DelegationRow, facility: FacilityRow) {
  const { deps } = ctx;
  const status = next(d, { type: 'ACKNOWLEDGE', actorUserId: ctx.actor.userId });
  const lang: Language = d.preferredLanguage === 'en' ? 'en' : 'ar';
  const t = tFor(lang);
  const facilityName = lang === 'ar' ? facility.nameAr : facility.nameEn;
  try {
    await deps.db.transaction(async (tx) => {
      let [user] = await tx.select().from(users).where(eq(users.nationalId, d.nationalId));
      let text: string;
      if (!user) {
        // A new account: no usable password (the hash format is not scrypt), a one-time link to choose one.
        [user] = await tx
          .insert(users)
          .values({
            userName: d.nationalId,
            email: d.email,
            name: `${d.firstName} ${d.lastName}`,
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
          userId: user.id,
          delegationId: d.id,
          tokenHash: createHash('sha256').update(token).digest('hex'),
          expiresAt: new Date(Date.now() + hours * 3_600_000),
        });
        const link = `${ctx.baseUrl}/delegate-invitation/${token}`;
        text = t('facilities:sms.delegationNewAccount', { facility: facilityName, userName: user.userName, link, hours });
      } else {
        text = t('facilities:sms.delegationAdded', { facility: facilityName });
      }
      await tx.insert(facilityMembers).values({
        facilityId: facility.id,
        userId: user.id,
        role: d.type === UserInFacilityRole.MainUser ? UserInFacilityRole.MainUser : UserInFacilityRole.SubUser,
        permissions: d.permissions,
        delegationId: d.id,
      });
      await tx.update(delegations).set({ status, delegateUserId: user.id, completedAt: new Date() }).where(eq(delegations.id, d.id));
      await sendSms(deps, tx, { phone: d.phone, purpose: 'delegationCompleted', subjectId: d.id, text });
    });
  } catch (err) {
    const index = violatedUniqueIndex(err);
    if (index?.includes('email')) throw new AppError('DelegateEmailInUse');
    if (index) throw new AppError('DelegateAlreadyMember');
    throw err;
  }
  const [row] = await deps.db.select().from(delegations).where(eq(delegations.id, d.id));
  return toDto(deps, row, facility);
}

/**
 * Submit{CB,Facility}DelegationRequest: one call for every step of the wizard (start, resendOtp, verifyOtp,
 * acknowledge, cancel). The delegation machine decides which step is allowed now.
 */
export async function submitDelegationStep(ctx: StepContext, step: TDelegationStep): Promise<TDelegationDto> {
  if (step.step === 'start') return start(ctx, step);
  const { d, facility } = await loadOwn(ctx, step.delegationId);
  const { deps, actor } = ctx;
  switch (step.step) {
    case 'resendOtp': {
      if (d.status !== 'awaitingOtp') throw new AppError(AppErrorCode.TransitionNotAllowed);
      const c = await latestChallenge(deps.db, OTP_PURPOSE, d.id);
      if (!c) throw new AppError(AppErrorCode.TransitionNotAllowed);
      await resendOtp(deps, c.id, otpText(facility, d.preferredLanguage === 'en' ? 'en' : 'ar'));
      return toDto(deps, d, facility);
    }
    case 'verifyOtp': {
      const status = next(d, { type: 'OTP_VERIFIED', actorUserId: actor.userId });
      const c = await latestChallenge(deps.db, OTP_PURPOSE, d.id);
      if (!c) throw new AppError(AppErrorCode.TransitionNotAllowed);
      await verifyOtp(deps, c.id, step.code);
      const [row] = await deps.db
        .update(delegations)
        .set({ status, otpVerifiedAt: new Date() })
        .where(and(eq(delegations.id, d.id), eq(delegations.status, d.status)))
        .returning();
      if (!row) throw new AppError(AppErrorCode.ConcurrencyConflict);
      return toDto(deps, row, facility);
    }
    case 'acknowledge': {
      if (!step.acknowledged) throw new AppError('AcknowledgmentRequired');
      // The facility's certificates may have changed since the start.
      await assertDelegationAllowed(deps.db, facility);
      return complete(ctx, d, facility);
    }
    case 'cancel': {
      const status = next(d, { type: 'CANCEL', actorUserId: actor.userId });
      const [row] = await deps.db
        .update(delegations)
        .set({ status, cancelledAt: new Date() })
        .where(eq(delegations.id, d.id))
        .returning();
      return toDto(deps, row, facility);
    }
  }
}
