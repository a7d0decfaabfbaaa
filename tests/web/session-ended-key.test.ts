import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SESSION_ENDED_KEY } from '../../web/src/session/ended-key';

// after-paint.js is served as written (no build step can import the constant into it): a renamed key would leave a
// painted page waiting for a touch before the session-expired dialog (shell.e2e shows it without one).
describe('the idle sign-out mark', () => {
  it('is the key the painted pages read', () => {
    const script = readFileSync(new URL('../../web/public/after-paint.js', import.meta.url), 'utf8');
    expect(script).toContain(`localStorage.getItem('${SESSION_ENDED_KEY}')`);
  });
});
