import type { TInternalRequest } from './machines/forms';
const f: TInternalRequest['factory'] = { nameAr: 'a', nameEn: 'b', commercialRegistrationNumber: '1', totalAnnualRevenue: '1', fullTimeEmployees: 1 };
const b: TInternalRequest['branches'] = { hasBranches: true, items: [{ city: 'x', address: 'y' }] };
console.log(f, b);
