import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { count, sql } from 'drizzle-orm';
import type { Db } from './client';
import { certificates, contentPages, faqItems, facilities, hsCodes, hsSections, newsItems } from './schema';
import { FAQ_SEEDS, NEWS_SEEDS, PAGE_SEEDS } from './data/public-content';
import { newsImagePng } from './data/news-images';

const HS_DIR = fileURLToPath(new URL('./data/harmonized-system/', import.meta.url));
const DAY_MS = 86_400_000;

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, a leading BOM) into rows of strings. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const s = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      row.push(field);
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

function readCsv(name: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(`${HS_DIR}${name}`, 'utf8'));
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

const ROMAN = ['I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII', 'XIII', 'XIV', 'XV', 'XVI', 'XVII', 'XVIII', 'XIX', 'XX', 'XXI'];
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Imports the HS 2022 nomenclature once (sections, chapters, headings, sub-headings); skips the TOTAL pseudo-section. */
export async function seedHsCodes(db: Db): Promise<void> {
  const [{ n }] = await db.select({ n: count() }).from(hsSections);
  if (n > 0) return;
  const arabic = new Map(readCsv('names-ar.csv').map((r) => [r.code, r.name_ar]));
  const sections = readCsv('sections.csv').map((r) => ({
    code: r.section,
    position: ROMAN.indexOf(r.section) + 1,
    nameEn: capitalize(r.name.trim()),
    nameAr: arabic.get(r.section) ?? r.name.trim(),
  }));
  await db.insert(hsSections).values(sections);
  const codes = readCsv('harmonized-system.csv')
    .filter((r) => ROMAN.includes(r.section) && /^\d+$/.test(r.hscode))
    .map((r) => ({
      code: r.hscode,
      level: r.hscode.length,
      section_code: r.section,
      parent_code: r.hscode.length === 2 ? null : r.parent,
      description_en: r.description,
      description_ar: r.hscode.length === 2 ? (arabic.get(r.hscode) ?? null) : null,
    }));
  // One statement with one JSON parameter: several times faster than batched multi-row inserts (the seed runs for
  // every test database).
  await db.execute(sql`
    insert into ${hsCodes} (code, level, section_code, parent_code, description_en, description_ar)
    select code, level, section_code, parent_code, description_en, description_ar
    from json_populate_recordset(null::${hsCodes}, ${JSON.stringify(codes)}::json)`);
}

async function seedContent(db: Db, now: Date): Promise<void> {
  // News and FAQ are seeded on the first run only: an administrator who deletes them all must not see them return.
  const [{ pages }] = await db.select({ pages: count() }).from(contentPages);
  const firstRun = pages === 0;
  for (const p of PAGE_SEEDS) await db.insert(contentPages).values(p).onConflictDoNothing({ target: contentPages.key });
  if (!firstRun) return;
  const [{ news }] = await db.select({ news: count() }).from(newsItems);
  if (news === 0) {
    for (const { daysAgo, motif, colors, ...n } of NEWS_SEEDS) {
      await db.insert(newsItems).values({
        ...n,
        image: newsImagePng(motif, ...colors),
        imageType: 'image/png',
        publishedAt: new Date(now.getTime() - daysAgo * DAY_MS),
      });
    }
  }
  const [{ faq }] = await db.select({ faq: count() }).from(faqItems);
  if (faq === 0) await db.insert(faqItems).values(FAQ_SEEDS.map((f, i) => ({ ...f, sortOrder: (i + 1) * 10 })));
}

/** Accredited conformity bodies of the demo (cb-global-halal is created by db/seed.ts). */
export const DEMO_PUBLIC_CBS = [
  { publicId: 'cb-istanbul-halal', nameAr: 'هيئة إسطنبول لاعتماد الحلال', nameEn: 'Istanbul Halal Accreditation Institute', registrationNumber: 'TR-CB-30417', countryCode: 'TR', city: 'Istanbul' },
  { publicId: 'cb-jakarta-halal', nameAr: 'مؤسسة جاكرتا لضمان الحلال', nameEn: 'Jakarta Halal Assurance Foundation', registrationNumber: 'ID-CB-11820', countryCode: 'ID', city: 'Jakarta' },
  { publicId: 'cb-sao-paulo-halal', nameAr: 'مركز ساو باولو لخدمات الحلال', nameEn: 'Sao Paulo Halal Services Center', registrationNumber: 'BR-CB-77310', countryCode: 'BR', city: 'Sao Paulo' },
  { publicId: 'cb-melbourne-halal', nameAr: 'سلطة ملبورن للحلال', nameEn: 'Melbourne Halal Authority', registrationNumber: 'AU-CB-40192', countryCode: 'AU', city: 'Melbourne' },
  { publicId: 'cb-paris-halal', nameAr: 'المكتب الأوروبي لمراقبة الحلال', nameEn: 'European Halal Control Office', registrationNumber: 'FR-CB-56001', countryCode: 'FR', city: 'Paris' },
  { publicId: 'cb-penang-halal', nameAr: 'مجلس بينانغ للتحقق من الحلال', nameEn: 'Penang Halal Verification Council', registrationNumber: 'MY-CB-22815', countryCode: 'MY', city: 'George Town' },
  { publicId: 'cb-karachi-halal', nameAr: 'هيئة كراتشي لتصديق الحلال', nameEn: 'Karachi Halal Certification Board', registrationNumber: 'PK-CB-90034', countryCode: 'PK', city: 'Karachi' },
] as const;

/** Facilities that hold the demo Halal certificates (the shared demo facilities stay free for request flows). */
export const DEMO_PUBLIC_FACILITIES = [
  { publicId: 'inf-najd-dairy', type: 'InternalFacility', nameAr: 'شركة نجد للألبان', nameEn: 'Najd Dairy Company', registrationNumber: '1010552301', countryCode: 'SA', city: 'Al-Kharj' },
  { publicId: 'inf-qassim-poultry', type: 'InternalFacility', nameAr: 'مؤسسة القصيم للدواجن', nameEn: 'Qassim Poultry Est.', registrationNumber: '1131028845', countryCode: 'SA', city: 'Buraydah' },
  { publicId: 'inf-ahsa-dates', type: 'InternalFacility', nameAr: 'مصنع الأحساء للتمور', nameEn: 'Al-Ahsa Dates Factory', registrationNumber: '2251009917', countryCode: 'SA', city: 'Al-Ahsa' },
  { publicId: 'exf-bursa-meat', type: 'ExternalFacility', nameAr: 'شركة بورصة للحوم المصنعة', nameEn: 'Bursa Processed Meat Co.', registrationNumber: 'TR-551902', countryCode: 'TR', city: 'Bursa' },
  { publicId: 'exf-parana-chicken', type: 'ExternalFacility', nameAr: 'مجمع بارانا للدواجن', nameEn: 'Parana Chicken Complex', registrationNumber: 'BR-338120', countryCode: 'BR', city: 'Curitiba' },
  { publicId: 'exf-surabaya-foods', type: 'ExternalFacility', nameAr: 'سورابايا للأغذية', nameEn: 'Surabaya Foods', registrationNumber: 'ID-774015', countryCode: 'ID', city: 'Surabaya' },
] as const;

/**
 * The verification codes of the demo certificates and marks (printed in their QR codes), one per status the
 * verification page shows. Tests and the README use them.
 */
export const DEMO_VERIFICATION_CODES = {
  active: 'VQ7K2M9XPA4T',
  expiringSoon: 'EX4N8R2WJ6LD',
  expired: 'ZP3H6T1QKC8M',
  suspended: 'SU9B4F7LNE2R',
  mark: 'MK5D2Y8HTR3W',
  markValidSoon: 'MV8C1J5QWZ6P',
  cbDesignation: 'CBD2G7K4M9XQ',
} as const;

function certificateSeeds(now: Date) {
  const at = (days: number) => new Date(now.getTime() + days * DAY_MS);
  const dairy = [
    { nameAr: 'حليب طازج كامل الدسم', nameEn: 'Fresh full-fat milk', brandAr: 'نجد', brandEn: 'Najd', hsCode: '040120' },
    { nameAr: 'لبن قليل الدسم', nameEn: 'Low-fat laban', brandAr: 'نجد', brandEn: 'Najd', hsCode: '040390' },
    { nameAr: 'جبنة شيدر مطبوخة', nameEn: 'Processed cheddar cheese', brandAr: 'نجد', brandEn: 'Najd', hsCode: '040630' },
  ];
  const cbCert = (publicId: string, n: number, issuedDaysAgo: number, expiresInDays: number, categories: string[], extra: Partial<typeof certificates.$inferInsert> = {}) => ({
    number: `HC-CB-${String(n).padStart(6, '0')}`,
    kind: 'cbDesignation',
    facilityPublicId: publicId,
    categories,
    verificationCode: `CBD${String(n).padStart(4, '0')}${publicId.slice(3, 7).toUpperCase()}`,
    issuedAt: at(-issuedDaysAgo),
    validFrom: at(-issuedDaysAgo),
    expiresAt: at(expiresInDays),
    scope: 'Halal certification of foreign facilities and shipments',
    ...extra,
  });
  return [
    // Designation certificates of the conformity bodies.
    { ...cbCert('cb-global-halal', 12, 400, 695, ['C0', 'CI', 'CII', 'CIV']), verificationCode: DEMO_VERIFICATION_CODES.cbDesignation },
    cbCert('cb-istanbul-halal', 31, 300, 795, ['C0', 'CI', 'CIII', 'CIV']),
    cbCert('cb-jakarta-halal', 44, 500, 595, ['CII', 'CIV', 'K']),
    cbCert('cb-sao-paulo-halal', 19, 1060, 35, ['AI', 'C0', 'CI']),
    cbCert('cb-melbourne-halal', 27, 1150, -30, ['AI', 'C0', 'CI', 'D'], { status: 2 }),
    cbCert('cb-paris-halal', 52, 200, 895, ['CI', 'CIV', 'FI', 'G']),
    cbCert('cb-penang-halal', 38, 700, 395, ['CII', 'CIV', 'I', 'K'], { status: 4, suspendedAt: at(-15) }),
    cbCert('cb-karachi-halal', 61, 150, 945, ['C0', 'CI', 'CIV']),
    // Halal certificates of facilities, one per status.
    {
      number: 'HC-INT-2025-000118',
      kind: 'internalHalal',
      facilityPublicId: 'inf-najd-dairy',
      scope: 'Production of dairy products',
      categories: ['CI'],
      products: dairy,
      verificationCode: DEMO_VERIFICATION_CODES.active,
      issuedAt: at(-200),
      validFrom: at(-200),
      expiresAt: at(895),
    },
    {
      number: 'HC-EXT-2024-004271',
      kind: 'externalHalal',
      facilityPublicId: 'exf-bursa-meat',
      cbPublicId: 'cb-istanbul-halal',
      scope: 'Slaughtering and processing of beef and poultry',
      categories: ['C0', 'CI'],
      products: [
        { nameAr: 'سجق بقري', nameEn: 'Beef sausages', brandAr: 'بورصة', brandEn: 'Bursa', hsCode: '160100' },
        { nameAr: 'بسطرمة بقري', nameEn: 'Beef pastirma', brandAr: 'بورصة', brandEn: 'Bursa', hsCode: '021020' },
      ],
      verificationCode: DEMO_VERIFICATION_CODES.expiringSoon,
      issuedAt: at(-335),
      validFrom: at(-335),
      expiresAt: at(30),
      status: 3,
    },
    {
      number: 'HC-INT-2022-000057',
      legacyNumber: 'HLL-1443-0057',
      kind: 'internalHalal',
      facilityPublicId: 'inf-qassim-poultry',
      scope: 'Slaughtering and packing of poultry',
      categories: ['C0'],
      products: [{ nameAr: 'دجاج كامل مبرد', nameEn: 'Whole chilled chicken', brandAr: 'القصيم', brandEn: 'Qassim', hsCode: '020711' }],
      verificationCode: DEMO_VERIFICATION_CODES.expired,
      issuedAt: at(-1110),
      validFrom: at(-1110),
      expiresAt: at(-15),
      status: 2,
    },
    {
      number: 'HC-EXT-2025-001930',
      kind: 'externalHalal',
      facilityPublicId: 'exf-parana-chicken',
      cbPublicId: 'cb-sao-paulo-halal',
      scope: 'Slaughtering of poultry',
      categories: ['C0'],
      products: [{ nameAr: 'صدور دجاج مجمدة', nameEn: 'Frozen chicken breasts', brandAr: 'بارانا', brandEn: 'Parana', hsCode: '020714' }],
      verificationCode: DEMO_VERIFICATION_CODES.suspended,
      issuedAt: at(-120),
      validFrom: at(-120),
      expiresAt: at(245),
      status: 4,
      suspendedAt: at(-10),
    },
    {
      number: 'HC-INT-2025-000240',
      kind: 'internalHalal',
      facilityPublicId: 'inf-ahsa-dates',
      scope: 'Packing of dates and date paste',
      categories: ['CII'],
      products: [{ nameAr: 'عجينة تمر خلاص', nameEn: 'Khalas date paste', brandAr: 'الأحساء', brandEn: 'Al-Ahsa', hsCode: '200799' }],
      verificationCode: 'AH6T3R9KD2QV',
      issuedAt: at(-60),
      validFrom: at(-60),
      expiresAt: at(1035),
    },
    {
      number: 'HC-EXT-2025-002210',
      kind: 'externalHalal',
      facilityPublicId: 'exf-surabaya-foods',
      cbPublicId: 'cb-jakarta-halal',
      scope: 'Production of instant noodles and sauces',
      categories: ['CIV'],
      products: [{ nameAr: 'نودلز سريعة التحضير', nameEn: 'Instant noodles', brandAr: 'سورابايا', brandEn: 'Surabaya', hsCode: '190230' }],
      verificationCode: 'SB2W7N4XK9LT',
      issuedAt: at(-90),
      validFrom: at(-90),
      expiresAt: at(640),
    },
    // Halal marks: one in force, one issued ahead of its start date.
    {
      number: 'HM-2025-010233',
      kind: 'halalMark',
      facilityPublicId: 'inf-najd-dairy',
      scope: 'Saudi',
      categories: ['CI'],
      products: [dairy[0]],
      verificationCode: DEMO_VERIFICATION_CODES.mark,
      issuedAt: at(-40),
      validFrom: at(-40),
      expiresAt: at(325),
    },
    {
      number: 'HM-2025-010871',
      kind: 'halalMark',
      facilityPublicId: 'inf-ahsa-dates',
      scope: 'Global',
      categories: ['CII'],
      products: [{ nameAr: 'عجينة تمر خلاص', nameEn: 'Khalas date paste', brandAr: 'الأحساء', brandEn: 'Al-Ahsa', hsCode: '200799' }],
      verificationCode: DEMO_VERIFICATION_CODES.markValidSoon,
      issuedAt: at(-2),
      validFrom: at(12),
      expiresAt: at(377),
      status: 4, // valid soon, as the engine writes a mark before its start date (machines/halal-mark.ts)
    },
  ] satisfies (typeof certificates.$inferInsert)[];
}

/** The demo's accredited CBs, the facilities holding demo certificates, and those certificates and marks. */
export async function seedDemoCertificates(db: Db, now: Date = new Date()): Promise<void> {
  for (const f of DEMO_PUBLIC_CBS) {
    await db.insert(facilities).values({ ...f, type: 'ConformityBody' }).onConflictDoNothing({ target: facilities.publicId });
  }
  for (const f of DEMO_PUBLIC_FACILITIES) {
    await db.insert(facilities).values({ ...f }).onConflictDoNothing({ target: facilities.publicId });
  }
  // Numbers and verification codes are unique: a second run inserts nothing.
  for (const c of certificateSeeds(now)) await db.insert(certificates).values(c).onConflictDoNothing();
}

/** Reference data every installation needs, production included: pages, news, FAQ and the HS nomenclature. */
export async function seedPublicReference(db: Db, now: Date = new Date()): Promise<void> {
  await seedContent(db, now);
  await seedHsCodes(db);
}

/** Idempotent seed of the public site: pages, news, FAQ, the HS nomenclature, accredited CBs and demo certificates. */
export async function seedPublic(db: Db, now: Date = new Date()): Promise<void> {
  await seedPublicReference(db, now);
  await seedDemoCertificates(db, now);
}
