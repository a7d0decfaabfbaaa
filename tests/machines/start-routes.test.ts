import { describe, expect, it } from 'vitest';
import { REQUEST_KINDS, SERVICES } from '../../machines/services';
import { START_ROUTES } from '../../machines/services/start-routes';

describe('START_ROUTES (the plain catalogue the web router reads, and the registry takes through startOf)', () => {
  it('lists every request kind and nothing else', () => {
    expect(Object.keys(START_ROUTES).sort()).toEqual([...REQUEST_KINDS].sort());
  });

  it.each(REQUEST_KINDS)('%s: the registry starts the service where and for whom the catalogue says (no definition overrides it)', (kind) => {
    expect(START_ROUTES[kind]).toEqual({ start: SERVICES[kind].routes.start, startPermissions: [...SERVICES[kind].startPermissions] });
  });
});
