import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { facilities, facilityMembers } from '../../../db/schema';
import type { Actor } from '../../../machines/actor';
import { CB_CATEGORIES } from '../public/cb-categories';
import { AppError } from '../../errors';
import type { FacilityRow } from './access';
import { ATTACHMENT_RULES, attachmentsOf, claimAttachments } from './attachments';
import { assertCbEditable, assertCbServicesAllowed } from './certificate-rules';
import { violatedUniqueIndex } from './db-errors';
import { todayInRiyadh, type FacilitiesDeps } from './deps';
import { newPublicId } from './cr-service';
import { isAcceptanceNumber, isNotificationNumber, normalizeAcceptanceNumber, normalizeIban, normalizeNotificationNumber } from '../../../machines/forms/facilities/formats';
import { UserInFacilityRole, type TCreateConformityBody, type TUpdateCbForRenewal, type TUpdateConformityBody } from '../../../machines/forms/facilities/schemas';
import './errors';

/** The main category of a sub-category code (ISO/TS 22003-1: `CII` belongs to `C`). */
export const mainCategoryOf = (code: string): string => code.charAt(0);
/** Main categories with their sub-categories, for the category picker. */
export const CATEGORY_TREE: { code: string; subCategories: string[] }[] = [...new Set(CB_CATEGORIES.map(mainCategoryOf))].map((code) => ({
  code,
  subCategories: CB_CATEGORIES.filter((c) => mainCategoryOf(c) === code),
}));

async function isTaken(db: Db, column: 'acceptanceNumber' | 'notificationNumber' | 'registrationNumber', value: string, exceptId?: string, countryCode?: string) {
  const [row] = await db
    .select({ id: facilities.id })
    .from(facilities)
    .where(
      and(
        eq(facilities.type, 'ConformityBody'),
        eq(facilities[column], value),
        countryCode ? eq(facilities.countryCode, countryCode) : undefined,
        exceptId ? ne(facilities.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

/** ValidateAcceptanceNumberAsync: format `#-####H-CB` and not used by another CB. */
export async function validateAcceptanceNumber(db: Db, value: string, exceptId?: string): Promise<string> {
  const v = normalizeAcceptanceNumber(value);
  if (!isAcceptanceNumber(v)) throw new AppError('AcceptanceNumberInvalid');
  if (await isTaken(db, 'acceptanceNumber', v, exceptId)) throw new AppError('AcceptanceNumberDuplicate');
  return v;
}

/** ValidateRegistrationNumberAsync: a CB's registration number is unique within its country. */
export async function validateRegistrationNumber(db: Db, value: string, countryCode: string | undefined, exceptId?: string): Promise<string> {
  const v = value.trim();
  if (!v) throw new AppError('ValidationFailed');
  if (await isTaken(db, 'registrationNumber', v, exceptId, countryCode)) throw new AppError('RegistrationNumberDuplicate');
  return v;
}

interface CertificateData {
  acceptanceNumber: string;
  notificationNumber?: string;
  certificateIssueDate: string;
  certificateExpiryDate: string;
}

/** Formats, dates (CB-00006: expiry after today) and duplicates of the acceptance/notification certificate data. */
async function validateCertificateData(db: Db, body: CertificateData, exceptId?: string) {
  const acceptanceNumber = await validateAcceptanceNumber(db, body.acceptanceNumber, exceptId);
  let notificationNumber: string | null = null;
  if (body.notificationNumber?.trim()) {
    notificationNumber = normalizeNotificationNumber(body.notificationNumber);
    if (!isNotificationNumber(notificationNumber)) throw new AppError('NotificationNumberInvalid');
    if (await isTaken(db, 'notificationNumber', notificationNumber, exceptId)) throw new AppError('NotificationNumberDuplicate');
  }
  const today = todayInRiyadh();
  if (body.certificateExpiryDate <= today) throw new AppError('CB-00006');
  if (body.certificateIssueDate > today || body.certificateIssueDate >= body.certificateExpiryDate) throw new AppError('CertificateDatesInvalid');
  return { acceptanceNumber, notificationNumber, certificateIssueDate: body.certificateIssueDate, certificateExpiryDate: body.certificateExpiryDate };
}

function validateCategories(categories: string[]): string[] {
  const unique = [...new Set(categories)];
  if (!unique.length || unique.some((c) => !(CB_CATEGORIES as readonly string[]).includes(c))) throw new AppError('CategoryInvalid');
  return unique;
}

function validateIban(iban: string | undefined): string | null {
  if (!iban?.trim()) return null;
  const v = normalizeIban(iban);
  if (!v) throw new AppError('IbanInvalid');
  return v;
}

/** Every check of create/update that does not change anything (ValidateUpdateConformityBodyRequest runs it alone). */
export async function validateConformityBody(db: Db, body: TCreateConformityBody, existing?: FacilityRow) {
  const registrationNumber = await validateRegistrationNumber(db, body.registrationNumber, body.countryCode, existing?.id);
  const certificate = await validateCertificateData(db, body, existing?.id);
  const categories = validateCategories(body.categories);
  const iban = validateIban(body.iban);
  if (existing) {
    await assertCbEditable(db, existing);
    // A confirmed IBAN is changed only through customer service (spec 02 section 8, IBAN hint).
    if (existing.ibanConfirmed && iban !== existing.iban) throw new AppError('IbanAlreadyConfirmed');
  }
  return { registrationNumber, ...certificate, categories, iban };
}

/** ConformityBody/create: immediate; the applicant becomes the CB's main user; the IBAN stays pending. */
export async function createConformityBody(deps: FacilitiesDeps, actor: Actor, body: TCreateConformityBody): Promise<FacilityRow> {
  const v = await validateConformityBody(deps.db, body);
  try {
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(facilities)
        .values({
          publicId: newPublicId('cb'),
          type: 'ConformityBody',
          nameAr: body.nameAr,
          nameEn: body.nameEn,
          countryCode: body.countryCode,
          city: body.city,
          registrationNumber: v.registrationNumber,
          acceptanceNumber: v.acceptanceNumber,
          notificationNumber: v.notificationNumber,
          certificateIssueDate: v.certificateIssueDate,
          certificateExpiryDate: v.certificateExpiryDate,
          iban: v.iban,
          ibanConfirmed: false,
          details: { address: body.address, categories: v.categories },
          createdBy: actor.userId,
        })
        .returning();
      await tx.insert(facilityMembers).values({ facilityId: row.id, userId: actor.userId, role: UserInFacilityRole.MainUser });
      await claimAttachments(tx, actor.userId, row.id, body.attachments.map((a) => a.id), ATTACHMENT_RULES.ConformityBody);
      return row;
    });
  } catch (err) {
    throw duplicateError(err) ?? err;
  }
}

function duplicateError(err: unknown): AppError | undefined {
  const index = violatedUniqueIndex(err);
  if (!index) return undefined;
  if (index.includes('acceptance')) return new AppError('AcceptanceNumberDuplicate');
  if (index.includes('notification')) return new AppError('NotificationNumberDuplicate');
  return new AppError('RegistrationNumberDuplicate');
}

/** ConformityBody/update (CB-00009 while a valid designation certificate holds the data). */
export async function updateConformityBody(deps: FacilitiesDeps, actor: Actor, cb: FacilityRow, body: TUpdateConformityBody): Promise<FacilityRow> {
  assertCbServicesAllowed(cb);
  const v = await validateConformityBody(deps.db, body, cb);
  const existing = await attachmentsOf(deps.db, cb.id);
  try {
    return await deps.db.transaction(async (tx) => {
      const ibanChanged = v.iban !== cb.iban;
      const [row] = await tx
        .update(facilities)
        .set({
          nameAr: body.nameAr,
          nameEn: body.nameEn,
          countryCode: body.countryCode,
          city: body.city,
          registrationNumber: v.registrationNumber,
          acceptanceNumber: v.acceptanceNumber,
          notificationNumber: v.notificationNumber,
          certificateIssueDate: v.certificateIssueDate,
          certificateExpiryDate: v.certificateExpiryDate,
          iban: v.iban,
          // A new IBAN is pending again until confirmed.
          ibanConfirmed: ibanChanged ? false : cb.ibanConfirmed,
          ibanConfirmedAt: ibanChanged ? null : cb.ibanConfirmedAt,
          details: { ...cb.details, address: body.address, categories: v.categories },
          updatedAt: new Date(),
        })
        .where(eq(facilities.id, cb.id))
        .returning();
      await claimAttachments(tx, actor.userId, row.id, body.attachments.map((a) => a.id), ATTACHMENT_RULES.ConformityBody, existing);
      return row;
    });
  } catch (err) {
    throw duplicateError(err) ?? err;
  }
}

/**
 * UpdateConformityBodyForCbRenewal: a renewal brings a new acceptance/notification certificate. Allowed while the
 * CB is designated (that is what a renewal is for) and while the old certificate has expired (that is why).
 */
export async function updateForRenewal(deps: FacilitiesDeps, actor: Actor, cb: FacilityRow, body: TUpdateCbForRenewal): Promise<FacilityRow> {
  const v = await validateCertificateData(deps.db, body, cb.id);
  const existing = await attachmentsOf(deps.db, cb.id);
  try {
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(facilities)
        .set({ ...v, updatedAt: new Date() })
        .where(eq(facilities.id, cb.id))
        .returning();
      const rules = { allowed: ATTACHMENT_RULES.ConformityBody.allowed, required: ['acceptanceCertificate' as const] };
      await claimAttachments(tx, actor.userId, row.id, body.attachments.map((a) => a.id), rules, existing);
      return row;
    });
  } catch (err) {
    throw duplicateError(err) ?? err;
  }
}

/**
 * ConfirmConformityBodyIban: the CB's main user confirms the IBAN it entered (true), which then can only be
 * changed through customer service, or says it is wrong (false), which clears it so it can be entered again.
 */
export async function confirmIban(db: Db, cb: FacilityRow, confirmed: boolean): Promise<FacilityRow> {
  if (!cb.iban) throw new AppError('IbanMissing');
  if (cb.ibanConfirmed) throw new AppError('IbanAlreadyConfirmed');
  const [row] = await db
    .update(facilities)
    .set(confirmed ? { ibanConfirmed: true, ibanConfirmedAt: new Date(), updatedAt: new Date() } : { iban: null, updatedAt: new Date() })
    .where(eq(facilities.id, cb.id))
    .returning();
  return row;
}
