import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import { membershipOf, requireMember } from './access';
import { assertDelegationAllowed } from './certificate-rules';
import { lookupDelegate, removeMember, submitDelegationStep, type StepContext } from './delegation-service';
import { depsOf } from './deps';
import { actorOf, Policy, publicBaseUrl } from './policies';
import { UserInFacilityRole, ZDelegateLookup, ZDelegationDto, ZDelegationStep, ZRemoveMember, ZUserLookup, type FacilityType } from '../../../machines/forms/facilities/schemas';

const ZIdParam = z.object({ id: z.string().min(1) });
const ok = { 200: z.literal(true) };

/**
 * /api/ConformityBodyDelegation and /api/InternalFacilityDelegation (spec 01 section 7): the delegation wizard of
 * a CB's or internal facility's main user. Both groups share the service; each is limited to its facility type.
 * These are the only doors of a delegation: the generic request calls refuse kind `delegation`.
 */
const delegationRoutes: FastifyPluginAsyncZod = async (app) => {
  const deps = depsOf(app);
  const db = deps.db;
  const groups: { prefix: string; tag: string; types: readonly FacilityType[]; policy: string; submit: string }[] = [
    { prefix: '/api/ConformityBodyDelegation', tag: 'ConformityBodyDelegation', types: ['ConformityBody'], policy: Policy.conformityBody, submit: 'SubmitCBDelegationRequest' },
    { prefix: '/api/InternalFacilityDelegation', tag: 'InternalFacilityDelegation', types: ['InternalFacility'], policy: Policy.internal, submit: 'SubmitFacilityDelegationRequest' },
  ];

  const stepContext = (request: FastifyRequest, types: readonly FacilityType[]): StepContext => ({
    deps,
    engine: request.server.engine,
    actor: actorOf(request),
    creatorName: request.sessionUser?.name ?? '',
    types,
    baseUrl: publicBaseUrl(request),
    log: request.log,
  });

  for (const g of groups) {
    const tags = [g.tag];
    app.post(`${g.prefix}/${g.submit}`, { config: { policy: g.policy }, schema: { tags, body: ZDelegationStep, response: { 200: ZDelegationDto } } }, async (request) =>
      submitDelegationStep(stepContext(request, g.types), request.body),
    );

    // Ours (the spec's list has no call for it): the main user removes a user; a delegation is revoked in the engine.
    app.post(
      `${g.prefix}/RemoveUser`,
      { config: { policy: g.policy }, schema: { tags, summary: 'Remove a sub user (revokes their delegation); the main user cannot be removed', body: ZRemoveMember, response: ok } },
      async (request) => {
        await removeMember(stepContext(request, g.types), request.body.facilityPublicId, request.body.userId);
        return true as const;
      },
    );

    app.get(`${g.prefix}/ValidateIfCurrentUserHasAuthorityToAddDelegation/:id`, { config: { policy: g.policy }, schema: { tags, params: ZIdParam, response: ok } }, async (request) => {
      const { facility } = await requireMember(db, actorOf(request), request.params.id, { types: g.types, mainUser: true });
      await assertDelegationAllowed(db, facility);
      return true as const;
    });
  }

  // ---- ConformityBodyDelegation only ----
  const cbTags = ['ConformityBodyDelegation'];
  const memberCheck = async (actorCb: string, userId: string, request: Parameters<typeof actorOf>[0]) => {
    const { facility } = await requireMember(db, actorOf(request), actorCb, { types: ['ConformityBody'] });
    if (!(await membershipOf(db, facility.id, userId))) throw new AppError('NotFacilityMember');
    return true as const;
  };
  const ZMember = z.object({ cbId: z.string().min(1), userId: z.string().uuid('invalid') });
  app.get('/api/ConformityBodyDelegation/ValidateIsConformityBodyMember/:cbId/:userId', { config: { policy: Policy.conformityBody }, schema: { tags: cbTags, params: ZMember, response: ok } }, async (request) =>
    memberCheck(request.params.cbId, request.params.userId, request),
  );
  app.get('/api/ConformityBodyDelegation/ValidateIsConformityBodyMemberById/:cbId/:userId', { config: { policy: Policy.conformityBody }, schema: { tags: cbTags, params: ZMember, response: ok } }, async (request) =>
    memberCheck(request.params.cbId, request.params.userId, request),
  );
  app.post(
    '/api/ConformityBodyDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForCB',
    { config: { policy: Policy.conformityBody }, schema: { tags: cbTags, body: ZUserLookup, response: { 200: ZDelegateLookup } } },
    async (request) => lookupDelegate(db, actorOf(request), request.body.facilityPublicId, request.body.nationalId, ['ConformityBody']),
  );

  // ---- InternalFacilityDelegation only ----
  const infTags = ['InternalFacilityDelegation'];
  app.post(
    '/api/InternalFacilityDelegation/ValidateIfUserHasAuthorityOnFacilityAsync',
    { config: { policy: Policy.internal }, schema: { tags: infTags, querystring: z.object({ userId: z.string().uuid('invalid'), facilityId: z.string().min(1) }), response: ok } },
    async (request) => {
      const { facility } = await requireMember(db, actorOf(request), request.query.facilityId, { types: ['InternalFacility'] });
      const m = await membershipOf(db, facility.id, request.query.userId);
      if (!m) throw new AppError('NotFacilityMember');
      if (m.role !== UserInFacilityRole.MainUser) throw new AppError('NotMainUser');
      return true as const;
    },
  );
  app.post(
    '/api/InternalFacilityDelegation/ValidateUserExisitenceAndReturnUserInfoForFacility',
    { config: { policy: Policy.internal }, schema: { tags: infTags, body: ZUserLookup, response: { 200: ZDelegateLookup } } },
    async (request) => {
      const found = await lookupDelegate(db, actorOf(request), request.body.facilityPublicId, request.body.nationalId, ['InternalFacility']);
      if (!found.exists) throw new AppError('DelegateNotFound');
      return found;
    },
  );
  app.post(
    '/api/InternalFacilityDelegation/ValidateUserExisitenceBeforeAndReturnUserInfoForFacility',
    { config: { policy: Policy.internal }, schema: { tags: infTags, body: ZUserLookup, response: { 200: ZDelegateLookup } } },
    async (request) => lookupDelegate(db, actorOf(request), request.body.facilityPublicId, request.body.nationalId, ['InternalFacility']),
  );
};
export default delegationRoutes;
