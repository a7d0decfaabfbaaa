import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { CrStatus } from './facilities-api';

/** The facility's name in the UI language, or in the other one when it has none (a registry may give no English name). */
export const nameIn = (f: { nameAr: string; nameEn: string }, lang: string): string => (lang === 'ar' ? f.nameAr || f.nameEn : f.nameEn || f.nameAr);

const CR_STATUS_COLOR: Record<CrStatus, string> = { Active: 'green', Suspended: 'orange', Deleted: 'red', Expired: 'gray' };

/** The registration status; "Deleted" reads as cancelled (spec 02 section 3). */
export function CrStatusBadge({ status }: { status: CrStatus | null }) {
  const { t } = useTranslation('facilities');
  if (!status) return null;
  return (
    <Badge colorPalette={CR_STATUS_COLOR[status]} data-testid="cr-status">
      {t(`crStatus.${status}`)}
    </Badge>
  );
}

/** "Main", "Sub", or "Main (you)" / "Sub (you)" for the signed-in user (spec 02 section 6). */
export function RoleLabel({ role, isYou }: { role: number; isYou: boolean }) {
  const { t } = useTranslation('facilities');
  return (
    <Badge colorPalette={role === 0 ? 'brand' : 'gray'} variant="subtle" data-testid="role-label">
      {t(`role.${role}${isYou ? 'you' : ''}`)}
    </Badge>
  );
}

/** Permission names contain dots, which i18next reads as nesting: their labels are keyed with underscores. */
export const permissionKey = (permission: string): string => `permission.${permission.replaceAll('.', '_')}`;

/**
 * The heading of a facility's qualifying certificate (the staff's halal-profile view): a CB's designation certificate,
 * a facility's Halal certificate, by the certificate's kind.
 */
export const certificateHeadingKey = (certificateKind: string): string =>
  certificateKind === 'cbDesignation' ? 'profile.designationCertificate' : 'profile.halalCertificate';
