import fp from 'fastify-plugin';
import { createEngine, storeDeps } from '../../../workflows';
import { EmbeddedEngine } from '../../../workflows/embedded/embedded-engine';
import { TimerRunner } from '../../../workflows/embedded/timer-runner';
import { TemporalEngine } from '../../../workflows/temporal/client';
import routes from './routes';
import addingSubCategoriesRoutes from './adding-sub-categories-routes';

/**
 * Creates the workflow engine the configuration selects, decorates it as `app.engine` (other modules send their
 * events through it, e.g. the payment callback), runs the deadline timer runner of the embedded engine while the
 * server is up (TIMER_POLL_MS; 0 disables it, tests fire timers by hand), starts the lifecycles of certificates written
 * without the engine (workflows/adopt.ts) when the server is ready, and registers the workflow routes.
 */
export default fp(
  async (app) => {
    // Bills are priced with the settings in force when they are created, and validated with the server's services.
    const deps = storeDeps({ settings: () => app.settings.current(), services: app.services });
    const engine = await createEngine(app.config, app.db, deps);
    app.decorate('engine', engine);
    // The embedded engine fires its deadlines here; under Temporal the requests' deadlines are workflow timers and only
    // the entity lifecycles (bills, certificates, marks), which run embedded in both modes, are fired here.
    const timers = engine instanceof EmbeddedEngine ? engine : engine instanceof TemporalEngine ? engine.entities : undefined;
    const onlyEntities = engine instanceof TemporalEngine;
    const runner = timers
      ? new TimerRunner(
          () =>
            timers.fireDueTimers(undefined, undefined, (err, timerId) => app.log.error({ err, timerId }, 'deadline timer failed; retried next sweep'), onlyEntities),
          app.config.TIMER_POLL_MS,
          (err) => app.log.error({ err }, 'timer sweep failed'),
        )
      : undefined;
    app.addHook('onReady', async () => {
      // Certificates written without the engine (the demo seed, a migration) get their lifecycles before the first
      // sweep, which then brings each to the status its dates give.
      const adopted = await timers?.adoptCertificates((err, certificateId) => app.log.error({ err, certificateId }, 'certificate lifecycle not started'));
      if (adopted) app.log.info({ adopted }, 'certificate lifecycles started for certificates written without the engine');
      runner?.start();
    });
    app.addHook('onClose', async () => {
      await runner?.stop();
      await engine.close();
    });
    await app.register(routes);
    await app.register(addingSubCategoriesRoutes);
  },
  { name: 'requests' },
);
