import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireMember } from './access';
import { depsOf } from './deps';
import { listUserFacilities } from './facility-service';
import { actorOf, facilityDto, Policy } from './policies';
import { ZFacilityDto, ZPagedFacilities, ZPaging } from '../../../machines/forms/facilities/schemas';
import { zSearchText } from '../../schemas';

const tags = ['ExternalFacility'];
const ZIdParam = z.object({ id: z.string().min(1) });

/**
 * /api/ExternalFacility (spec 01 section 7): the foreign factories a CB or factory user works with. Searches only
 * ever cover the caller's own factories.
 */
const externalFacilityRoutes: FastifyPluginAsyncZod = async (app) => {
  const db = depsOf(app).db;

  app.post(
    '/api/ExternalFacility/SearchExternalFacility',
    {
      config: { policy: Policy.anyFacility },
      schema: {
        tags,
        body: ZPaging.extend({
          searchText: zSearchText(200),
          searchBy: z.number().int().min(0).max(4).optional(),
          sortBy: z.enum(['all', 'name', 'registrationNumber', 'city', 'country']).default('all'),
        }),
        response: { 200: ZPagedFacilities },
      },
    },
    async (request) => {
      const { searchText, searchBy, sortBy, ...paging } = request.body;
      return listUserFacilities(db, actorOf(request), { facilityType: 'ExternalFacility', searchText, searchBy, sortBy, lang: request.lang }, paging);
    },
  );

  app.post(
    '/api/ExternalFacility/GetExternalFacilities',
    {
      config: { policy: Policy.anyFacility },
      schema: {
        tags,
        // `facilityIds=a,b` or `facilityIds=a&facilityIds=b`, public ids or uuids.
        querystring: z.object({ facilityIds: z.union([z.string(), z.array(z.string())]).transform((v) => [v].flat().flatMap((s) => s.split(',')).filter(Boolean)) }),
        response: { 200: z.array(ZFacilityDto) },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const out = [];
      // Every id must be one of the caller's factories: one foreign id refuses the whole call.
      for (const id of [...new Set(request.query.facilityIds)].slice(0, 100)) {
        const { facility, membership } = await requireMember(db, actor, id, { types: ['ExternalFacility'] });
        out.push(await facilityDto(db, facility, membership.role));
      }
      return out;
    },
  );

  app.get('/api/ExternalFacility/GetExternalFacility/:id', { config: { policy: Policy.anyFacility }, schema: { tags, params: ZIdParam, response: { 200: ZFacilityDto } } }, async (request) => {
    const { facility, membership } = await requireMember(db, actorOf(request), request.params.id, { types: ['ExternalFacility'] });
    return facilityDto(db, facility, membership.role);
  });

  app.get('/api/ExternalFacility/GetFacilityByPublicId/:id', { config: { policy: Policy.anyFacility }, schema: { tags, params: ZIdParam, response: { 200: ZFacilityDto } } }, async (request) => {
    const { facility, membership } = await requireMember(db, actorOf(request), request.params.id, { types: ['ExternalFacility'] });
    return facilityDto(db, facility, membership.role);
  });
};
export default externalFacilityRoutes;
