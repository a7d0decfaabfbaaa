import Fastify, { type FastifyInstance } from 'fastify';
import { testConfig } from '../../server/config';
import { registerSimulators } from '../../server/simulators';

/**
 * The external-service simulators as their own HTTP server on a free port, so the adapters under test really call
 * them over HTTP; point the app under test at `${url}/simulators/<service>`.
 */
export async function startSimulators(port = 0): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false });
  app.decorate('config', testConfig());
  await registerSimulators(app);
  const address = await app.listen({ port, host: '127.0.0.1' });
  return { app, url: address };
}
