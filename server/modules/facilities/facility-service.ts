import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { delegations, facilities, facilityMembers, users } from '../../../db/schema';
import type { Actor } from '../../../machines/actor';
import { AppError } from '../../errors';
import { DEFAULT_LANGUAGE, type Language } from '../../i18n';
import type { FacilityRow } from './access';
import { ATTACHMENT_RULES, attachmentsOf, claimAttachments } from './attachments';
import { violatedUniqueIndex } from './db-errors';
import type { FacilitiesDeps } from './deps';
import { newPublicId } from './cr-service';
import { countryOrderLiteral } from '../public/countries';
import { SearchBy, UserInFacilityRole, type FacilityType, type TCreateExternal, type TPaging, type TUpdateExternal } from '../../../machines/forms/facilities/schemas';
import './errors';

/** `%` and `_` typed by a person are searched for literally. */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export interface FacilitySearch {
  facilityType?: FacilityType;
  searchText?: string;
  searchBy?: number;
  sortBy?: 'all' | 'name' | 'registrationNumber' | 'city' | 'country';
  /** The reader's language: `name` sorts by the name they read. */
  lang?: Language;
  /** Keeps only the facilities this answers for (a request's factory choice: requests/service.ts factoriesTheChoiceAccepts). */
  accepts?: (publicIds: readonly string[]) => Promise<Set<string>>;
}

function searchCondition(searchText: string | undefined, searchBy: number | undefined): SQL | undefined {
  const text = searchText?.trim();
  if (!text) return undefined;
  const like = `%${escapeLike(text)}%`;
  switch (searchBy ?? SearchBy.ByAny) {
    case SearchBy.ByName:
      return or(ilike(facilities.nameAr, like), ilike(facilities.nameEn, like));
    case SearchBy.ByCrNumber:
      return ilike(facilities.registrationNumber, like);
    case SearchBy.ByCityName:
      return ilike(facilities.city, like);
    case SearchBy.ByCountryId:
      return eq(facilities.countryCode, text.toUpperCase());
    default:
      return or(
        ilike(facilities.nameAr, like),
        ilike(facilities.nameEn, like),
        ilike(facilities.registrationNumber, like),
        ilike(facilities.city, like),
        eq(facilities.countryCode, text.toUpperCase()),
      );
  }
}

/**
 * The name a reader of `lang` sees, the other language's when that one is empty (as the screens show it), without
 * case: the database's collation may be code-point order (C.UTF-8), where "Zamzam" sorts before "al-Safa".
 */
const nameSql = (lang: Language): SQL => {
  const [first, other] = lang === 'ar' ? [facilities.nameAr, facilities.nameEn] : [facilities.nameEn, facilities.nameAr];
  return sql`lower(coalesce(nullif(${first}, ''), ${other}))`;
};

const SORT_COLUMNS = {
  all: facilities.createdAt,
  registrationNumber: facilities.registrationNumber,
  city: sql`lower(${facilities.city})`,
} as const;
const sortColumn = ({ sortBy = 'all', lang = DEFAULT_LANGUAGE }: FacilitySearch) =>
  sortBy === 'name'
    ? nameSql(lang)
    : sortBy === 'country'
      ? sql`array_position(${countryOrderLiteral(lang)}::text[], ${facilities.countryCode})`
      : SORT_COLUMNS[sortBy];

/**
 * The caller's own facilities and CBs (membership), searched and paged (spec 01 section 3: pageNumber, pageSize,
 * fetchFirstPage, fetchLastPage). Nobody lists a facility they are not a user of.
 */
export async function listUserFacilities(db: Db, actor: Actor, search: FacilitySearch, paging: TPaging) {
  const where = and(
    eq(facilityMembers.userId, actor.userId),
    search.facilityType ? eq(facilities.type, search.facilityType) : undefined,
    searchCondition(search.searchText, search.searchBy),
  );
  const ordered = () =>
    db
      .select({ f: facilities, role: facilityMembers.role })
      .from(facilityMembers)
      .innerJoin(facilities, eq(facilities.id, facilityMembers.facilityId))
      .where(where)
      .orderBy(asc(sortColumn(search)), asc(facilities.id));
  // A rule asked of each facility (a user's own facilities are few): all of them read, those it accepts paged here.
  const accepted = search.accepts ? await acceptedRows(await ordered(), search.accepts) : undefined;
  const total = accepted ? accepted.length : (await db.select({ total: count() }).from(facilityMembers).innerJoin(facilities, eq(facilities.id, facilityMembers.facilityId)).where(where))[0].total;
  const totalPages = Math.max(1, Math.ceil(total / paging.pageSize));
  const pageNumber = paging.fetchFirstPage ? 1 : paging.fetchLastPage ? totalPages : Math.min(paging.pageNumber, totalPages);
  const offset = (pageNumber - 1) * paging.pageSize;
  const rows = accepted ? accepted.slice(offset, offset + paging.pageSize) : await ordered().limit(paging.pageSize).offset(offset);
  return {
    items: rows.map(({ f, role }) => ({
      id: f.id,
      publicId: f.publicId,
      facilityType: f.type as FacilityType,
      nameAr: f.nameAr,
      nameEn: f.nameEn,
      registrationNumber: f.registrationNumber,
      countryCode: f.countryCode,
      city: f.city,
      crStatus: f.crStatus,
      currentUserRole: role,
    })),
    totalCount: total,
    pageNumber,
    pageSize: paging.pageSize,
    totalPages,
  };
}

async function acceptedRows<R extends { f: { publicId: string } }>(rows: R[], accepts: NonNullable<FacilitySearch['accepts']>): Promise<R[]> {
  const ok = await accepts(rows.map((r) => r.f.publicId));
  return rows.filter((r) => ok.has(r.f.publicId));
}

/** Users of a facility with their roles; `isCurrentUser` drives the "main (you)" / "sub (you)" labels. */
export async function listMembers(db: Db, facilityId: string, currentUserId: string | null) {
  const rows = await db
    .select({ m: facilityMembers, u: users, delegatorName: delegations.delegatorUserId })
    .from(facilityMembers)
    .innerJoin(users, eq(users.id, facilityMembers.userId))
    .leftJoin(delegations, eq(delegations.id, facilityMembers.delegationId))
    .where(eq(facilityMembers.facilityId, facilityId))
    .orderBy(asc(facilityMembers.role), asc(facilityMembers.createdAt));
  const delegatorIds = [...new Set(rows.map((r) => r.delegatorName).filter((x): x is string => !!x))];
  const names = delegatorIds.length
    ? new Map((await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, delegatorIds))).map((u) => [u.id, u.name]))
    : new Map<string, string>();
  return rows.map(({ m, u, delegatorName }) => ({
    userId: u.id,
    name: u.name,
    userName: u.userName,
    email: u.email,
    phone: u.phone,
    role: m.role,
    isCurrentUser: u.id === currentUserId,
    permissions: m.permissions,
    memberSince: m.createdAt.toISOString(),
    delegatedBy: delegatorName ? (names.get(delegatorName) ?? null) : null,
    delegationId: m.delegationId,
  }));
}

/** One user of the facility (GetUserDetailInFacility / GetUserDetailInConformityBody), or 404. */
export async function memberDetail(db: Db, facilityId: string, userId: string, currentUserId: string | null) {
  const all = await listMembers(db, facilityId, currentUserId);
  const m = all.find((x) => x.userId === userId);
  if (!m) throw new AppError('NotFacilityMember');
  return m;
}

/** External factories are foreign: a Saudi factory is added as an internal facility from its CR number. */
function assertForeign(countryCode: string) {
  if (countryCode === 'SA') throw new AppError('ExternalFacilityCountryInvalid');
}

export async function isExternalRegistrationTaken(db: Db, registrationNumber: string, countryCode: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: facilities.id })
    .from(facilities)
    .where(
      and(
        eq(facilities.type, 'ExternalFacility'),
        eq(facilities.countryCode, countryCode),
        eq(facilities.registrationNumber, registrationNumber.trim()),
        exceptId ? ne(facilities.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

function externalDetails(body: TCreateExternal) {
  return {
    district: body.district ?? null,
    streetName: body.streetName ?? null,
    zipCode: body.zipCode ?? null,
    address: body.address,
    operations: body.operations,
    productionLinesCount: body.productionLinesCount,
    criticalPointsCount: body.criticalPointsCount,
    permanentEmployeeCount: body.permanentEmployeeCount,
    shiftsCount: body.shiftsCount,
    productionArea: body.productionArea,
    annualShipmentCount: body.annualShipmentCount ?? null,
    totalAnnualRevenue: body.totalAnnualRevenue ?? null,
    exportingCountries: body.exportingCountries,
    hasExtraBranches: body.hasExtraBranches,
    extraBranches: body.hasExtraBranches ? (body.extraBranches ?? null) : null,
    branchesInKingdom: body.branchesInKingdom ?? null,
  };
}

/** The checks of CreateExternal / UpdateExternal that need the database (ValidateUpdateExternalFacilityRequest runs them alone). */
export async function validateExternal(db: Db, body: TCreateExternal, exceptId?: string): Promise<void> {
  assertForeign(body.countryCode);
  if (await isExternalRegistrationTaken(db, body.registrationNumber, body.countryCode, exceptId)) throw new AppError('RegistrationNumberDuplicate');
}

/** CreateExternal: adds a foreign factory; immediate, the applicant becomes its main user. */
export async function createExternal(deps: FacilitiesDeps, actor: Actor, body: TCreateExternal): Promise<FacilityRow> {
  await validateExternal(deps.db, body);
  try {
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(facilities)
        .values({
          publicId: newPublicId('exf'),
          type: 'ExternalFacility',
          nameAr: body.nameAr,
          nameEn: body.nameEn,
          registrationNumber: body.registrationNumber.trim(),
          countryCode: body.countryCode,
          city: body.city,
          details: externalDetails(body),
          createdBy: actor.userId,
        })
        .returning();
      await tx.insert(facilityMembers).values({ facilityId: row.id, userId: actor.userId, role: UserInFacilityRole.MainUser });
      await claimAttachments(tx, actor.userId, row.id, body.attachments.map((a) => a.id), ATTACHMENT_RULES.ExternalFacility);
      return row;
    });
  } catch (err) {
    if (violatedUniqueIndex(err)) throw new AppError('RegistrationNumberDuplicate');
    throw err;
  }
}

/** UpdateExternal: a user of the factory changes its data; new files replace those of the same category. */
export async function updateExternal(deps: FacilitiesDeps, actor: Actor, facility: FacilityRow, body: TUpdateExternal): Promise<FacilityRow> {
  await validateExternal(deps.db, body, facility.id);
  const existing = await attachmentsOf(deps.db, facility.id);
  try {
    return await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(facilities)
        .set({
          nameAr: body.nameAr,
          nameEn: body.nameEn,
          registrationNumber: body.registrationNumber.trim(),
          countryCode: body.countryCode,
          city: body.city,
          details: { ...facility.details, ...externalDetails(body) },
          updatedAt: new Date(),
        })
        .where(eq(facilities.id, facility.id))
        .returning();
      await claimAttachments(tx, actor.userId, row.id, body.attachments.map((a) => a.id), ATTACHMENT_RULES.ExternalFacility, existing);
      return row;
    });
  } catch (err) {
    if (violatedUniqueIndex(err)) throw new AppError('RegistrationNumberDuplicate');
    throw err;
  }
}
