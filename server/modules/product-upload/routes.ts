import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { fileTypeFromBuffer } from 'file-type';
import { z } from 'zod';
import { Permissions } from '../../../machines/permissions';
import { createProductSchema } from '../../../machines/forms/product';
import { extensionOf, hasAtMostOneDot } from '../../../machines/forms/attachment-categories';
import { AppError } from '../../errors';
import { errorResponses } from '../../schemas';
import { UploadError } from '../attachments/errors';
import { megabytes } from '../attachments/service';
import { buildProductTemplate } from './template';
import { validateProductRows, type RowError } from './parse';
import { readProductRows } from './xlsx-pool';
import { ProductUploadError } from './errors';

const PREFIX = '/api/product-upload';
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const ZUploadedProduct = z.object({
  nameAr: z.string(),
  nameEn: z.string(),
  brandAr: z.string(),
  brandEn: z.string(),
  saudiHsCode: z.string(),
  globalHsCode: z.string(),
  productNumber: z.string(),
  technicalSpecifications: z.array(z.string()),
  category: z.string(),
  netWeight: z.number(),
  grossWeight: z.number(),
  unit: z.number(),
});

/**
 * The product upload form of the internal request wizard (issue 5, spec 02 sections 5 and 8): download the .xlsx
 * template, upload it filled in, and get back either the products or every error with its row number.
 * Nothing is stored: the wizard adds the returned products to its draft.
 */
const productUploadModule: FastifyPluginAsyncZod = async (app) => {
  await app.register(multipart, { limits: { files: 1, fields: 5, parts: 6 } });
  const maxBytes = Math.floor(app.config.MAX_PRODUCT_UPLOAD_MB * 1024 * 1024);
  // The server's Halal HS list, so the upload agrees with the public HS-code list (HALAL_HS_PREFIXES).
  const productSchema = createProductSchema(app.config.HALAL_HS_PREFIXES);
  let template: Promise<Buffer> | undefined;

  app.get(
    `${PREFIX}/template`,
    {
      config: { policy: Permissions.internalRequest.request, produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
      schema: {
        tags: ['product-upload'],
        summary: 'The product upload form (.xlsx) with bilingual headers and drop-down lists',
        response: { 200: z.unknown().describe('the .xlsx workbook'), ...errorResponses },
      },
    },
    async (_request, reply) => {
      template ??= buildProductTemplate().catch((err: unknown) => {
        template = undefined; // a failed build is retried by the next caller rather than cached
        throw err;
      });
      return reply
        .header('content-type', XLSX_MIME)
        .header('content-disposition', 'attachment; filename="product-upload-form.xlsx"')
        .send(await template);
    },
  );

  app.post(
    PREFIX,
    {
      config: { policy: Permissions.internalRequest.request },
      schema: {
        tags: ['product-upload'],
        summary: 'Upload a filled product form (multipart/form-data, field "file"); answers the products or each row error',
        consumes: ['multipart/form-data'],
        response: { 200: z.object({ count: z.number(), products: z.array(ZUploadedProduct) }), ...errorResponses },
      },
    },
    async (request) => {
      const part = request.isMultipart() ? await request.file({ limits: { fileSize: maxBytes, files: 1 }, throwFileSizeLimit: false }) : undefined;
      if (!part) throw new AppError(UploadError.NoFile);
      if (!hasAtMostOneDot(part.filename)) throw new AppError(UploadError.TwoDotsInName);
      if (extensionOf(part.filename) !== 'xlsx') throw new AppError(ProductUploadError.InvalidFile);
      const buffer = await part.toBuffer();
      if (part.file.truncated) throw new AppError(UploadError.ExceedsSize, { limitMb: megabytes(maxBytes) });
      if ((await fileTypeFromBuffer(buffer))?.mime !== XLSX_MIME) throw new AppError(ProductUploadError.InvalidFile);

      const result = validateProductRows(await readProductRows(buffer), productSchema);
      if (result.errors.length) throw rowErrors(result.errors);
      return { count: result.products.length, products: result.products };
    },
  );
};

/**
 * One refusal listing every error as "Row N, <column>: <message>". The column and the message go as keys
 * (`validation:form.productRow` names them with $t()), so the text is said in the caller's language here and again in
 * the reader's language after a switch on the web.
 */
function rowErrors(errors: RowError[]): AppError {
  const rows = [...new Set(errors.map((e) => e.row))];
  return new AppError(
    ProductUploadError.RowErrors,
    { rows: rows.join(', ') },
    errors.map((e) => ({ field: `rows.${e.row}.${e.field}`, message: 'form.productRow', params: { row: e.row, column: e.field, message: e.message } })),
  );
}

export default productUploadModule;
