import type { FastifyPluginAsync } from 'fastify';
import conformityBodyRoutes from './conformity-body-routes';
import delegationRoutes from './delegation-routes';
import externalFacilityRoutes from './external-facility-routes';
import facilityRoutes from './facility-routes';
import halalCenterRoutes from './halal-center-routes';
import supportRoutes from './support-routes';
import './errors';

/** Facilities, conformity bodies, their users and delegation (issue 6). One plugin per call group. */
const facilities: FastifyPluginAsync = async (app) => {
  await app.register(facilityRoutes);
  await app.register(externalFacilityRoutes);
  await app.register(conformityBodyRoutes);
  await app.register(delegationRoutes);
  await app.register(halalCenterRoutes);
  await app.register(supportRoutes);
};
export default facilities;

export { assertCbServicesAllowed, assertDelegationAllowed, isAcceptanceCertificateExpired } from './certificate-rules';
export { requireMember, findFacility } from './access';
