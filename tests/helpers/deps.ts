import { storeDeps } from '../../workflows';
import type { MachineCatalogue } from '../../workflows/catalogue';
import { machinesCatalogue } from '../../workflows/machines-catalogue';
import type { StoreDeps } from '../../workflows/store';
import { testConfig, type Config } from '../../server/config';
import { businessDefaults } from '../../server/business-defaults';

/**
 * A test catalogue of its own (a fixture machine) plus the production machines for every other kind: effects start
 * entity lifecycles (bills, certificates, marks), which the fixture does not define.
 */
export function withProductionEntities(fixture: MachineCatalogue): MachineCatalogue {
  const pick = (kind: string) => (fixture.hasKind(kind) ? fixture : machinesCatalogue);
  return {
    hasKind: (kind) => fixture.hasKind(kind) || machinesCatalogue.hasKind(kind),
    currentVersion: (kind) => pick(kind).currentVersion(kind),
    getMachine: (kind, version) => pick(kind).getMachine(kind, version),
    allowedActions: (kind, snapshot, actor, version) => pick(kind).allowedActions(kind, snapshot, actor, version),
    mayAct: (kind, snapshot, actor, version, type) => {
      const c = pick(kind);
      return c.mayAct ? c.mayAct(kind, snapshot, actor, version, type) : c.allowedActions(kind, snapshot, actor, version).some((a) => a.type === type);
    },
    // Status, queue and deadlines read the snapshot's own machine: the fixture's when it is one of its kinds.
    statusOf: (snapshot) => (fixture.hasKind(snapshot.machine.id) ? fixture : machinesCatalogue).statusOf(snapshot),
    queueOf: (snapshot) => (fixture.hasKind(snapshot.machine.id) ? fixture : machinesCatalogue).queueOf(snapshot),
    deadlinesOf: (snapshot, now) => (fixture.hasKind(snapshot.machine.id) ? fixture : machinesCatalogue).deadlinesOf(snapshot, now),
    parseEvent: (kind, event, context, snapshot) => pick(kind).parseEvent(kind, event, context, snapshot),
    parseStartData: (kind, data) => pick(kind).parseStartData(kind, data),
  };
}

/** The engine's dependencies as a test server has them: the test configuration's business settings. */
export function testStoreDeps(opts: { catalogue?: MachineCatalogue; config?: Partial<Record<keyof Config, string>> } = {}): StoreDeps {
  const settings = businessDefaults(testConfig(opts.config));
  return storeDeps({ settings: () => settings, ...(opts.catalogue ? { catalogue: withProductionEntities(opts.catalogue) } : {}) });
}
