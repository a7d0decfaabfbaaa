import { and, eq, ilike, or, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { certificates, facilities } from '../../../db/schema';
import { toDualDate, type DualDate } from './calendar';
import { publicStatusOf, type PublicCertificateStatus } from './certificate-status';
import { countryNames, countryOrder } from './countries';
import { escapeLike } from './text';
import { newestCertificateFirstSql } from '../../../workflows/newest-certificate';
import type { Language } from '../../i18n';
import { byReaderName } from './reader-order';

export interface AccreditedCb {
  publicId: string;
  nameAr: string;
  nameEn: string;
  countryCode: string;
  countryNameAr: string;
  countryNameEn: string;
  city: string | null;
  certificate: {
    number: string;
    status: PublicCertificateStatus;
    categories: string[];
    issuedAt: DualDate;
    expiresAt: DualDate;
    /** Opens the public verification page of the designation certificate. */
    verificationCode: string;
  };
}

export interface CbQuery {
  name?: string;
  country?: string;
  category?: string;
  status?: PublicCertificateStatus;
  pageNumber: number;
  pageSize: number;
}

/**
 * Conformity bodies holding a designation certificate, each with its newest one (NEWEST_CERTIFICATE_FIRST). A CB without any designation
 * certificate is not accredited and is not listed. Name, country and category filter in the database; the status,
 * derived from dates at read time, filters the (small) result before paging.
 */
export async function listAccreditedCbs(db: Db, query: CbQuery, lang: Language, now = new Date()) {
  const latest = sql`${certificates.id} = (
    select c2.id from ${certificates} c2
    where c2.facility_public_id = ${facilities.publicId} and c2.kind = 'cbDesignation'
    order by ${newestCertificateFirstSql('c2')} limit 1)`;
  const name = query.name?.trim();
  const rows = await db
    .select({ cb: facilities, cert: certificates })
    .from(facilities)
    .innerJoin(certificates, and(eq(certificates.facilityPublicId, facilities.publicId), latest))
    .where(
      and(
        eq(facilities.type, 'ConformityBody'),
        name ? or(ilike(facilities.nameAr, `%${escapeLike(name)}%`), ilike(facilities.nameEn, `%${escapeLike(name)}%`)) : undefined,
        query.country ? eq(facilities.countryCode, query.country.toUpperCase()) : undefined,
        query.category ? sql`${certificates.categories} @> ${JSON.stringify([query.category])}::jsonb` : undefined,
      ),
    )
  const all = rows.map(({ cb, cert }): AccreditedCb => ({
    publicId: cb.publicId,
    nameAr: cb.nameAr,
    nameEn: cb.nameEn,
    countryCode: cb.countryCode,
    ...countryNames(cb.countryCode),
    city: cb.city,
    certificate: {
      number: cert.number,
      status: publicStatusOf(cert, now),
      categories: cert.categories,
      issuedAt: toDualDate(cert.issuedAt),
      expiresAt: toDualDate(cert.expiresAt),
      verificationCode: cert.verificationCode,
    },
  }));
  all.sort(byReaderName(lang));
  const filtered = query.status ? all.filter((c) => c.certificate.status === query.status) : all;
  const start = (query.pageNumber - 1) * query.pageSize;
  return { totalCount: filtered.length, items: filtered.slice(start, start + query.pageSize) };
}

/** The countries and categories that occur among accredited CBs, for the filter drop-downs. */
export async function accreditedCbFilters(db: Db, lang: Language) {
  const rows = await db
    .selectDistinct({ countryCode: facilities.countryCode, categories: certificates.categories })
    .from(facilities)
    .innerJoin(certificates, and(eq(certificates.facilityPublicId, facilities.publicId), eq(certificates.kind, 'cbDesignation')))
    .where(eq(facilities.type, 'ConformityBody'));
  const countries = [...new Set(rows.map((r) => r.countryCode))].map((code) => ({ code, ...countryNames(code) }));
  const order = countryOrder(lang);
  countries.sort((a, b) => order.indexOf(a.code) - order.indexOf(b.code));
  const categories = [...new Set(rows.flatMap((r) => r.categories))].sort();
  return { countries, categories };
}
