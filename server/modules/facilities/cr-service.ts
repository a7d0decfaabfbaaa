import { randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { facilities, facilityMembers, users } from '../../../db/schema';
import type { Actor } from '../../../machines/actor';
import type { CrData } from '../../adapters/cr-registry';
import { AppError } from '../../errors';
import type { FacilityRow } from './access';
import { ATTACHMENT_RULES, claimAttachments, type AttachmentCategory } from './attachments';
import { violatedUniqueIndex } from './db-errors';
import type { FacilitiesDeps } from './deps';
import { isCrNumber } from '../../../machines/forms/facilities/formats';
import { UserInFacilityRole, type TCrDataDto, type TCreateInternal } from '../../../machines/forms/facilities/schemas';
import './errors';

export const newPublicId = (prefix: 'inf' | 'exf' | 'cb'): string => `${prefix}-${randomBytes(6).toString('hex')}`;

async function nationalIdOf(db: Db, userId: string): Promise<string | null> {
  const [u] = await db.select({ nationalId: users.nationalId }).from(users).where(eq(users.id, userId));
  return u?.nationalId ?? null;
}

/** Is this CR number already an internal facility of the portal (optionally other than `exceptId`)? */
export async function isInternalCrRegistered(db: Db, crNumber: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: facilities.id })
    .from(facilities)
    .where(
      and(
        eq(facilities.type, 'InternalFacility'),
        eq(facilities.countryCode, 'SA'),
        eq(facilities.registrationNumber, crNumber),
        exceptId ? ne(facilities.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

export function assertCrNumberFormat(crNumber: string): string {
  const v = crNumber.trim();
  if (!isCrNumber(v)) throw new AppError('CrNumberInvalid');
  return v;
}

/** Refuses a registration that is not active, naming its status (deleted is shown as cancelled). */
export function assertCrActive(cr: Pick<CrData, 'status'>): void {
  if (cr.status === 'Suspended') throw new AppError('CrSuspended');
  if (cr.status === 'Deleted') throw new AppError('CrDeleted');
  if (cr.status === 'Expired') throw new AppError('CrExpired');
}

export interface CrLookup {
  cr: CrData;
  dto: TCrDataDto;
}

/** GetCrData: checks the reCAPTCHA token, asks the registry, and says how the registration relates to the caller. */
export async function lookupCr(deps: FacilitiesDeps, actor: Actor, crEntityNumber: string, recaptchaToken: string, ip?: string): Promise<CrLookup> {
  const crNumber = assertCrNumberFormat(crEntityNumber);
  await deps.recaptcha.verify(recaptchaToken, ip);
  const cr = await deps.registry.fullInfo(crNumber);
  const nationalId = await nationalIdOf(deps.db, actor.userId);
  const dto: TCrDataDto = {
    crNumber: cr.crNumber,
    crEntityNumber: cr.crEntityNumber,
    unifiedNumber: cr.unifiedNumber,
    nameAr: cr.nameAr,
    nameEn: cr.nameEn,
    commercialName: cr.commercialName,
    status: cr.status,
    activityName: cr.activityName,
    activityNameEn: cr.activityNameEn,
    issueDate: cr.issueDate,
    expiryDate: cr.expiryDate,
    address: cr.address,
    parties: cr.parties.map((p) => ({ name: p.name, relation: p.relation })),
    hasParty: cr.parties.length > 0,
    isCurrentUserParty: !!nationalId && cr.parties.some((p) => p.identityNumber === nationalId),
    alreadyRegistered: await isInternalCrRegistered(deps.db, cr.crNumber),
  };
  return { cr, dto };
}

/** GetCrDataWithRelatedValidation: the lookup, refused when the registration cannot be added, plus what adding needs. */
export async function lookupCrForRegistration(deps: FacilitiesDeps, actor: Actor, crEntityNumber: string, recaptchaToken: string, ip?: string) {
  const { cr, dto } = await lookupCr(deps, actor, crEntityNumber, recaptchaToken, ip);
  assertCrActive(cr);
  if (dto.alreadyRegistered) throw new AppError('CrNumberDuplicate');
  return {
    ...dto,
    variant: dto.hasParty ? ('withParty' as const) : ('noParty' as const),
    delegationLetterRequired: !dto.isCurrentUserParty,
    commercialRegistrationRequired: !dto.hasParty,
  };
}

/** The registry's data as the facility keeps it (columns and details). */
function crFields(cr: CrData) {
  return {
    nameAr: cr.nameAr,
    nameEn: cr.nameEn,
    unifiedNumber: cr.unifiedNumber,
    crStatus: cr.status,
    crVerifiedAt: new Date(),
    city: cr.address.city,
  };
}
function crDetails(cr: CrData) {
  return {
    commercialName: cr.commercialName,
    activityName: cr.activityName,
    activityNameEn: cr.activityNameEn,
    crIssueDate: cr.issueDate,
    crExpiryDate: cr.expiryDate,
    address: {
      district: cr.address.district,
      streetName: cr.address.streetName,
      zipCode: cr.address.zipCode,
      buildingNumber: cr.address.buildingNumber,
      additionalNumber: cr.address.additionalNumber,
    },
    parties: cr.parties.map((p) => ({ name: p.name, relation: p.relation })),
  };
}

/**
 * CreateInternal / CreateInternalFacilityWithNoPartyFromWatheq: adds an internal facility from its CR number. The
 * data comes from the registry (never from the client); the registration must be active and not yet in the
 * portal. With parties, an applicant who is not one of them brings the owner's authorisation letter; without
 * parties, the applicant brings that letter and a copy of the registration. The applicant becomes the main user.
 */
export async function createInternal(deps: FacilitiesDeps, actor: Actor, body: TCreateInternal, variant: 'withParty' | 'noParty', ip?: string): Promise<FacilityRow> {
  const { cr, dto } = await lookupCr(deps, actor, body.crEntityNumber, body.recaptchaToken, ip);
  assertCrActive(cr);
  if (variant === 'withParty' && !dto.hasParty) throw new AppError('CrHasNoParty');
  if (variant === 'noParty' && dto.hasParty) throw new AppError('CrHasParty');
  if (dto.alreadyRegistered) throw new AppError('CrNumberDuplicate');
  const required: AttachmentCategory[] = [];
  if (!dto.isCurrentUserParty) required.push('delegationLetter');
  if (variant === 'noParty') required.push('commercialRegistration');
  const ids = body.attachments.map((a) => a.id);
  try {
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(facilities)
        .values({
          publicId: newPublicId('inf'),
          type: 'InternalFacility',
          registrationNumber: cr.crNumber,
          countryCode: 'SA',
          ...crFields(cr),
          details: {
            ...crDetails(cr),
            applicantRelation: dto.isCurrentUserParty ? 'owner' : 'delegate',
            annualShipmentCount: body.annualShipmentCount ?? null,
            annualHalalCertificateCount: body.annualHalalCertificateCount ?? null,
            fullTimeEmployeeCount: body.fullTimeEmployeeCount,
            exportingCountries: body.exportingCountries,
            totalAnnualRevenue: body.totalAnnualRevenue ?? null,
          },
          createdBy: actor.userId,
        })
        .returning();
      await tx.insert(facilityMembers).values({ facilityId: row.id, userId: actor.userId, role: UserInFacilityRole.MainUser });
      await claimAttachments(tx, actor.userId, row.id, ids, { allowed: ATTACHMENT_RULES.InternalFacility.allowed, required });
      return row;
    });
  } catch (err) {
    if (violatedUniqueIndex(err)) throw new AppError('CrNumberDuplicate');
    // The applicant is not a party of the registration: say so rather than "a file is missing".
    if (err instanceof AppError && err.code === 'AttachmentRequired' && err.params.category === 'delegationLetter') {
      throw new AppError('DelegationLetterRequired');
    }
    throw err;
  }
}

/**
 * VerifyAndUpdateCrData: asks the registry again and stores what changed (names, status, dates, address). The
 * facility's own additions (employees, revenue, ...) are kept.
 */
export async function verifyAndUpdateCr(deps: FacilitiesDeps, facility: FacilityRow): Promise<FacilityRow> {
  if (facility.type !== 'InternalFacility' || !facility.registrationNumber) return facility;
  const cr = await deps.registry.fullInfo(facility.registrationNumber);
  const [row] = await deps.db
    .update(facilities)
    .set({ ...crFields(cr), details: { ...facility.details, ...crDetails(cr) }, updatedAt: new Date() })
    .where(eq(facilities.id, facility.id))
    .returning();
  return row;
}

/**
 * The facility re-verified against the registry when possible. When the registry cannot be reached the stored data
 * is returned with `crVerification: 'unavailable'` so the profile still opens.
 */
export async function verifiedOrStored(deps: FacilitiesDeps, facility: FacilityRow, skip: boolean) {
  if (skip || facility.type !== 'InternalFacility') return { facility, crVerification: 'skipped' as const };
  try {
    return { facility: await verifyAndUpdateCr(deps, facility), crVerification: 'verified' as const };
  } catch (err) {
    if (err instanceof AppError && err.code === 'ExternalServiceUnavailable') return { facility, crVerification: 'unavailable' as const };
    throw err;
  }
}
