import type { AttachmentRow } from './attachments';
import type { FacilityRow } from './access';
import { isAcceptanceCertificateExpired } from './certificate-rules';
import { FacilityOrigin, type FacilityType, type TFacilityDto } from '../../../machines/forms/facilities/schemas';

export const ibanStatusOf = (f: Pick<FacilityRow, 'iban' | 'ibanConfirmed'>): TFacilityDto['ibanStatus'] =>
  !f.iban ? 'NotProvided' : f.ibanConfirmed ? 'Confirmed' : 'Pending';

export function toFacilityDto(f: FacilityRow, attachments: AttachmentRow[], currentUserRole: number | null): TFacilityDto {
  return {
    id: f.id,
    publicId: f.publicId,
    facilityType: f.type as FacilityType,
    origin: f.type === 'InternalFacility' ? FacilityOrigin.Internal : FacilityOrigin.External,
    nameAr: f.nameAr,
    nameEn: f.nameEn,
    registrationNumber: f.registrationNumber,
    countryCode: f.countryCode,
    city: f.city,
    unifiedNumber: f.unifiedNumber,
    crStatus: f.crStatus,
    crVerifiedAt: f.crVerifiedAt?.toISOString() ?? null,
    acceptanceNumber: f.acceptanceNumber,
    notificationNumber: f.notificationNumber,
    certificateIssueDate: f.certificateIssueDate,
    certificateExpiryDate: f.certificateExpiryDate,
    acceptanceCertificateExpired: isAcceptanceCertificateExpired(f),
    iban: f.iban,
    ibanStatus: ibanStatusOf(f),
    details: f.details,
    attachments: attachments.map((a) => ({ id: a.id, category: a.category, fileName: a.fileName, contentType: a.contentType, size: a.size })),
    createdAt: f.createdAt.toISOString(),
    currentUserRole,
  };
}
