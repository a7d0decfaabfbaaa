import { testStoreDeps } from '../helpers/deps';
import { createTestDatabase, testDbKind } from '../helpers/db';
import { EmbeddedEngine } from '../../workflows/embedded/embedded-engine';
import type { MachineCatalogue } from '../../workflows/catalogue';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import { engineContract, type ContractScenario } from './contract';
import { fixtureCatalogue } from './fixtures/payment-machine';
import { fixtureScenario } from './fixtures/scenario';
import { internalCertificateScenario } from './fixtures/internal-certificate-scenario';

function embedded(name: string, catalogue: () => MachineCatalogue, scenario: ContractScenario) {
  engineContract(
    `embedded on ${testDbKind} (${name})`,
    async () => {
      const database = await createTestDatabase({ seed: false });
      // A flat fee: the fee schedule is the payments module's and has its own tests.
      const engine = new EmbeddedEngine({ db: database.db, deps: testStoreDeps({ catalogue: catalogue() }) });
      return { engine, db: database.db, fireDueTimers: (at) => engine.fireDueTimers(at), close: () => database.close() };
    },
    scenario,
  );
}

embedded('fixture machine', fixtureCatalogue, fixtureScenario);
embedded('internalCertificate machine', () => machinesCatalogue, internalCertificateScenario);
