import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICES, type RequestKind } from '../../machines/services';
import { WEB_SERVICES } from '../../web/src/routes/services/services';
import { GENERIC_START_ROUTES } from '../../web/src/routes/services/start-routes';

/** The route table's copy of the generic start paths (kept out of the entry script) matches the service registry. */
describe('generic start routes', () => {
  const routerSource = readFileSync(new URL('../../web/src/router.tsx', import.meta.url), 'utf8');
  const ownScreen = (path: string) => routerSource.includes(`path: '${path}'`);

  it('gives each service its registry start path and start permissions', () => {
    for (const { kind, path, permissions } of GENERIC_START_ROUTES) {
      expect(`/${path}`, kind).toBe(SERVICES[kind].routes.start);
      expect([...permissions], kind).toEqual([...SERVICES[kind].startPermissions]);
    }
  });

  it('lists every service with a wizard whose start path has no screen of its own', () => {
    const expected = (Object.keys(WEB_SERVICES) as RequestKind[])
      .filter((k) => !!WEB_SERVICES[k]?.wizard && !ownScreen(SERVICES[k].routes.start.replace(/^\//, '')))
      .sort();
    expect(GENERIC_START_ROUTES.map((r) => r.kind).sort()).toEqual(expected);
  });
});
