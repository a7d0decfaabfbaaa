import { eq } from 'drizzle-orm';
import type { Db } from './client';
import { facilities, facilityMembers, users } from './schema';
import { hashPassword } from '../lib/password';
import { seedDemoCertificates, seedPublicReference } from './seed-public';
import { seedFacilities } from './seed-facilities';
import { DELEGABLE_PERMISSIONS } from '../machines/forms/facilities/permissions';
import { PUBLISHED_PASSWORD } from '../machines/forms/account';

/** The demo password of every seeded account (README lists the accounts). Demo only. */
export const DEMO_PASSWORD = PUBLISHED_PASSWORD;

export const DEMO_FACILITIES = [
  { publicId: 'inf-almarai-foods', type: 'InternalFacility', nameAr: 'مصنع المراعي للأغذية', nameEn: 'Al Marai Foods Factory', registrationNumber: '1010000001', countryCode: 'SA', city: 'Riyadh' },
  { publicId: 'exf-anatolia-meat', type: 'ExternalFacility', nameAr: 'مصنع الأناضول للحوم', nameEn: 'Anatolia Meat Factory', registrationNumber: 'TR-884213', countryCode: 'TR', city: 'Ankara' },
  { publicId: 'cb-global-halal', type: 'ConformityBody', nameAr: 'الهيئة العالمية لتقييم المطابقة الحلال', nameEn: 'Global Halal Conformity Body', registrationNumber: 'MY-55120', countryCode: 'MY', city: 'Kuala Lumpur' },
] as const;

/** One account per role of the spec; `memberOf` makes facility users main (0) or sub (1) users. */
export const DEMO_USERS = [
  { userName: 'internal.main', name: 'Khalid Al-Harbi', roles: ['applicant'], memberOf: [['inf-almarai-foods', 0]] },
  { userName: 'internal.sub', name: 'Sara Al-Qahtani', roles: ['applicant'], memberOf: [['inf-almarai-foods', 1]] },
  { userName: 'external', name: 'Mehmet Yilmaz', roles: ['applicant'], memberOf: [['exf-anatolia-meat', 0]] },
  { userName: 'cb.main', name: 'Aisyah Rahman', roles: ['applicant'], memberOf: [['cb-global-halal', 0]] },
  { userName: 'cb.sub', name: 'Farid Ismail', roles: ['applicant'], memberOf: [['cb-global-halal', 1]] },
  { userName: 'registration', name: 'Noura Al-Otaibi', roles: ['registrationEmployee'], memberOf: [] },
  { userName: 'audit', name: 'Fahad Al-Dosari', roles: ['auditEmployee'], memberOf: [] },
  { userName: 'teamleader', name: 'Abdullah Al-Shehri', roles: ['teamLeader'], memberOf: [] },
  { userName: 'auditor', name: 'Mona Al-Zahrani', roles: ['technicalAuditor'], memberOf: [] },
  { userName: 'committee', name: 'Dr. Ibrahim Al-Ghamdi', roles: ['committeeMember'], memberOf: [] },
  { userName: 'admin', name: 'Portal Administrator', roles: ['admin'], memberOf: [] },
  // Read-only auditor (issue 15): every request, its history and the audit log; every write refused.
  { userName: 'readonly.auditor', name: 'Huda Al-Mutairi', roles: ['readOnlyAuditor'], memberOf: [] },
] as const;

/** Asked to seed demo data (published passwords) into a production installation. */
export class DemoSeedRefused extends Error {
  constructor() {
    super('Demo data (accounts with the published password Demo@12345) is never seeded with NODE_ENV=production');
  }
}

/**
 * The base seed, run at every start in every environment: reference data only (public pages, news, FAQ, the HS
 * nomenclature). Roles and permissions are code (machines/roles.ts), so no account is created here. Idempotent.
 */
export async function seedBase(db: Db): Promise<void> {
  await seedPublicReference(db);
}

/**
 * The demo seed (`npm run seed:demo`; `npm start` and `npm run dev` run it outside production): the demo facilities,
 * one account per role with the published password DEMO_PASSWORD, their identities, and the demo certificates.
 * Refused when NODE_ENV is production. Idempotent: inserts what is missing, never overwrites what a person changed.
 */
export async function seedDemo(db: Db, nodeEnv: string | undefined = process.env.NODE_ENV): Promise<void> {
  if (nodeEnv === 'production' || process.env.NODE_ENV === 'production') throw new DemoSeedRefused();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (const f of DEMO_FACILITIES) {
    await db.insert(facilities).values({ ...f }).onConflictDoNothing({ target: facilities.publicId });
  }
  for (const u of DEMO_USERS) {
    await db
      .insert(users)
      .values({ userName: u.userName, email: `${u.userName}@demo.halal.local`, name: u.name, roles: [...u.roles], passwordHash })
      .onConflictDoNothing({ target: users.userName });
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.userName, u.userName));
    for (const [publicId, role] of u.memberOf) {
      const [f] = await db.select({ id: facilities.id, type: facilities.type }).from(facilities).where(eq(facilities.publicId, publicId));
      // A demo sub user holds every permission a delegation could give them (the main user holds all anyway).
      const permissions = role === 1 ? [...DELEGABLE_PERMISSIONS[f.type as keyof typeof DELEGABLE_PERMISSIONS]] : [];
      await db.insert(facilityMembers).values({ facilityId: f.id, userId: user.id, role, permissions }).onConflictDoNothing();
    }
  }
  await seedDemoCertificates(db);
  await seedFacilities(db);
}

/** Base and demo seed together: development and the tests. */
export async function seed(db: Db): Promise<void> {
  await seedBase(db);
  await seedDemo(db);
}
