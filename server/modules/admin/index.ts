import type { FastifyPluginAsync } from 'fastify';
import settingsRoutes from './settings-routes';
import auditRoutes from './audit-routes';
import identityRoutes from './identity-routes';
import diagramRoutes from './diagram-routes';

/** Administration (issue 15): setting-management, audit-logs and identity. */
const admin: FastifyPluginAsync = async (app) => {
  await app.register(settingsRoutes);
  await app.register(auditRoutes);
  await app.register(identityRoutes);
  await app.register(diagramRoutes);
};
export default admin;
