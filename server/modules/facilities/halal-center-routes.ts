import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireFacility } from './access';
import { latestCertificate, isExpiredOrSuspended } from './certificate-rules';
import { depsOf } from './deps';
import { listMembers } from './facility-service';
import { facilityDto, Policy } from './policies';
import { ZFacilityDto, ZMemberDto } from '../../../machines/forms/facilities/schemas';

const tags = ['HalalCenter'];
const ZIdParam = z.object({ id: z.string().min(1) });
const ZStaffView = ZFacilityDto.extend({
  users: z.array(ZMemberDto),
  certificate: z.object({ id: z.string(), number: z.string(), kind: z.string(), status: z.number(), expiresAt: z.string(), usable: z.boolean() }).nullable(),
});

const KIND = { ConformityBody: 'cbDesignation', InternalFacility: 'internalHalal', ExternalFacility: 'externalHalal' } as const;

/** /api/HalalCenter (spec 01 section 7): Halal-center staff read any facility or CB, with its users. */
const halalCenterRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = depsOf(app).db;

  async function staffView(id: string, types: ('ConformityBody' | 'InternalFacility' | 'ExternalFacility')[]) {
    const facility = await requireFacility(db, id, types);
    const cert = await latestCertificate(db, facility.publicId, KIND[facility.type as keyof typeof KIND]);
    return {
      ...(await facilityDto(db, facility, null)),
      users: await listMembers(db, facility.id, null),
      certificate: cert
        ? { id: cert.id, number: cert.number, kind: cert.kind, status: cert.status, expiresAt: cert.expiresAt.toISOString(), usable: !isExpiredOrSuspended(cert) }
        : null,
    };
  }

  app.get('/api/HalalCenter/ConformityBody/get/:id', { config: { policy: Policy.staff }, schema: { tags, params: ZIdParam, response: { 200: ZStaffView } } }, async (request) =>
    staffView(request.params.id, ['ConformityBody']),
  );
  app.get('/api/HalalCenter/Facility/get/:id', { config: { policy: Policy.staff }, schema: { tags, params: ZIdParam, response: { 200: ZStaffView } } }, async (request) =>
    staffView(request.params.id, ['InternalFacility', 'ExternalFacility']),
  );
};
export default halalCenterRoutes;
