import { z } from 'zod';
import { ARABIC_NAME_RE } from './formats';

/**
 * Request and response schemas of the facilities area. Messages are keys of locales/<lang>/validation.json
 * (spec 01 section 5). Number formats with their own error messages (CR, acceptance, notification, IBAN, phone,
 * national id) are checked by the services with formats.ts, so the caller gets the spec's specific message.
 */

export const FACILITY_TYPES = ['InternalFacility', 'ExternalFacility', 'ConformityBody'] as const;
export type FacilityType = (typeof FACILITY_TYPES)[number];
/** User-in-facility role (spec 01 section 3). */
export const UserInFacilityRole = { MainUser: 0, SubUser: 1 } as const;
/** Facility origin (spec 01 section 3). */
export const FacilityOrigin = { Internal: 1, External: 2 } as const;
/** Search-by options (spec 01 section 3). */
export const SearchBy = { ByAny: 0, ByName: 1, ByCrNumber: 2, ByCityName: 3, ByCountryId: 4 } as const;

const zBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
const text = (max = 200) => z.string().trim().min(1, 'required').max(max, 'maxLength');
const optionalText = (max = 200) => z.string().trim().max(max, 'maxLength').optional();
const count = z.coerce.number().int('digitsOnly').min(0, 'min').max(1_000_000, 'max');
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid');

/**
 * A number of at most `digits` digits before the decimal point and at most 2 after it (revenue: 20, production
 * area: 6; spec 02 section 5). Reading "digits" as the whole part lets a 12,500.75 m² factory be entered.
 */
export const decimalWithin = (digits: number, message: string) =>
  z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => new RegExp(`^\\d{1,${digits}}(\\.\\d{1,2})?$`).test(v), { message });
const revenue = decimalWithin(20, 'form.revenueFormat');
const area = decimalWithin(6, 'form.areaFormat');

export const ZPaging = z.object({
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
  fetchFirstPage: zBool.default(false),
  fetchLastPage: zBool.default(false),
});
export type TPaging = z.infer<typeof ZPaging>;

export const ZAttachmentRef = z.object({ id: z.string().uuid('invalid') });

export const ZAddress = z.object({
  district: optionalText(100),
  streetName: optionalText(100),
  zipCode: z.string().trim().regex(/^\d{0,10}$/, 'digitsOnly').optional(),
  buildingNumber: z.string().trim().regex(/^\d{0,10}$/, 'digitsOnly').optional(),
  additionalNumber: z.string().trim().regex(/^\d{0,10}$/, 'digitsOnly').optional(),
  addressLine: optionalText(300),
});

/** What an applicant adds to the registry's data when adding an internal facility (spec 02 section 3, Facility). */
export const ZInternalExtras = z.object({
  annualShipmentCount: count.optional(),
  annualHalalCertificateCount: count.optional(),
  fullTimeEmployeeCount: count,
  exportingCountries: z.array(z.string().regex(/^[A-Z]{2}$/, 'invalid')).max(250).default([]),
  totalAnnualRevenue: revenue.optional(),
});

export const ZCreateInternal = ZInternalExtras.extend({
  crEntityNumber: z.string().trim().min(1, 'required'),
  recaptchaToken: z.string().min(1, 'required'),
  attachments: z.array(ZAttachmentRef).max(10).default([]),
});
export type TCreateInternal = z.infer<typeof ZCreateInternal>;

export const ZCrLookup = z.object({
  crEntityNumber: z.string().trim().min(1, 'required'),
  recaptchaToken: z.string().min(1, 'required'),
});

/** External factory (spec 02 section 3). */
export const ZExternalFacilityFields = z.object({
  nameAr: text().regex(ARABIC_NAME_RE, 'arabicOnly'),
  nameEn: text().regex(/^[A-Za-z0-9\s.,'&()-]+$/, 'englishOnly'),
  registrationNumber: text(50),
  countryCode: z.string().regex(/^[A-Z]{2}$/, 'invalid'),
  city: text(100),
  district: optionalText(100),
  streetName: optionalText(100),
  zipCode: optionalText(20),
  address: text(300),
  operations: z.array(text(100)).min(1, 'required').max(50),
  productionLinesCount: count,
  criticalPointsCount: count,
  permanentEmployeeCount: count,
  shiftsCount: z.coerce.number().int('digitsOnly').min(1, 'min').max(10, 'max'),
  productionArea: area,
  annualShipmentCount: count.optional(),
  totalAnnualRevenue: revenue.optional(),
  exportingCountries: z.array(z.string().regex(/^[A-Z]{2}$/, 'invalid')).max(250).default([]),
  hasExtraBranches: z.boolean(),
  extraBranches: optionalText(1000),
  branchesInKingdom: optionalText(1000),
});
export const ZCreateExternal = ZExternalFacilityFields.extend({ attachments: z.array(ZAttachmentRef).max(10).default([]) });
export type TCreateExternal = z.infer<typeof ZCreateExternal>;
export const ZUpdateExternal = ZCreateExternal.extend({ publicId: z.string().min(1, 'required') });
export type TUpdateExternal = z.infer<typeof ZUpdateExternal>;

/** Conformity body (spec 02 section 3). */
export const ZConformityBodyFields = z.object({
  nameAr: text().regex(ARABIC_NAME_RE, 'arabicOnly'),
  nameEn: text().regex(/^[A-Za-z0-9\s.,'&()-]+$/, 'englishOnly'),
  countryCode: z.string().regex(/^[A-Z]{2}$/, 'invalid'),
  city: text(100),
  address: text(300),
  registrationNumber: text(50),
  acceptanceNumber: z.string().trim().min(1, 'required'),
  notificationNumber: z.string().trim().optional(),
  certificateIssueDate: isoDate,
  certificateExpiryDate: isoDate,
  iban: z.string().trim().optional(),
  categories: z.array(z.string()).min(1, 'required'),
});
export const ZCreateConformityBody = ZConformityBodyFields.extend({ attachments: z.array(ZAttachmentRef).max(10).default([]) });
export type TCreateConformityBody = z.infer<typeof ZCreateConformityBody>;
export const ZUpdateConformityBody = ZCreateConformityBody.extend({ publicId: z.string().min(1, 'required') });
export type TUpdateConformityBody = z.infer<typeof ZUpdateConformityBody>;
/** A renewal changes the certificate data only; the rest goes through the CB profile. */
export const ZUpdateCbForRenewal = z.object({
  publicId: z.string().min(1, 'required'),
  acceptanceNumber: z.string().trim().min(1, 'required'),
  notificationNumber: z.string().trim().optional(),
  certificateIssueDate: isoDate,
  certificateExpiryDate: isoDate,
  attachments: z.array(ZAttachmentRef).max(10).default([]),
});
export type TUpdateCbForRenewal = z.infer<typeof ZUpdateCbForRenewal>;

/** Delegate (spec 02 section 3). */
export const ZDelegate = z.object({
  nationalId: z.string().trim().min(1, 'required'),
  firstName: text(60),
  lastName: text(60),
  birthDate: isoDate,
  /** Required for a new person; a person with an account gets the code on the mobile of their account. */
  phone: z.string().trim().optional(),
  preferredLanguage: z.enum(['ar', 'en']),
  /** Required for a new person (it becomes their account's email). */
  email: z.string().trim().toLowerCase().email('email').max(200, 'maxLength').optional(),
});
export type TDelegate = z.infer<typeof ZDelegate>;

/**
 * The delegation wizard's steps, all sent to Submit{CB,Facility}DelegationRequest: start (sends the OTP to the
 * delegate's mobile), resendOtp, verifyOtp, acknowledge (completes), cancel. Each delegation is a request of kind
 * `delegation` in the workflow engine (machines/delegation.ts); its id is the request id.
 */
export const ZDelegationStep = z.discriminatedUnion('step', [
  z.object({
    step: z.literal('start'),
    facilityPublicId: z.string().min(1, 'required'),
    delegate: ZDelegate,
    /** main=0, sub=1 (spec 02 section 3). A facility has one main user, so a delegation is always sub (0 is refused). */
    delegationType: z.union([z.literal(0), z.literal(1)]),
    /** The delegated permissions; empty means every one the facility type allows. */
    permissions: z.array(z.string()).default([]),
  }),
  z.object({ step: z.literal('resendOtp'), delegationId: z.string().uuid('invalid') }),
  z.object({ step: z.literal('verifyOtp'), delegationId: z.string().uuid('invalid'), code: z.string().trim().min(1, 'required').max(10) }),
  z.object({ step: z.literal('acknowledge'), delegationId: z.string().uuid('invalid'), acknowledged: z.boolean() }),
  z.object({ step: z.literal('cancel'), delegationId: z.string().uuid('invalid') }),
]);
export type TDelegationStep = z.infer<typeof ZDelegationStep>;

export const ZUserLookup = z.object({
  facilityPublicId: z.string().min(1, 'required'),
  nationalId: z.string().trim().min(1, 'required'),
});

// ---- responses ----

export const ZAttachmentDto = z.object({
  id: z.string(),
  category: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number(),
});

/** A commercial registration's status at the CR registry (server/adapters/cr-registry.ts CR_STATUSES). */
export const ZCrStatus = z.enum(['Active', 'Suspended', 'Deleted', 'Expired']);

export const ZFacilityDto = z.object({
  id: z.string(),
  publicId: z.string(),
  facilityType: z.enum(FACILITY_TYPES),
  origin: z.number(),
  nameAr: z.string(),
  nameEn: z.string(),
  registrationNumber: z.string().nullable(),
  countryCode: z.string(),
  city: z.string().nullable(),
  unifiedNumber: z.string().nullable(),
  crStatus: ZCrStatus.nullable(),
  crVerifiedAt: z.string().nullable(),
  acceptanceNumber: z.string().nullable(),
  notificationNumber: z.string().nullable(),
  certificateIssueDate: z.string().nullable(),
  certificateExpiryDate: z.string().nullable(),
  acceptanceCertificateExpired: z.boolean(),
  iban: z.string().nullable(),
  ibanStatus: z.enum(['NotProvided', 'Pending', 'Confirmed']),
  details: z.record(z.string(), z.unknown()),
  attachments: z.array(ZAttachmentDto),
  createdAt: z.string(),
  /** The caller's role in it (0 main, 1 sub), null for Halal-center staff. */
  currentUserRole: z.number().nullable(),
});
export type TFacilityDto = z.infer<typeof ZFacilityDto>;

export const ZFacilityListItem = z.object({
  id: z.string(),
  publicId: z.string(),
  facilityType: z.enum(FACILITY_TYPES),
  nameAr: z.string(),
  nameEn: z.string(),
  registrationNumber: z.string().nullable(),
  countryCode: z.string(),
  city: z.string().nullable(),
  crStatus: ZCrStatus.nullable(),
  currentUserRole: z.number(),
});

export const ZPagedFacilities = z.object({
  items: z.array(ZFacilityListItem),
  totalCount: z.number(),
  pageNumber: z.number(),
  pageSize: z.number(),
  totalPages: z.number(),
});

export const ZMemberDto = z.object({
  userId: z.string(),
  name: z.string(),
  userName: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  role: z.number(),
  isCurrentUser: z.boolean(),
  permissions: z.array(z.string()),
  memberSince: z.string(),
  delegatedBy: z.string().nullable(),
  /** The delegation that made this user a member (its history is at /api/requests/:id/history); null for the main user. */
  delegationId: z.string().nullable(),
});

export const ZCurrentUserInFacility = z.object({
  facilityId: z.string(),
  publicId: z.string(),
  facilityType: z.enum(FACILITY_TYPES),
  userId: z.string(),
  role: z.number(),
  isMainUser: z.boolean(),
  canDelegate: z.boolean(),
  permissions: z.array(z.string()),
});

export const ZCrDataDto = z.object({
  crNumber: z.string(),
  crEntityNumber: z.string(),
  unifiedNumber: z.string().nullable(),
  nameAr: z.string(),
  nameEn: z.string(),
  commercialName: z.string(),
  status: ZCrStatus,
  activityName: z.string(),
  activityNameEn: z.string(),
  issueDate: z.string(),
  expiryDate: z.string(),
  address: z.record(z.string(), z.string()),
  /** Names and relations only: the parties' id numbers stay on the server. */
  parties: z.array(z.object({ name: z.string(), relation: z.string() })),
  hasParty: z.boolean(),
  isCurrentUserParty: z.boolean(),
  alreadyRegistered: z.boolean(),
});
export type TCrDataDto = z.infer<typeof ZCrDataDto>;

export const ZCrValidation = ZCrDataDto.extend({
  /** Which create call applies: CreateInternal (with party) or CreateInternalFacilityWithNoPartyFromWatheq. */
  variant: z.enum(['withParty', 'noParty']),
  delegationLetterRequired: z.boolean(),
  commercialRegistrationRequired: z.boolean(),
});

export const ZOtpState = z.object({
  maskedPhone: z.string(),
  expiresAt: z.string(),
  resendAvailableAt: z.string(),
  resendsLeft: z.number(),
  attemptsLeft: z.number(),
});

/** Where a delegation is (the states of machines/delegation.ts). */
export const DELEGATION_STATUSES = ['awaitingOtp', 'pendingAcknowledgment', 'active', 'revoked', 'cancelled', 'expired'] as const;
export type TDelegationStatus = (typeof DELEGATION_STATUSES)[number];

/** Removing a user from a facility (its main user only): a delegated user's delegation is revoked. */
export const ZRemoveMember = z.object({ facilityPublicId: z.string().min(1, 'required'), userId: z.string().uuid('invalid') });

export const ZDelegationDto = z.object({
  /** The delegation's request id: GET /api/requests/:id/history is its verifiable history. */
  id: z.string(),
  /** The request number the engine gave it. */
  number: z.string(),
  facilityPublicId: z.string(),
  status: z.enum(DELEGATION_STATUSES),
  /** The status code of machines/delegation.ts (labels in locales/<lang>/status.json, `delegation`). */
  statusCode: z.number(),
  delegationType: z.number(),
  permissions: z.array(z.string()),
  delegate: z.object({ firstName: z.string(), lastName: z.string(), maskedPhone: z.string(), email: z.string() }),
  otp: ZOtpState.nullable(),
  accountCreated: z.boolean(),
});
export type TDelegationDto = z.infer<typeof ZDelegationDto>;

export const ZDelegateLookup = z.object({
  exists: z.boolean(),
  alreadyMember: z.boolean(),
  user: z
    .object({
      userId: z.string(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      maskedPhone: z.string().nullable(),
      preferredLanguage: z.string(),
    })
    .nullable(),
});
