import { AppError } from '../../errors';
import type { CrData, CrRegistry, CrStatus } from '../../adapters/cr-registry';
import { normalizeUnifiedNumber } from '../../../machines/forms/facilities/formats';

/*
 * The shipment's importer (spec 02 section 5, issue 13 item 6): a Saudi company whose unified number (70X XXX XXXX)
 * is verified against the commercial registry. The wizard's check button reads what the registry holds (name, CR,
 * expiry, status, activity); SUBMIT asks the registry again (the registry, not the stored form, is the authority) and
 * refuses a number the registry does not know, an expired or inactive registration, or a CR number that is not the
 * registration's.
 */

export interface ImporterRecord {
  unifiedNumber: string;
  crNumber: string;
  nameAr: string;
  nameEn: string;
  status: CrStatus;
  activity: string;
  activityEn: string;
  /** yyyy-mm-dd, Gregorian. */
  expiryDate: string;
}

/** Why a registration cannot be the importer of a shipment (a `validation` key), or null when it can. */
export type ImporterProblem = 'form.importerExpired' | 'form.importerNotActive' | null;

export function importerProblem(cr: Pick<CrData, 'status' | 'expiryDate'>, now: Date): ImporterProblem {
  if (cr.status === 'Expired' || cr.expiryDate < now.toISOString().slice(0, 10)) return 'form.importerExpired';
  if (cr.status !== 'Active') return 'form.importerNotActive';
  return null;
}

const recordOf = (unifiedNumber: string, cr: CrData): ImporterRecord => ({
  unifiedNumber: cr.unifiedNumber ?? unifiedNumber,
  crNumber: cr.crNumber,
  nameAr: cr.nameAr,
  nameEn: cr.nameEn,
  status: cr.status,
  activity: cr.activityName,
  activityEn: cr.activityNameEn,
  expiryDate: cr.expiryDate,
});

/**
 * The registry's record of a unified number, or null when the registry does not know it. A number that is not a
 * unified number at all is refused before any call (400). Registry outages stay ExternalServiceUnavailable (502).
 */
export async function lookUpImporter(registry: CrRegistry, unifiedNumber: string): Promise<ImporterRecord | null> {
  const compact = normalizeUnifiedNumber(unifiedNumber);
  if (!compact) throw new AppError('UnifiedNumberInvalid');
  try {
    const cr = await registry.fullInfo(compact);
    // An answer for another registration (a registry that matched the number as a CR number) is not this importer.
    if (cr.unifiedNumber && cr.unifiedNumber !== compact) return null;
    return recordOf(compact, cr);
  } catch (e) {
    if (e instanceof AppError && e.code === 'CrNotFound') return null;
    throw e;
  }
}
