import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from './client';
import { facilities, users } from './schema';
import { hashPassword } from '../lib/password';
import { DEMO_IDENTITIES } from './demo-identities';
import { makeSaudiIban } from '../machines/forms/facilities/formats';
import { DEMO_PASSWORD, DemoSeedRefused } from './seed';

const isoDay = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Facilities data of the demo (README lists it): national ids and mobiles of the demo facility users (the commercial
 * registry simulator knows them as owners), the registry, CB and factory data of the demo facilities, and
 * `new.applicant`, a signed-up user without any facility yet who owns the simulator's "new factory" registrations.
 * Idempotent: fills only what is missing, never overwrites what a person changed.
 */
export async function seedFacilities(db: Db): Promise<void> {
  if (process.env.NODE_ENV === 'production') throw new DemoSeedRefused();
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db
    .insert(users)
    .values({
      userName: 'new.applicant',
      email: 'new.applicant@demo.halal.local',
      name: 'Abdulrahman Al-Qahtani',
      roles: ['applicant'],
      passwordHash,
    })
    .onConflictDoNothing({ target: users.userName });
  for (const [userName, identity] of Object.entries(DEMO_IDENTITIES)) {
    await db
      .update(users)
      .set({ nationalId: identity.nationalId, phone: identity.phone })
      .where(and(eq(users.userName, userName), isNull(users.nationalId)));
  }

  await db
    .update(facilities)
    .set({
      unifiedNumber: '7010000001',
      crStatus: 'Active',
      crVerifiedAt: new Date(),
      details: {
        commercialName: 'مصنع المراعي للأغذية',
        activityName: 'صناعة منتجات الألبان',
        activityNameEn: 'Manufacture of dairy products',
        crIssueDate: isoDay(-3 * 365),
        crExpiryDate: isoDay(400),
        address: { district: 'السلي', streetName: 'طريق الملك فهد', zipCode: '12211', buildingNumber: '4312', additionalNumber: '7788' },
        applicantRelation: 'owner',
        fullTimeEmployeeCount: 240,
        annualShipmentCount: 120,
        annualHalalCertificateCount: 2,
        exportingCountries: ['AE', 'KW', 'BH'],
        totalAnnualRevenue: '85000000.00',
      },
    })
    .where(and(eq(facilities.publicId, 'inf-almarai-foods'), isNull(facilities.crStatus)));

  await db
    .update(facilities)
    .set({
      details: {
        address: 'Organize Sanayi Bolgesi, 12. Cadde No: 4',
        district: 'Sincan',
        streetName: '12. Cadde',
        zipCode: '06935',
        operations: ['slaughtering', 'cutting', 'packaging'],
        productionLinesCount: 3,
        criticalPointsCount: 6,
        permanentEmployeeCount: 85,
        shiftsCount: 2,
        productionArea: '5400',
        exportingCountries: ['SA', 'AE', 'QA'],
        hasExtraBranches: false,
        extraBranches: null,
        branchesInKingdom: null,
      },
    })
    .where(and(eq(facilities.publicId, 'exf-anatolia-meat'), eq(facilities.details, {})));

  await db
    .update(facilities)
    .set({
      acceptanceNumber: '1-2024H-CB',
      notificationNumber: 'H-CB2024-1',
      certificateIssueDate: isoDay(-365),
      certificateExpiryDate: isoDay(2 * 365),
      iban: makeSaudiIban('80', '000000608010167519'),
      ibanConfirmed: true,
      ibanConfirmedAt: new Date(),
      details: { address: 'Jalan Ampang 50450, Kuala Lumpur', categories: ['C0', 'CI', 'CII', 'CIV'] },
    })
    .where(and(eq(facilities.publicId, 'cb-global-halal'), isNull(facilities.acceptanceNumber)));
}
