import type { FastifyPluginAsync } from 'fastify';
import type { WathqFullInfo } from '../adapters/cr-registry';
import { DEMO_IDENTITIES, REGISTRY_ONLY_OWNER } from '../../db/demo-identities';

type Status = 'active' | 'suspended' | 'deleted' | 'expired';

interface SeededCr {
  crNumber: string;
  nameAr: string;
  nameEn: string;
  status: Status;
  city: string;
  district: string;
  activity: { id: string; name: string; nameEn: string };
  /** National ids of the parties; empty = a registration with no party (e.g. a government-owned entity). */
  owners: { name: string; nationalId: string }[];
}

const applicant = { name: 'عبدالرحمن بن ناصر القحطاني', nationalId: DEMO_IDENTITIES['new.applicant'].nationalId };
const almaraiOwner = { name: 'خالد بن محمد الحربي', nationalId: DEMO_IDENTITIES['internal.main'].nationalId };
const dates = { id: '107911', name: 'صناعة التمور ومنتجاتها', nameEn: 'Manufacture of dates and date products' };
const bakery = { id: '107101', name: 'صناعة المخبوزات', nameEn: 'Manufacture of bakery products' };
const dairy = { id: '105001', name: 'صناعة منتجات الألبان', nameEn: 'Manufacture of dairy products' };
const meat = { id: '101001', name: 'تجهيز وحفظ اللحوم', nameEn: 'Processing and preserving of meat' };

/**
 * The registrations the simulator knows (README lists them). One of every status, one with no party, one whose
 * owner has no portal account, and the demo facility's own registration. Numbers 1010900000-1010999999 are also
 * answered: active factories owned by the demo applicant, so a person can add as many as they like.
 */
export const SEEDED_CRS: SeededCr[] = [
  { crNumber: '1010700001', nameAr: 'مصنع النخيل للتمور', nameEn: 'Al Nakheel Dates Factory', status: 'active', city: 'الرياض', district: 'السلي', activity: dates, owners: [applicant] },
  { crNumber: '1010700002', nameAr: 'مخابز الواحة', nameEn: 'Al Waha Bakeries', status: 'active', city: 'الرياض', district: 'الملز', activity: bakery, owners: [applicant] },
  { crNumber: '1010700003', nameAr: 'مصنع الربيع للألبان', nameEn: 'Al Rabie Dairy Factory', status: 'suspended', city: 'الرياض', district: 'الصناعية الثانية', activity: dairy, owners: [applicant] },
  { crNumber: '1010700004', nameAr: 'مصنع الخليج للحوم', nameEn: 'Gulf Meat Factory', status: 'deleted', city: 'الرياض', district: 'السلي', activity: meat, owners: [applicant] },
  { crNumber: '1010700005', nameAr: 'مصنع الفجر للمخبوزات', nameEn: 'Al Fajr Bakery Factory', status: 'expired', city: 'الخرج', district: 'الصناعية', activity: bakery, owners: [applicant] },
  { crNumber: '1010700006', nameAr: 'مصنع الأغذية الوطني', nameEn: 'National Foods Factory', status: 'active', city: 'الرياض', district: 'الصناعية الأولى', activity: dairy, owners: [] },
  { crNumber: '4030700007', nameAr: 'مصنع البحر الأحمر للتمور', nameEn: 'Red Sea Dates Factory', status: 'active', city: 'جدة', district: 'الخمرة', activity: dates, owners: [REGISTRY_ONLY_OWNER] },
  { crNumber: '2050700008', nameAr: 'مصنع الشرقية للحوم', nameEn: 'Eastern Meat Factory', status: 'active', city: 'الدمام', district: 'الصناعية الثانية', activity: meat, owners: [applicant] },
  // The demo facility's own registration (inf-almarai-foods) gives the city as db/seed.ts stores it, in English as
  // every seeded facility's: the registry check on opening its profile stores this city, and 'الرياض' showed on the
  // English pages.
  { crNumber: '1010000001', nameAr: 'مصنع المراعي للأغذية', nameEn: 'Al Marai Foods Factory', status: 'active', city: 'Riyadh', district: 'السلي', activity: dairy, owners: [almaraiOwner] },
];

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const daysFromNow = (days: number) => isoDay(new Date(Date.now() + days * 86_400_000));
const STATUS_NAMES: Record<Status, [string, string]> = {
  active: ['نشط', 'Active'],
  suspended: ['موقوف', 'Suspended'],
  deleted: ['مشطوب', 'Deleted'],
  expired: ['منتهي', 'Expired'],
};

function generated(crNumber: string): SeededCr | undefined {
  if (!/^10109\d{5}$/.test(crNumber)) return undefined;
  const n = crNumber.slice(5);
  return {
    crNumber,
    nameAr: `مصنع التجربة رقم ${n}`,
    nameEn: `Trial Factory No. ${n}`,
    status: 'active',
    city: 'الرياض',
    district: 'الصناعية الثالثة',
    activity: dates,
    owners: [applicant],
  };
}

/** The Wathq-shaped answer for a registration; dates are relative to today so the data never goes stale. */
export function fullInfoOf(cr: SeededCr): WathqFullInfo {
  const [nameAr, nameEn] = STATUS_NAMES[cr.status];
  const expiry = cr.status === 'expired' ? daysFromNow(-45) : daysFromNow(400);
  return {
    crName: cr.nameAr,
    crNameEn: cr.nameEn,
    crNumber: cr.crNumber,
    crEntityNumber: cr.crNumber,
    // The unified number replaces the CR number's region digits with 70 (how the 700 numbers were assigned).
    unifiedNumber: unifiedNumberOf(cr.crNumber),
    tradeName: cr.nameAr,
    issueDate: daysFromNow(-3 * 365),
    expiryDate: expiry,
    status: { id: cr.status, name: nameAr, nameEn },
    activities: { description: cr.activity.name, isic: [cr.activity] },
    address: {
      national: {
        city: cr.city,
        district: cr.district,
        streetName: 'طريق الملك فهد',
        zipCode: '12211',
        buildingNumber: '4312',
        additionalNumber: '7788',
      },
    },
    parties: cr.owners.map((o) => ({
      name: o.name,
      identity: { id: o.nationalId, type: 'National_ID' },
      relation: { id: 'owner', name: 'مالك' },
    })),
  };
}

/** The unified (700) number the simulator gives a registration: its CR number with the region digits replaced by 70. */
export const unifiedNumberOf = (crNumber: string) => `70${crNumber.slice(2)}`;

/**
 * A registration by its CR number or by its unified (700) number: the registry's full-info call answers both, as the
 * Wathq service does since the national numbers were introduced (a 70... number is read as a unified number).
 */
function byNumber(id: string): SeededCr | undefined {
  if (/^70\d{8}$/.test(id)) {
    const seeded = SEEDED_CRS.find((c) => unifiedNumberOf(c.crNumber) === id);
    return seeded ?? generated(`10${id.slice(2)}`);
  }
  return SEEDED_CRS.find((c) => c.crNumber === id) ?? generated(id);
}

/** Commercial registry simulator: `GET /commercialregistration/fullinfo/{crEntityNumber}` with an `apiKey` header. */
export const crRegistrySimulator = (apiKey: string): FastifyPluginAsync =>
  async (app) => {
    app.get<{ Params: { crNumber: string } }>('/commercialregistration/fullinfo/:crNumber', async (request, reply) => {
      if (request.headers.apikey !== apiKey) return reply.status(401).send({ code: 'unauthorized' });
      const cr = byNumber(request.params.crNumber);
      if (!cr) return reply.status(404).send({ code: 'not_found', message: 'CR not found' });
      return fullInfoOf(cr);
    });
  };
