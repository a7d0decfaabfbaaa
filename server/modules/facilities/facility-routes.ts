import { maySeeCertificateOf } from '../../../workflows/read-scope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { and, eq, isNotNull } from 'drizzle-orm';
import { certificates } from '../../../db/schema';
import { AppError } from '../../errors';
import { findFacility, membershipOf, requireMember } from './access';
import { assertCrNumberFormat, assertCrActive, createInternal, isInternalCrRegistered, lookupCr, lookupCrForRegistration, verifiedOrStored, verifyAndUpdateCr } from './cr-service';
import { depsOf } from './deps';
import { createExternal, isExternalRegistrationTaken, listMembers, listUserFacilities, memberDetail, updateExternal, validateExternal } from './facility-service';
import { actorOf, facilityDto, Policy } from './policies';
import { Permissions as P } from '../../../machines/permissions';
import {
  FACILITY_TYPES,
  UserInFacilityRole,
  ZCreateExternal,
  ZCreateInternal,
  ZCrDataDto,
  ZCrLookup,
  ZCrValidation,
  ZCurrentUserInFacility,
  ZFacilityDto,
  ZMemberDto,
  ZPagedFacilities,
  ZPaging,
  ZUpdateExternal,
  type FacilityType,
} from '../../../machines/forms/facilities/schemas';
import { zSearchText } from '../../schemas';
import { factoriesTheChoiceAccepts } from '../requests/service';

const tags = ['Facility'];
const ZPublicIdQuery = z.object({ publicId: z.string().min(1, 'required') });
const ZIdParam = z.object({ id: z.string().min(1) });
const ZVerified = ZFacilityDto.extend({ crVerification: z.enum(['verified', 'unavailable', 'skipped']) });
const ok = { 200: z.literal(true) };

/** /api/Facility (spec 01 section 7): internal and external facilities, their users and the registry checks. */
const facilityRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  const db = deps.db;

  app.post('/api/Facility/CreateInternal', { config: { policy: Policy.internalCreate }, schema: { tags, body: ZCreateInternal, response: { 200: ZFacilityDto } } }, async (request) => {
    const row = await createInternal(deps, actorOf(request), request.body, 'withParty', request.ip);
    return facilityDto(db, row, UserInFacilityRole.MainUser);
  });

  app.post(
    '/api/Facility/CreateInternalFacilityWithNoPartyFromWatheq',
    { config: { policy: Policy.internalCreate }, schema: { tags, body: ZCreateInternal, response: { 200: ZFacilityDto } } },
    async (request) => {
      const row = await createInternal(deps, actorOf(request), request.body, 'noParty', request.ip);
      return facilityDto(db, row, UserInFacilityRole.MainUser);
    },
  );

  app.post('/api/Facility/CreateExternal', { config: { policy: Policy.externalCreate }, schema: { tags, body: ZCreateExternal, response: { 200: ZFacilityDto } } }, async (request) => {
    const row = await createExternal(deps, actorOf(request), request.body);
    return facilityDto(db, row, UserInFacilityRole.MainUser);
  });

  app.get('/api/Facility/GetCrData', { config: { policy: Policy.internalCreate }, schema: { tags, querystring: ZCrLookup, response: { 200: ZCrDataDto } } }, async (request) => {
    const { dto } = await lookupCr(deps, actorOf(request), request.query.crEntityNumber, request.query.recaptchaToken, request.ip);
    return dto;
  });

  app.post(
    '/api/Facility/GetCrDataWithRelatedValidation',
    { config: { policy: Policy.internalCreate }, schema: { tags, body: ZCrLookup, response: { 200: ZCrValidation } } },
    async (request) => lookupCrForRegistration(deps, actorOf(request), request.body.crEntityNumber, request.body.recaptchaToken, request.ip),
  );

  app.get(
    '/api/Facility/GetCurruntUserDetailInFacility/:id',
    { config: { policy: Policy.anyFacility }, schema: { tags, params: ZIdParam, response: { 200: ZCurrentUserInFacility } } },
    async (request) => {
      const actor = actorOf(request);
      const { facility, membership, isMainUser, permissions } = await requireMember(db, actor, request.params.id);
      return {
        facilityId: facility.id,
        publicId: facility.publicId,
        facilityType: facility.type as FacilityType,
        userId: actor.userId,
        role: membership.role,
        isMainUser,
        canDelegate: isMainUser,
        // What the caller holds here: the main user all of the role's, a sub user the delegated ones.
        permissions,
      };
    },
  );

  app.get(
    '/api/Facility/GetFacility',
    { config: { policy: Policy.anyFacility }, schema: { tags, querystring: z.object({ facilityId: z.string().min(1, 'required') }), response: { 200: ZFacilityDto } } },
    async (request) => {
      const { facility, membership } = await requireMember(db, actorOf(request), request.query.facilityId);
      return facilityDto(db, facility, membership.role);
    },
  );

  app.get('/api/Facility/GetFacilityByPublicId', { config: { policy: Policy.anyFacility }, schema: { tags, querystring: ZPublicIdQuery, response: { 200: ZFacilityDto } } }, async (request) => {
    const { facility, membership } = await requireMember(db, actorOf(request), request.query.publicId);
    return facilityDto(db, facility, membership.role);
  });

  app.get(
    '/api/Facility/GetFacilityAndVerifyCrData',
    { config: { policy: Policy.anyFacility }, schema: { tags, querystring: ZPublicIdQuery, response: { 200: ZVerified } } },
    async (request) => {
      const { facility, membership } = await requireMember(db, actorOf(request), request.query.publicId);
      const v = await verifiedOrStored(deps, facility, false);
      return { ...(await facilityDto(db, v.facility, membership.role)), crVerification: v.crVerification };
    },
  );

  app.get(
    '/api/Facility/GetFacilityAndVerifyCrDataSkippingSubUser/:id',
    { config: { policy: Policy.anyFacility }, schema: { tags, params: ZIdParam, response: { 200: ZVerified } } },
    async (request) => {
      const { facility, membership, isMainUser } = await requireMember(db, actorOf(request), request.params.id);
      const v = await verifiedOrStored(deps, facility, !isMainUser);
      return { ...(await facilityDto(db, v.facility, membership.role)), crVerification: v.crVerification };
    },
  );

  app.get(
    '/api/Facility/GetFacilityWithMigrationCertificateIdAndVerifyCrData',
    {
      config: { policy: Policy.anyFacility },
      schema: { tags, querystring: ZPublicIdQuery, response: { 200: ZVerified.extend({ migrationCertificateId: z.string().nullable() }) } },
    },
    async (request) => {
      const { facility, membership } = await requireMember(db, actorOf(request), request.query.publicId);
      const v = await verifiedOrStored(deps, facility, false);
      // A certificate carried over from the old system has a legacy number; its id opens the renewal of it.
      const [migrated] = await db
        .select({ id: certificates.id, kind: certificates.kind, facilityPublicId: certificates.facilityPublicId })
        .from(certificates)
        .where(and(eq(certificates.facilityPublicId, facility.publicId), isNotNull(certificates.legacyNumber)))
        .limit(1);
      return { ...(await facilityDto(db, v.facility, membership.role)), crVerification: v.crVerification, migrationCertificateId: migrated && maySeeCertificateOf(actorOf(request), { ...migrated, cbPublicId: null }) ? migrated.id : null };
    },
  );

  app.get('/api/Facility/GetListOfUsersForFacility/:id', { config: { policy: Policy.anyFacility }, schema: { tags, params: ZIdParam, response: { 200: z.array(ZMemberDto) } } }, async (request) => {
    const actor = actorOf(request);
    const { facility } = await requireMember(db, actor, request.params.id, { types: ['InternalFacility', 'ExternalFacility'] });
    return listMembers(db, facility.id, actor.userId);
  });

  app.get(
    '/api/Facility/GetUserDetailInFacility/:facilityId/:userId',
    { config: { policy: Policy.anyFacility }, schema: { tags, params: z.object({ facilityId: z.string(), userId: z.string().uuid('invalid') }), response: { 200: ZMemberDto } } },
    async (request) => {
      const actor = actorOf(request);
      const { facility } = await requireMember(db, actor, request.params.facilityId, { types: ['InternalFacility', 'ExternalFacility'] });
      return memberDetail(db, facility.id, request.params.userId, actor.userId);
    },
  );

  app.get(
    '/api/Facility/GetUserFacilities',
    {
      config: { policy: Policy.anyFacility },
      schema: {
        tags,
        querystring: ZPaging.extend({
          facilityType: z.enum(FACILITY_TYPES).optional(),
          searchText: zSearchText(200),
          searchBy: z.coerce.number().int().min(0).max(4).optional(),
          /** A request whose factory is being chosen: only the facilities that choice accepts (the save's own rule). */
          forRequest: z.string().uuid('invalid').optional(),
        }),
        response: { 200: ZPagedFacilities },
      },
    },
    async (request) => {
      const { facilityType, searchText, searchBy, forRequest, ...paging } = request.query;
      const actor = actorOf(request);
      const accepts = forRequest ? (ids: readonly string[]) => factoriesTheChoiceAccepts(app, actor, forRequest, ids) : undefined;
      return listUserFacilities(db, actor, { facilityType, searchText, searchBy, accepts }, paging);
    },
  );

  app.get('/api/Facility/IsUserForFacilityIsMainUser/:id', { config: { policy: Policy.anyFacility }, schema: { tags, params: ZIdParam, response: { 200: z.boolean() } } }, async (request) => {
    const facility = await findFacility(db, request.params.id, ['InternalFacility', 'ExternalFacility']);
    const m = facility ? await membershipOf(db, facility.id, actorOf(request).userId) : undefined;
    return m?.role === UserInFacilityRole.MainUser;
  });

  app.put('/api/Facility/UpdateExternal', { config: { policy: Policy.externalEdit }, schema: { tags, body: ZUpdateExternal, response: { 200: ZFacilityDto } } }, async (request) => {
    const actor = actorOf(request);
    const { facility, membership } = await requireMember(db, actor, request.body.publicId, { types: ['ExternalFacility'], permission: Policy.externalEdit });
    const row = await updateExternal(deps, actor, facility, request.body);
    return facilityDto(db, row, membership.role);
  });

  app.post(
    '/api/Facility/ValidateExternalCrNumberDuplicate',
    {
      config: { policy: [Policy.externalCreate, Policy.externalEdit] },
      schema: { tags, body: z.object({ registrationNumber: z.string().trim().min(1, 'required'), countryCode: z.string().regex(/^[A-Z]{2}$/, 'invalid'), publicId: z.string().optional() }), response: ok },
    },
    async (request) => {
      const { registrationNumber, countryCode, publicId } = request.body;
      const own = publicId ? (await requireMember(db, actorOf(request), publicId, { types: ['ExternalFacility'], permission: Policy.externalEdit })).facility : undefined;
      if (await isExternalRegistrationTaken(db, registrationNumber, countryCode, own?.id)) throw new AppError('RegistrationNumberDuplicate');
      return true as const;
    },
  );

  app.post(
    '/api/Facility/ValidateInternalCrNumberDuplicate',
    { config: { policy: Policy.internalCreate }, schema: { tags, body: z.object({ crNumber: z.string().trim().min(1, 'required') }), response: ok } },
    async (request) => {
      const crNumber = assertCrNumberFormat(request.body.crNumber);
      if (await isInternalCrRegistered(db, crNumber)) throw new AppError('CrNumberDuplicate');
      return true as const;
    },
  );

  app.get('/api/Facility/ValidateFacilityValidationOverWathiq/:id', { config: { policy: Policy.anyFacility }, schema: { tags, params: ZIdParam, response: ok } }, async (request) => {
    const { facility } = await requireMember(db, actorOf(request), request.params.id, { types: ['InternalFacility'] });
    const updated = await verifyAndUpdateCr(deps, facility);
    assertCrActive({ status: updated.crStatus as 'Active' });
    return true as const;
  });

  app.get('/api/Facility/ValidateIsUserForFacilityIsMainUser/:id', { config: { policy: Policy.anyFacility }, schema: { tags, params: ZIdParam, response: ok } }, async (request) => {
    await requireMember(db, actorOf(request), request.params.id, { types: ['InternalFacility', 'ExternalFacility'], mainUser: true });
    return true as const;
  });

  app.post(
    '/api/Facility/ValidateIsUserInternalFacilityMember',
    { config: { policy: Policy.anyFacility }, schema: { tags, querystring: z.object({ publicId: z.string().min(1), userId: z.string().uuid('invalid') }), response: ok } },
    async (request) => {
      const { facility } = await requireMember(db, actorOf(request), request.query.publicId, { types: ['InternalFacility'] });
      if (!(await membershipOf(db, facility.id, request.query.userId))) throw new AppError('NotFacilityMember');
      return true as const;
    },
  );

  app.post(
    '/api/Facility/ValidateUpdateExternalFacilityRequest',
    { config: { policy: Policy.externalEdit }, schema: { tags, body: ZUpdateExternal, response: ok } },
    async (request) => {
      const { facility } = await requireMember(db, actorOf(request), request.body.publicId, { types: ['ExternalFacility'], permission: Policy.externalEdit });
      await validateExternal(db, request.body, facility.id);
      return true as const;
    },
  );

  app.post('/api/Facility/VerifyAndUpdateCrData', { config: { policy: Policy.anyFacility }, schema: { tags, body: ZPublicIdQuery, response: { 200: ZFacilityDto } } }, async (request) => {
    const { facility, membership } = await requireMember(db, actorOf(request), request.body.publicId, { types: ['InternalFacility'], permission: P.facility.internalEdit });
    return facilityDto(db, await verifyAndUpdateCr(deps, facility), membership.role);
  });

  app.post(
    '/api/Facility/VerifyAndUpdateCrDataSkippingForSubUser',
    { config: { policy: Policy.anyFacility }, schema: { tags, body: ZPublicIdQuery, response: { 200: ZVerified } } },
    async (request) => {
      const { facility, membership, isMainUser } = await requireMember(db, actorOf(request), request.body.publicId, { types: ['InternalFacility'] });
      const v = isMainUser ? { facility: await verifyAndUpdateCr(deps, facility), crVerification: 'verified' as const } : { facility, crVerification: 'skipped' as const };
      return { ...(await facilityDto(db, v.facility, membership.role)), crVerification: v.crVerification };
    },
  );
};
export default facilityRoutes;
