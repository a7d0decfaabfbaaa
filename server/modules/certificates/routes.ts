import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, AppErrorCode } from '../../errors';
import { ZFile, errorResponses, zSearchText } from '../../schemas';
import { publicOrigin } from '../payments/public-origin';
import { bilingual } from './bilingual';
import { certificateView, hasLifecycle, loadCertificate } from './certificate-view';
import { renderCertificatePdf } from './certificate-pdf';
import { fileSafe, markZip } from './mark-package';
import { listCertificates } from './certificate-list';
import { renewalOffers } from './renewal-offer';
import { ZCertificate, ZCertificateSummary } from '../../../machines/forms/records';
import { PUBLIC_CERTIFICATE_STATUSES } from '../public/certificate-status';
import { maySeeCertificateOf } from '../../../workflows/read-scope';

const ZCertificateQuery = z.object({
  any: zSearchText(200),
  number: zSearchText(100),
  product: zSearchText(200),
  brand: zSearchText(200),
  status: z.enum(PUBLIC_CERTIFICATE_STATUSES).optional(),
  kind: z.enum(['internalHalal', 'externalHalal', 'cbDesignation', 'shipment', 'halalMark']).optional(),
  facilityId: z.string().max(100).optional(),
  /** One facility (or CB) the caller may see: only the certificates it holds (not those it issued as a CB). */
  heldBy: z.string().max(100).optional(),
  pageNumber: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});

const params = z.object({ id: z.uuid() });
/** Binary answers are sent as they are (Fastify does not serialize a Buffer); the schema only documents them. */

/** Certificate page data, the bilingual certificate PDF, and the Halal-mark package. Holders, issuers and staff only. */
const certificatesModule: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/certificates',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags: ['certificates'],
        summary: "Certificates of the caller's facilities (staff: all), newest first, searchable by number, product, brand and status",
        querystring: ZCertificateQuery,
        response: {
          200: z.object({ items: z.array(ZCertificateSummary), totalCount: z.number(), pageNumber: z.number(), pageSize: z.number() }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      // Each row says whether its renewal may start now, or which renewal of it is open, as the certificate page and the
      // start check say it: the tab offers a renewal only inside its window, never for a suspended certificate, never twice.
      const now = new Date();
      const page = await listCertificates(app.db, request.actor!, request.query, now, (rows) =>
        renewalOffers(app.db, app.services, app.settings.current(), request.actor!, rows, now),
      );
      return {
        ...page,
        items: page.items.map((c) => ({
          ...c,
          kindLabel: request.t(`payments:certificate.kind.${c.kind}`, { defaultValue: c.kind }),
          status: { ...c.status, label: request.t(`payments:certificate.status.${c.status.public}`) },
        })),
      };
    },
  );

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
        status: {
          code: view.status.code,
          public: view.status.public,
          label: request.t(`payments:certificate.status.${view.status.public}`),
          note: view.status.basis ? request.t(`public:markBasis.${view.status.basis}`, { number: view.certificate?.number ?? '' }) : null,
        },
        ...(await renewalOffers(app.db, app.services, app.settings.current(), request.actor!, [cert]))(cert),
        // The lifecycle's workflow has the certificate's id and its holder: who may read one reads the other.
        lifecycle: maySeeCertificateOf(request.actor!, { ...cert, cbPublicId: null }) && (await hasLifecycle(app.db, cert.id)),
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
