import type { TProduct } from '../../machines/forms';

/** A product that passes every rule; tests change one field at a time. */
export const goodProduct = (over: Partial<Record<keyof TProduct, unknown>> = {}): Record<string, unknown> => ({
  nameAr: 'حليب طازج كامل الدسم',
  nameEn: 'Fresh Full Fat Milk',
  brandAr: 'المراعي',
  brandEn: 'Almarai',
  saudiHsCode: '040120000000',
  globalHsCode: '040120',
  productNumber: 'SFDA2024000000001',
  technicalSpecifications: ['Pasteurised, 3% fat'],
  category: 'CI',
  netWeight: 1000,
  grossWeight: 1050,
  unit: 5,
  ...over,
});

/** A complete internal request form that passes full validation. */
export const goodRequest = (): Record<string, unknown> => ({
  factory: {
    nameAr: 'مصنع المراعي للأغذية',
    nameEn: 'Al Marai Foods Factory',
    commercialRegistrationNumber: '1010000001',
    unifiedNumber: '7001234567',
    activityName: 'Dairy products manufacturing',
    totalAnnualRevenue: '15000000.50',
    fullTimeEmployees: 420,
  },
  address: {
    countryCode: 'SA',
    city: 'الرياض',
    district: 'Al Olaya',
    street: 'King Fahd Rd., 12/3',
    zipCode: '12211',
    buildingNumber: '2456',
    additionalNumber: '8123',
  },
  branches: { hasBranches: true, items: [{ city: 'Jeddah', district: 'Al Safa', address: 'Industrial City, Phase 4' }] },
  trademarks: [
    { nameAr: 'المراعي', nameEn: 'Almarai' },
    { nameAr: 'لوزين', nameEn: 'Lusine' },
  ],
  products: [
    goodProduct(),
    goodProduct({
      nameAr: 'خبز أبيض شرائح',
      nameEn: 'Sliced White Bread',
      brandAr: 'لوزين',
      brandEn: 'Lusine',
      saudiHsCode: '190590900000',
      globalHsCode: '190590',
      productNumber: 'SFDA2024000000002',
      category: 'CIV',
      netWeight: 600,
      grossWeight: 620,
      unit: 1,
    }),
  ],
  hsCodes: ['040120', '190590'],
  categories: [{ category: 'C', subCategories: ['CI', 'CIV'] }],
  operations: ['processing', 'packaging'],
  production: { productionLines: 12, haccpCriticalPoints: 6, permanentHalalEmployees: 180, shifts: 3, productionArea: 45000.5 },
  validity: { years: 3 },
  attachments: [
    { id: '00000000-0000-4000-8000-000000000001', category: 'commercialRegistrationCopy' },
    { id: '00000000-0000-4000-8000-000000000002', category: 'industrialLicense' },
  ],
  agreement: { accepted: true },
});
