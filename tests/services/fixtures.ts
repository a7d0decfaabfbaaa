import { SERVICES, validateSubmission, type RequestKind } from '../../machines/services';
import { goodProduct, goodRequest } from '../forms/fixtures';

/**
 * Complete, schema-valid request data for every request kind, built to the service contract's section schemas (a test
 * checks each passes `validateSubmission`, so a fixture can never hold a shape the product cannot store). Attachment
 * ids are placeholders: tests that submit over HTTP upload real files and put their ids in.
 */

/** A calendar day counted from today (UTC), as a date field holds it. */
const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

const ATTACHMENT = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function internalCertificateData(): Record<string, unknown> {
  const { agreement: _agreement, ...data } = goodRequest();
  return data;
}

export const renewalSection = () => ({ reason: 'The certificate expires soon and production continues', notes: 'No change to the product range' });

export function externalCertificateData(factoryPublicId = 'exf-anatolia-meat'): Record<string, unknown> {
  return {
    factory: { facilityPublicId: factoryPublicId, productionLines: 4, criticalPoints: 3, permanentHalalEmployees: 60, shifts: 2, productionArea: 12000 },
    paymentWay: { way: 'full', validityYears: 2 },
    operations: [
      { operation: 'slaughtering', planAttachmentId: ATTACHMENT(11) },
      { operation: 'packaging', planAttachmentId: ATTACHMENT(12) },
    ],
    products: [
      goodProduct({ nameAr: 'لحم بقري مجمد', nameEn: 'Frozen Beef', brandAr: 'اناضول', brandEn: 'Anatolia', saudiHsCode: '020230000000', globalHsCode: '020230', productNumber: 'TRX00000000000001', category: 'C0', unit: 0, netWeight: 20, grossWeight: 21 }),
    ],
    attachments: [{ id: ATTACHMENT(13), category: 'finalAcknowledgment' }],
  };
}

export function shipmentData(): Record<string, unknown> {
  return {
    shipmentType: { goods: 'meat' },
    factory: { facilityPublicId: 'exf-anatolia-meat' },
    // A registration the commercial-registry simulator knows (Al Nakheel, active): its unified number is 70 + the CR's
    // last 8 digits; the name, status and activity are the registry's, as the check button fills them in.
    importer: { name: 'Al Nakheel Dates Factory', crNumber: '1010700001', unifiedNumber: '701 070 0001', status: 'Active', activity: 'Manufacture of dates and date products' },
    exporter: { name: 'Anatolia Meat Exporters' },
    shipping: { countryCode: 'TR', method: 'sea', port: 'Mersin', portOfEntry: 'Jeddah Islamic Port' },
    other: {
      arrivalCountryCode: 'SA',
      arrivalPort: 'Jeddah Islamic Port',
      arrivalMethod: 'sea',
      containerNumbers: ['MSCU1234567'],
      invoices: [],
      exportingCbPublicId: 'cb-global-halal',
    },
    products: [
      {
        saudiHsCode: '020230000000',
        globalHsCode: '020230',
        quantity: 1000,
        netWeight: 20_000,
        grossWeight: 21_000,
        actualGrossWeight: 20_500,
        unit: 0,
        // Made two months ago, in date for ten more months: goods made in the future or already expired are refused.
        productionDate: daysFromToday(-60),
        expiryDate: daysFromToday(300),
      },
    ],
    slaughters: [
      {
        slaughterFacility: 'Anatolia Slaughterhouse',
        slaughterDate: '2026-09-20',
        cuttingType: 'Quarters',
        category: 'C',
        netWeight: 8,
        actualWeight: 8.2,
        unit: 3,
        saudiHsCode: '020110000000',
        globalHsCode: '020110',
      },
    ],
  };
}

export function cbDesignationData(): Record<string, unknown> {
  return {
    facilityInfo: { nameAr: 'جهة المطابقة العالمية للحلال', nameEn: 'Global Halal Conformity Body', countryCode: 'MY', city: 'Kuala Lumpur', address: 'Jalan Ampang 12' },
    certificatesAndSpecifications: {
      certificates: [{ name: 'ISO/IEC 17065 accreditation', attachmentId: ATTACHMENT(21) }],
      specifications: ['GSO 2055-1', 'GSO 2055-2'],
    },
    categories: [{ category: 'C', subCategories: ['C0', 'CI'] }, { category: 'D', subCategories: [] }],
    operations: { items: ['slaughtering', 'processing'], localActivities: 'Audits of slaughterhouses' },
  };
}

export function markData(): Record<string, unknown> {
  return {
    products: [
      { nameAr: 'حليب طازج كامل الدسم', nameEn: 'Fresh Full Fat Milk', brandAr: 'المراعي', brandEn: 'Almarai', productNumber: 'SFDA2024000000001', scope: 'Saudi' },
      { nameAr: 'خبز أبيض شرائح', nameEn: 'Sliced White Bread', brandAr: 'لوزين', brandEn: 'Lusine', productNumber: 'SFDA2024000000002', scope: 'Saudi' },
    ],
    package: { tags: 16 },
  };
}

export function addProductsData(): Record<string, unknown> {
  return {
    products: [
      goodProduct({ nameAr: 'لبن زبادي', nameEn: 'Plain Yoghurt', productNumber: 'SFDA2024000000009', saudiHsCode: '040310000000', globalHsCode: '040310' }),
    ],
    attachments: [],
  };
}

/** Complete data of each request kind. */
export const VALID_DATA: Record<RequestKind, () => Record<string, unknown>> = {
  internalCertificate: internalCertificateData,
  internalRenewal: () => ({ ...internalCertificateData(), renewal: renewalSection() }),
  internalAddProducts: addProductsData,
  internalHalalMark: markData,
  externalCertificate: () => externalCertificateData(),
  externalRenewal: () => ({ ...externalCertificateData(), renewal: renewalSection() }),
  externalAddProducts: () => ({ products: externalCertificateData().products, attachments: [] }),
  externalHalalMark: markData,
  shipment: shipmentData,
  cbDesignation: cbDesignationData,
  cbRenewal: () => ({ ...cbDesignationData(), renewal: renewalSection() }),
  cbAddCategories: () => ({ categories: [{ category: 'E', subCategories: [] }] }),
};

/** The fixture after the contract parsed it (what the product stores). */
export function parsedData(kind: RequestKind): Record<string, unknown> {
  const r = validateSubmission(SERVICES[kind], VALID_DATA[kind]());
  if (!r.ok) throw new Error(`${kind} fixture is not valid: ${JSON.stringify(r.issues)}`);
  return r.data;
}
