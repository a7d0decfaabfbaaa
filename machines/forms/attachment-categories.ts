/**
 * Attachment categories of spec 02 section 3 and the limits of each (spec 02 section 5: "file count limited; image
 * dimensions and size (KB per category) limited"). The spec names the categories but not the numbers; the numbers
 * below are our choice, picked for what each category holds:
 * - single official documents (commercial registration, licences, manuals) allow one file, since a newer one
 *   replaces the old;
 * - photos and logos are images only, small and bounded in pixels so that they can be printed on certificates and
 *   marks without resampling surprises; scanned documents may be images of up to 8000 px per side;
 * - nothing exceeds the global 50 MB limit (spec 02 section 9), which the server can lower by configuration.
 * Counts apply per owner: per request when the file belongs to a request, per facility otherwise.
 * Labels live in locales/<lang>/forms.json under `attachmentCategory.<code>`.
 */

/** The accepted file extensions (spec 02 section 9) and the content type each must have. */
export const FILE_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
} as const;
export type FileExtension = keyof typeof FILE_TYPES;
export const FILE_EXTENSIONS = Object.keys(FILE_TYPES) as FileExtension[];

/** The global per-file limit of spec 02 section 9, in megabytes. */
export const MAX_FILE_MB = 50;

export interface AttachmentCategoryRule {
  /** Extensions accepted for this category. */
  types: readonly FileExtension[];
  /** How many files of the category one owner (request, or facility when no request) may hold. */
  maxFiles: number;
  /** Largest file in kilobytes (1 KB = 1024 bytes). */
  maxKb: number;
  /** Largest image in pixels (PNG/JPEG only; PDFs have no pixel size). */
  maxWidth: number;
  maxHeight: number;
  /** Halal-center staff may upload it to a facility's request (audit reports, test results). */
  staffMayUpload: boolean;
}

const DOCS = ['pdf', 'png', 'jpg', 'jpeg'] as const;
const IMAGES = ['png', 'jpg', 'jpeg'] as const;
const MB = 1024;
const SCAN = { maxWidth: 8000, maxHeight: 8000 };

function doc(maxFiles: number, maxMb: number, staffMayUpload = false): AttachmentCategoryRule {
  return { types: DOCS, maxFiles, maxKb: maxMb * MB, ...SCAN, staffMayUpload };
}
function image(maxFiles: number, maxKb: number, side: number): AttachmentCategoryRule {
  return { types: IMAGES, maxFiles, maxKb, maxWidth: side, maxHeight: side, staffMayUpload: false };
}

export const ATTACHMENT_CATEGORIES = {
  testCertificate: doc(10, 20, true),
  report: doc(10, 50, true),
  citcCertificate: doc(1, 10),
  commercialRegistrationCopy: doc(1, 10),
  idCopy: doc(2, 5),
  commitment: doc(1, 10),
  industrialLicense: doc(1, 10),
  nationalDifferencesReport: doc(5, 20),
  photo: image(10, 5 * MB, 4096),
  productCatalogue: doc(5, 50),
  productFiles: doc(20, 50),
  productPhoto: image(20, 2 * MB, 2048),
  productIdentificationForm: doc(20, 10),
  productStandardDocument: doc(10, 20),
  requestNote: doc(5, 10),
  trademarkLogo: image(10, MB, 1024),
  userManual: doc(5, 50),
  processOperationsDiagram: doc(1, 20),
  qualityManual: doc(1, 50),
  qualityGuide: doc(1, 50),
  finalAcknowledgment: doc(1, 10),
  operationPlan: doc(20, 20),
} as const satisfies Record<string, AttachmentCategoryRule>;
export type AttachmentCategory = keyof typeof ATTACHMENT_CATEGORIES;
export const ATTACHMENT_CATEGORY_CODES = Object.keys(ATTACHMENT_CATEGORIES) as AttachmentCategory[];

export const isAttachmentCategory = (v: unknown): v is AttachmentCategory =>
  typeof v === 'string' && Object.prototype.hasOwnProperty.call(ATTACHMENT_CATEGORIES, v);

/**
 * The attachments of an internal facility request. Spec 02 section 3 makes the process operations diagram and the
 * quality manual optional; we require the commercial registration copy and the industrial licence, the two
 * documents every Saudi factory holds and the registration department checks first.
 */
export const INTERNAL_REQUEST_ATTACHMENTS = {
  allowed: [
    'commercialRegistrationCopy',
    'industrialLicense',
    'processOperationsDiagram',
    'qualityManual',
    'productCatalogue',
    'productPhoto',
    'trademarkLogo',
    'testCertificate',
    'report',
    'requestNote',
  ] as const satisfies readonly AttachmentCategory[],
  required: ['commercialRegistrationCopy', 'industrialLicense'] as const satisfies readonly AttachmentCategory[],
};

/** Extension of a file name (lower case), or '' when it has none. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** Spec 02 section 5: "the name may not contain more than one dot". */
export const hasAtMostOneDot = (fileName: string): boolean => (fileName.match(/\./g) ?? []).length <= 1;
