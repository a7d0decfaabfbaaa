import { createTestDatabase, testDbKind } from '../helpers/db';
import { testConfig } from '../../server/config';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import { storeDeps } from '../../workflows';
import { engineContract } from './contract';
import { fixtureCatalogue } from './fixtures/payment-machine';
import { fixtureScenario } from './fixtures/scenario';

engineContract(
  `embedded on ${testDbKind} (fixture machine)`,
  async () => {
    const database = await createTestDatabase({ seed: false });
    const engine = new EmbeddedEngine({ db: database.db, catalogue: fixtureCatalogue(), deps: storeDeps(testConfig()) });
    return {
      engine,
      db: database.db,
      fireDueTimers: (at) => engine.fireDueTimers(at),
      close: () => database.close(),
    };
  },
  fixtureScenario,
);
