import { api } from '../../api/client';
import type { FacilityType } from '../../session/selected-facility';

/** Shapes of the facilities calls (server/modules/facilities/schemas.ts), as the web reads them. */
export interface Attachment {
  id: string;
  category: string;
  fileName: string;
  contentType: string;
  size: number;
}

export interface Facility {
  id: string;
  publicId: string;
  facilityType: FacilityType;
  origin: number;
  nameAr: string;
  nameEn: string;
  registrationNumber: string | null;
  countryCode: string;
  city: string | null;
  unifiedNumber: string | null;
  crStatus: CrStatus | null;
  crVerifiedAt: string | null;
  acceptanceNumber: string | null;
  notificationNumber: string | null;
  certificateIssueDate: string | null;
  certificateExpiryDate: string | null;
  acceptanceCertificateExpired: boolean;
  iban: string | null;
  ibanStatus: 'NotProvided' | 'Pending' | 'Confirmed';
  details: Record<string, unknown>;
  attachments: Attachment[];
  createdAt: string;
  currentUserRole: number | null;
  crVerification?: 'verified' | 'unavailable' | 'skipped';
  designationCertificate?: { id: string; number: string; status: number; expiresAt: string; usable: boolean } | null;
}

export type CrStatus = 'Active' | 'Suspended' | 'Deleted' | 'Expired';

export interface FacilityListItem {
  id: string;
  publicId: string;
  facilityType: FacilityType;
  nameAr: string;
  nameEn: string;
  registrationNumber: string | null;
  countryCode: string;
  city: string | null;
  crStatus: CrStatus | null;
  currentUserRole: number;
}

export interface Paged<T> {
  items: T[];
  totalCount: number;
  pageNumber: number;
  pageSize: number;
  totalPages: number;
}

export interface Member {
  userId: string;
  name: string;
  userName: string;
  email: string;
  phone: string | null;
  role: number;
  isCurrentUser: boolean;
  permissions: string[];
  memberSince: string;
  delegatedBy: string | null;
  /** The delegation that made this user a member; null for the main user. */
  delegationId: string | null;
}

export interface CurrentUserInFacility {
  facilityId: string;
  publicId: string;
  facilityType: FacilityType;
  role: number;
  isMainUser: boolean;
  canDelegate: boolean;
  permissions: string[];
}

export interface CrData {
  crNumber: string;
  unifiedNumber: string | null;
  nameAr: string;
  nameEn: string;
  commercialName: string;
  status: CrStatus;
  activityName: string;
  activityNameEn: string;
  issueDate: string;
  expiryDate: string;
  address: Record<string, string>;
  parties: { name: string; relation: string }[];
  hasParty: boolean;
  isCurrentUserParty: boolean;
  alreadyRegistered: boolean;
}

export interface CrValidation extends CrData {
  variant: 'withParty' | 'noParty';
  delegationLetterRequired: boolean;
  commercialRegistrationRequired: boolean;
}

export interface OtpState {
  maskedPhone: string;
  expiresAt: string;
  resendAvailableAt: string;
  resendsLeft: number;
  attemptsLeft: number;
}

/** A delegation: a request of kind `delegation` in the workflow engine (its id has a history at /api/requests/:id/history). */
export interface Delegation {
  id: string;
  number: string;
  facilityPublicId: string;
  status: 'awaitingOtp' | 'pendingAcknowledgment' | 'active' | 'revoked' | 'cancelled' | 'expired';
  statusCode: number;
  delegationType: number;
  permissions: string[];
  delegate: { firstName: string; lastName: string; maskedPhone: string; email: string };
  otp: OtpState | null;
  accountCreated: boolean;
}

export interface DelegateLookup {
  exists: boolean;
  alreadyMember: boolean;
  user: { userId: string; firstName: string; lastName: string; email: string; maskedPhone: string | null; preferredLanguage: string } | null;
}

export interface Catalogue {
  categories: { code: string; subCategories: string[] }[];
  delegablePermissions: Record<FacilityType, string[]>;
  attachmentRules: Record<FacilityType, { allowed: string[]; required: string[] }>;
  maxAttachmentBytes: number;
}

/** Uploads one file (the request body is the file, typed by its Content-Type) and returns its attachment. */
export function uploadAttachment(category: string, file: File): Promise<Attachment> {
  return api.post<Attachment>('/api/facility-attachments', file, {
    query: { category, fileName: file.name },
    headers: { 'content-type': file.type || 'application/octet-stream' },
  });
}

/** The three profile routes' segment for each facility type (facility-profile/cb|external|internal). */
export const PROFILE_SEGMENT: Record<FacilityType, 'cb' | 'external' | 'internal'> = {
  ConformityBody: 'cb',
  ExternalFacility: 'external',
  InternalFacility: 'internal',
};

/** The profile segment of a facility type (facility-profile/cb|internal|external/...). */
export type ProfileKind = 'cb' | 'internal' | 'external';
export const PROFILE_KIND: Record<FacilityType, ProfileKind> = { ConformityBody: 'cb', InternalFacility: 'internal', ExternalFacility: 'external' };

/** The call that reads one facility (or CB) with its details, by profile kind. */
export const facilityDetailsUrl = (kind: ProfileKind, id: string): string =>
  kind === 'cb'
    ? `/api/ConformityBody/GetConformityBodyDetails/${encodeURIComponent(id)}`
    : kind === 'internal'
      ? `/api/Facility/GetFacilityAndVerifyCrDataSkippingSubUser/${encodeURIComponent(id)}`
      : `/api/ExternalFacility/GetFacilityByPublicId/${encodeURIComponent(id)}`;
