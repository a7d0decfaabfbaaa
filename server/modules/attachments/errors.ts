import { registerErrorStatus } from '../../errors';

/**
 * The upload errors of spec 02 section 8, one code each, with texts in locales/<lang>/errors.json. A refusal of the
 * file itself is a 400 so the web shows its message next to the file field; a refusal of the person is a 403.
 */
export const UploadError = {
  /** "content does not match file type": the magic bytes are not those of the declared extension. */
  ContentMismatch: 'UploadContentMismatch',
  /** "content type mismatch": the part's Content-Type is not the one of its extension. */
  ContentTypeMismatch: 'UploadContentTypeMismatch',
  /** "file name with two dots". */
  TwoDotsInName: 'UploadTwoDotsInName',
  UnauthorizedDownload: 'UploadUnauthorizedDownload',
  UnauthorizedUpload: 'UploadUnauthorizedUpload',
  /** "number of files exceeds allowed" for the category. */
  TooManyFiles: 'UploadTooManyFiles',
  ExceedsDimensions: 'UploadExceedsDimensions',
  ExceedsSize: 'UploadExceedsSize',
  /** Not PDF/PNG/JPG/JPEG, or not one the category accepts. */
  InvalidFileType: 'UploadInvalidFileType',
  UnknownCategory: 'UploadUnknownCategory',
  /** "at least one attachment required" for a category the request demands. */
  AttachmentRequired: 'UploadAttachmentRequired',
  /** The request the file belongs to was submitted; its files are kept as they were. */
  AttachmentLocked: 'AttachmentLocked',
  /** The form carried no file part. */
  NoFile: 'UploadNoFile',
  /** The file is on record but its content is not in the file store (a data folder restored without its files). */
  ContentMissing: 'AttachmentContentMissing',
} as const;

registerErrorStatus({
  AttachmentContentMissing: 404,
  UploadContentMismatch: 400,
  UploadContentTypeMismatch: 400,
  UploadTwoDotsInName: 400,
  UploadUnauthorizedDownload: 403,
  UploadUnauthorizedUpload: 403,
  UploadTooManyFiles: 400,
  UploadExceedsDimensions: 400,
  UploadExceedsSize: 400,
  UploadInvalidFileType: 400,
  UploadUnknownCategory: 400,
  UploadAttachmentRequired: 400,
  AttachmentLocked: 409,
  UploadNoFile: 400,
});
