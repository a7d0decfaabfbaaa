import { maySeeCertificateOf } from '../../../workflows/read-scope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema';
import { AppError } from '../../errors';
import { findFacility, membershipOf, requireMember } from './access';
import { confirmIban, createConformityBody, updateConformityBody, updateForRenewal, validateAcceptanceNumber, validateConformityBody, validateRegistrationNumber } from './cb-service';
import { assertCbServicesAllowed, isExpiredOrSuspended, latestCertificate } from './certificate-rules';
import { depsOf } from './deps';
import { ibanStatusOf } from './dto';
import { listMembers, listUserFacilities, memberDetail } from './facility-service';
import { maskPhone } from '../../../machines/forms/facilities/formats';
import { actorOf, facilityDto, Policy } from './policies';
import { UserInFacilityRole, ZCreateConformityBody, ZFacilityDto, ZMemberDto, ZPagedFacilities, ZPaging, ZUpdateCbForRenewal, ZUpdateConformityBody } from '../../../machines/forms/facilities/schemas';
import { zSearchText } from '../../schemas';

const tags = ['ConformityBody'];
const CB = ['ConformityBody'] as const;
const ZIdParam = z.object({ id: z.string().min(1) });
const ZMemberParams = z.object({ cbId: z.string().min(1), userId: z.string().uuid('invalid') });
const ok = { 200: z.literal(true) };
const zBool = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

export const ZCbDetails = ZFacilityDto.extend({
  designationCertificate: z
    .object({ id: z.string(), number: z.string(), status: z.number(), expiresAt: z.string(), usable: z.boolean() })
    .nullable(),
  userCount: z.number(),
});

/** /api/ConformityBody (spec 01 section 7): CBs, their users, IBAN and the acceptance/notification certificate. */
const conformityBodyRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  const db = deps.db;

  app.post(
    '/api/ConformityBody/ConfirmConformityBodyIban',
    { config: { policy: Policy.conformityBodyEdit }, schema: { tags, querystring: z.object({ publicId: z.string().min(1), isIbanConfirmed: zBool }), response: { 200: ZFacilityDto } } },
    async (request) => {
      const { facility } = await requireMember(db, actorOf(request), request.query.publicId, { types: CB, mainUser: true });
      const row = await confirmIban(db, facility, request.query.isIbanConfirmed);
      return facilityDto(db, row, UserInFacilityRole.MainUser);
    },
  );

  app.post('/api/ConformityBody/create', { config: { policy: Policy.conformityBodyCreate }, schema: { tags, body: ZCreateConformityBody, response: { 200: ZFacilityDto } } }, async (request) => {
    const row = await createConformityBody(deps, actorOf(request), request.body);
    return facilityDto(db, row, UserInFacilityRole.MainUser);
  });

  app.get('/api/ConformityBody/get/:id', { config: { policy: Policy.conformityBody }, schema: { tags, params: ZIdParam, response: { 200: ZFacilityDto } } }, async (request) => {
    const { facility, membership } = await requireMember(db, actorOf(request), request.params.id, { types: CB });
    return facilityDto(db, facility, membership.role);
  });

  app.get('/api/ConformityBody/GetConformityBodyDetails/:id', { config: { policy: Policy.conformityBody }, schema: { tags, params: ZIdParam, response: { 200: ZCbDetails } } }, async (request) => {
    const actor = actorOf(request);
    const { facility, membership } = await requireMember(db, actor, request.params.id, { types: CB });
    const cert = await latestCertificate(db, facility.publicId, 'cbDesignation');
    const members = await listMembers(db, facility.id, actor.userId);
    return {
      ...(await facilityDto(db, facility, membership.role)),
      // Shown as the certificate itself is: not to a delegate without the designation service (workflows/read-scope.ts).
      designationCertificate: cert && maySeeCertificateOf(actor, { ...cert, cbPublicId: null })
        ? { id: cert.id, number: cert.number, status: cert.status, expiresAt: cert.expiresAt.toISOString(), usable: !isExpiredOrSuspended(cert) }
        : null,
      userCount: members.length,
    };
  });

  app.get(
    '/api/ConformityBody/GetListOfUsersForConformityBodies/:id',
    { config: { policy: Policy.conformityBody }, schema: { tags, params: ZIdParam, response: { 200: z.array(ZMemberDto) } } },
    async (request) => {
      const actor = actorOf(request);
      const { facility } = await requireMember(db, actor, request.params.id, { types: CB });
      return listMembers(db, facility.id, actor.userId);
    },
  );

  app.get(
    '/api/ConformityBody/GetIbanStatus',
    { config: { policy: Policy.conformityBody, produces: 'text/plain' }, schema: { tags, querystring: z.object({ publicId: z.string().min(1) }) } },
    async (request, reply) => {
      const { facility } = await requireMember(db, actorOf(request), request.query.publicId, { types: CB });
      return reply.type('text/plain; charset=utf-8').send(ibanStatusOf(facility));
    },
  );

  app.get(
    '/api/ConformityBody/get-user-cb',
    // `serachText` is the original portal's spelling; `searchText` is accepted too.
    { config: { policy: Policy.conformityBody }, schema: { tags, querystring: ZPaging.extend({ serachText: zSearchText(200), searchText: zSearchText(200) }), response: { 200: ZPagedFacilities } } },
    async (request) => {
      const { serachText, searchText, ...paging } = request.query;
      return listUserFacilities(db, actorOf(request), { facilityType: 'ConformityBody', searchText: serachText ?? searchText }, paging);
    },
  );

  app.get(
    '/api/ConformityBody/GetUserDetailInConformityBody/:cbId/:userId',
    { config: { policy: Policy.conformityBody }, schema: { tags, params: ZMemberParams, response: { 200: ZMemberDto } } },
    async (request) => {
      const actor = actorOf(request);
      const { facility } = await requireMember(db, actor, request.params.cbId, { types: CB });
      return memberDetail(db, facility.id, request.params.userId, actor.userId);
    },
  );

  app.get(
    '/api/ConformityBody/GetUserInfoInConformityBody/:cbId/:userId',
    {
      config: { policy: Policy.conformityBody },
      schema: {
        tags,
        params: ZMemberParams,
        response: { 200: z.object({ userId: z.string(), name: z.string(), email: z.string(), maskedPhone: z.string().nullable(), preferredLanguage: z.string(), role: z.number() }) },
      },
    },
    async (request) => {
      const { facility } = await requireMember(db, actorOf(request), request.params.cbId, { types: CB });
      const m = await membershipOf(db, facility.id, request.params.userId);
      if (!m) throw new AppError('NotFacilityMember');
      const [u] = await db.select().from(users).where(eq(users.id, m.userId));
      return { userId: u.id, name: u.name, email: u.email, maskedPhone: u.phone ? maskPhone(u.phone) : null, preferredLanguage: u.preferredLanguage, role: m.role };
    },
  );

  app.get('/api/ConformityBody/IsUserForCbIsMainUser/:id', { config: { policy: Policy.conformityBody }, schema: { tags, params: ZIdParam, response: { 200: z.boolean() } } }, async (request) => {
    const facility = await findFacility(db, request.params.id, CB);
    const m = facility ? await membershipOf(db, facility.id, actorOf(request).userId) : undefined;
    return m?.role === UserInFacilityRole.MainUser;
  });

  app.put('/api/ConformityBody/update', { config: { policy: Policy.conformityBodyEdit }, schema: { tags, body: ZUpdateConformityBody, response: { 200: ZFacilityDto } } }, async (request) => {
    const actor = actorOf(request);
    const { facility, membership } = await requireMember(db, actor, request.body.publicId, { types: CB, permission: Policy.conformityBodyEdit });
    return facilityDto(db, await updateConformityBody(deps, actor, facility, request.body), membership.role);
  });

  app.post(
    '/api/ConformityBody/UpdateConformityBodyForCbRenewal',
    { config: { policy: Policy.conformityBodyEdit }, schema: { tags, body: ZUpdateCbForRenewal, response: { 200: ZFacilityDto } } },
    async (request) => {
      const actor = actorOf(request);
      const { facility, membership } = await requireMember(db, actor, request.body.publicId, { types: CB, permission: Policy.conformityBodyEdit });
      return facilityDto(db, await updateForRenewal(deps, actor, facility, request.body), membership.role);
    },
  );

  app.get('/api/ConformityBody/validateAcceptanceCertificateExpiry/:id', { config: { policy: Policy.conformityBody }, schema: { tags, params: ZIdParam, response: ok } }, async (request) => {
    const { facility } = await requireMember(db, actorOf(request), request.params.id, { types: CB });
    assertCbServicesAllowed(facility);
    return true as const;
  });

  app.post(
    '/api/ConformityBody/ValidateAcceptanceNumberAsync',
    { config: { policy: [Policy.conformityBodyCreate, Policy.conformityBodyEdit] }, schema: { tags, body: z.object({ acceptanceNumber: z.string().min(1, 'required'), publicId: z.string().optional() }), response: ok } },
    async (request) => {
      const own = request.body.publicId ? (await requireMember(db, actorOf(request), request.body.publicId, { types: CB, permission: Policy.conformityBodyEdit })).facility : undefined;
      await validateAcceptanceNumber(db, request.body.acceptanceNumber, own?.id);
      return true as const;
    },
  );

  app.get('/api/ConformityBody/ValidateIfCBExists/:id', { config: { policy: Policy.conformityBody }, schema: { tags, params: ZIdParam, response: ok } }, async (request) => {
    await requireMember(db, actorOf(request), request.params.id, { types: CB });
    return true as const;
  });

  app.get(
    '/api/ConformityBody/ValidateIsUserCBMember/:id',
    { config: { policy: Policy.conformityBody }, schema: { tags, params: ZIdParam, querystring: z.object({ userId: z.string().uuid('invalid') }), response: ok } },
    async (request) => {
      const { facility } = await requireMember(db, actorOf(request), request.params.id, { types: CB });
      if (!(await membershipOf(db, facility.id, request.query.userId))) throw new AppError('NotFacilityMember');
      return true as const;
    },
  );

  app.post('/api/ConformityBody/ValidateIsUserForCBMemeberIsMainUser/:id', { config: { policy: Policy.conformityBody }, schema: { tags, params: ZIdParam, response: ok } }, async (request) => {
    await requireMember(db, actorOf(request), request.params.id, { types: CB, mainUser: true });
    return true as const;
  });

  app.post(
    '/api/ConformityBody/ValidateRegistrationNumberAsync',
    {
      config: { policy: [Policy.conformityBodyCreate, Policy.conformityBodyEdit] },
      schema: { tags, body: z.object({ registrationNumber: z.string().min(1, 'required'), countryCode: z.string().regex(/^[A-Z]{2}$/, 'invalid').optional(), publicId: z.string().optional() }), response: ok },
    },
    async (request) => {
      const own = request.body.publicId ? (await requireMember(db, actorOf(request), request.body.publicId, { types: CB, permission: Policy.conformityBodyEdit })).facility : undefined;
      await validateRegistrationNumber(db, request.body.registrationNumber, request.body.countryCode, own?.id);
      return true as const;
    },
  );

  app.post(
    '/api/ConformityBody/ValidateUpdateConformityBodyRequest',
    { config: { policy: Policy.conformityBodyEdit }, schema: { tags, body: ZUpdateConformityBody, response: ok } },
    async (request) => {
      const { facility } = await requireMember(db, actorOf(request), request.body.publicId, { types: CB, permission: Policy.conformityBodyEdit });
      assertCbServicesAllowed(facility);
      await validateConformityBody(db, request.body, facility);
      return true as const;
    },
  );
};
export default conformityBodyRoutes;
