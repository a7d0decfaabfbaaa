import { describe, expect, it } from 'vitest';
import { START_ROUTES } from '../../machines/services/start-routes';
import { routeTable } from '../../web/src/router';

/*
 * The internal certificate's renewal starts like every other service: its spec address draws the generic start page
 * (StartServicePage, then the wizard) for kind internalRenewal, with the service's start permissions; it once had a
 * page of its own asking the reason before starting, which the wizard's renewal step now asks.
 */
describe('the internal renewal start address', () => {
  it('draws the generic start page for internalRenewal', async () => {
    const path = START_ROUTES.internalRenewal.start.replace(/^\//, '');
    const entries = routeTable.filter((e) => e.path === path);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.access).toEqual({ anyOf: START_ROUTES.internalRenewal.startPermissions });
    // The lazy route component, once loaded, renders the screen it stands for.
    const lazy = entries[0]!.component as { preload(): Promise<void> } & ((props: object) => { type: { displayName?: string } });
    await lazy.preload();
    expect(lazy({}).type.displayName).toBe('StartService(internalRenewal)');
  });
});
