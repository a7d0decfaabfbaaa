import fp from 'fastify-plugin';
import { createEngine } from '../../../workflows';
import { EmbeddedEngine } from '../../../workflows/embedded/embedded-engine';
import { TimerRunner } from '../../../workflows/embedded/timer-runner';
import { billAmountFor } from '../payments/bill-amount';
import { feeScheduleOf } from '../payments/fees';
import routes from './routes';

/**
 * Creates the workflow engine the configuration selects, decorates it as `app.engine` (other modules send their
 * events through it, e.g. the payment callback), runs the deadline timer runner of the embedded engine while the
 * server is up (TIMER_POLL_MS; 0 disables it, tests fire timers by hand), and registers the workflow routes.
 */
export default fp(
  async (app) => {
    const engine = await createEngine(app.config, app.db, { billAmount: billAmountFor(feeScheduleOf(app.config)) });
    app.decorate('engine', engine);
    const runner =
      engine instanceof EmbeddedEngine
        ? new TimerRunner(
            () => engine.fireDueTimers(undefined, undefined, (err, timerId) => app.log.error({ err, timerId }, 'deadline timer failed; retried next sweep')),
            app.config.TIMER_POLL_MS,
            (err) => app.log.error({ err }, 'timer sweep failed'),
          )
        : undefined;
    app.addHook('onReady', async () => runner?.start());
    app.addHook('onClose', async () => {
      await runner?.stop();
      await engine.close();
    });
    await app.register(routes);
  },
  { name: 'requests' },
);
