import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, AppErrorCode } from '../../errors';
import { errorResponses } from '../../schemas';
import { publicOrigin } from '../payments/public-origin';
import { bilingual } from './bilingual';
import { certificateView, loadCertificate } from './certificate-view';
import { renderCertificatePdf } from './certificate-pdf';
import { fileSafe, markZip } from './mark-package';

const ZDualDate = z.object({
  iso: z.string(),
  gregorian: z.string(),
  hijri: z.object({ year: z.number(), month: z.number(), day: z.number() }).nullable(),
});
const ZParty = z.object({
  publicId: z.string(),
  type: z.string(),
  nameAr: z.string(),
  nameEn: z.string(),
  registrationNumber: z.string().nullable(),
  countryCode: z.string(),
  city: z.string().nullable(),
});
const ZCertificate = z.object({
  id: z.string(),
  number: z.string(),
  legacyNumber: z.string().nullable(),
  kind: z.string(),
  kindLabel: z.string(),
  status: z.object({ code: z.number(), public: z.string(), label: z.string() }),
  holder: ZParty,
  issuer: ZParty.nullable(),
  scope: z.string().nullable(),
  categories: z.array(z.string()),
  products: z.array(
    z.object({ nameAr: z.string(), nameEn: z.string(), brandAr: z.string().optional(), brandEn: z.string().optional(), hsCode: z.string().optional() }),
  ),
  issuedAt: ZDualDate,
  validFrom: ZDualDate,
  expiresAt: ZDualDate,
  verificationCode: z.string(),
  verificationUrl: z.string(),
  requestId: z.string().nullable(),
  requestNumber: z.string().nullable(),
});

const params = z.object({ id: z.uuid() });
/** Binary answers are sent as they are (Fastify does not serialize a Buffer); the schema only documents them. */
const ZFile = z.unknown().describe('the file content');

/** Certificate page data, the bilingual certificate PDF, and the Halal-mark package. Holders, issuers and staff only. */
const certificatesModule: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/certificates/:id',
    {
      config: { policy: 'authenticated' },
      schema: { tags: ['certificates'], summary: 'One certificate or Halal mark', params, response: { 200: ZCertificate, ...errorResponses } },
    },
    async (request) => {
      const cert = await loadCertificate(app.db, request.actor!, request.params.id);
      const view = await certificateView(app.db, cert, publicOrigin(request));
      return {
        ...view,
        kindLabel: request.t(`payments:certificate.kind.${view.kind}`, { defaultValue: view.kind }),
        status: { ...view.status, label: request.t(`payments:certificate.status.${view.status.public}`) },
      };
    },
  );

  app.get(
    '/api/certificates/:id/pdf',
    {
      config: { policy: 'authenticated', produces: 'application/pdf' },
      schema: { tags: ['certificates'], summary: 'The certificate as a bilingual PDF with a verification QR code', params, response: { 200: ZFile, ...errorResponses } },
    },
    async (request, reply) => {
      const cert = await loadCertificate(app.db, request.actor!, request.params.id);
      const pdf = await renderCertificatePdf(await certificateView(app.db, cert, publicOrigin(request)), bilingual());
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="certificate-${fileSafe(cert.number)}.pdf"`)
        .send(pdf);
    },
  );

  app.get(
    '/api/certificates/:id/mark.zip',
    {
      config: { policy: 'authenticated', produces: 'application/zip' },
      schema: {
        tags: ['certificates'],
        summary: 'Halal mark package: horizontal and vertical SVG marks with the number and QR code, and the guidelines PDF',
        params,
        response: { 200: ZFile, ...errorResponses },
      },
    },
    async (request, reply) => {
      const cert = await loadCertificate(app.db, request.actor!, request.params.id);
      // Only a Halal mark has a mark package; a certificate's marks are requested and issued as marks of their own.
      if (cert.kind !== 'halalMark') throw new AppError(AppErrorCode.EntityNotFound);
      const { fileName, zip } = await markZip(await certificateView(app.db, cert, publicOrigin(request)), bilingual());
      return reply.type('application/zip').header('content-disposition', `attachment; filename="${fileName}"`).send(Buffer.from(zip));
    },
  );
};

export default certificatesModule;
