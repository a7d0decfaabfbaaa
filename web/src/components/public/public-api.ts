/**
 * Shapes of the public site's API answers (server/modules/public/schemas.ts), as the web reads them. The web does
 * not import server code, so they are restated here.
 */
export type PublicStatus = 'active' | 'expiringSoon' | 'expired' | 'suspended' | 'validSoon' | 'cancelled';

export interface DualDate {
  iso: string;
  gregorian: string;
  hijri: { year: number; month: number; day: number } | null;
}

export interface ContentPageData {
  key: string;
  titleAr: string;
  titleEn: string;
  summaryAr: string;
  summaryEn: string;
  bodyAr: string;
  bodyEn: string;
  version: number;
  updatedAt: string;
}

export interface NewsItem {
  id: string;
  titleAr: string;
  titleEn: string;
  summaryAr: string;
  summaryEn: string;
  bodyAr: string;
  bodyEn: string;
  imageAltAr: string;
  imageAltEn: string;
  imageUrl: string | null;
  publishedAt: string;
  version: number;
}

export interface FaqItem {
  id: string;
  questionAr: string;
  questionEn: string;
  answerAr: string;
  answerEn: string;
  keywordsAr: string;
  keywordsEn: string;
  sortOrder: number;
  version: number;
}

export interface Paged<T> {
  totalCount: number;
  items: T[];
}

export interface HsItem {
  code: string;
  level: number;
  sectionCode: string;
  parentCode: string | null;
  descriptionEn: string;
  descriptionAr: string | null;
  halal: boolean;
}

export interface HsTreeNode {
  code: string;
  level: number;
  nameEn: string;
  nameAr: string | null;
  halal: boolean;
  containsHalal: boolean;
  childCount: number;
}

export interface Party {
  publicId: string;
  nameAr: string;
  nameEn: string;
  countryCode: string;
  countryNameAr: string;
  countryNameEn: string;
  city: string | null;
}

export interface AccreditedCb extends Party {
  certificate: {
    number: string;
    status: PublicStatus;
    categories: string[];
    issuedAt: DualDate;
    expiresAt: DualDate;
    verificationCode: string;
  };
}

export interface VerifiedCertificate {
  number: string;
  legacyNumber: string | null;
  kind: string;
  status: PublicStatus;
  daysRemaining: number;
  scope: string | null;
  categories: string[];
  products: { nameAr: string; nameEn: string; brandAr?: string; brandEn?: string; hsCode?: string }[];
  holder: Party;
  issuer: Party | null;
  issuedAt: DualDate;
  validFrom: DualDate;
  expiresAt: DualDate;
}

export interface Customer extends Omit<Party, 'publicId'> {
  publicId: string;
  type: string;
}
