import { DEMO_PASSWORD } from '../../../db/seed';

/** A demo user's session as a plain HTTP client holds it (no browser). */
export interface HttpSession {
  /** The Cookie header to send. */
  cookie: string;
  /** The x-csrf-token header every write needs. */
  csrf: string;
  /** The same cookies as a browser context takes them (`context.addCookies`). */
  jar: { name: string; value: string }[];
}

/** Signs a demo user in over HTTP the way the web app does: login, then the session call that hands out the CSRF token. */
export async function signInOverHttp(base: string, userName: string): Promise<HttpSession> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName, password: DEMO_PASSWORD }),
  });
  if (!login.ok) throw new Error(`login ${userName}: ${login.status} ${await login.text()}`);
  keep(login);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const session = await fetch(`${base}/api/auth/session`, { headers: { cookie: cookie() } });
  keep(session);
  const csrf = ((await session.json()) as { csrfToken: string }).csrfToken;
  return { cookie: cookie(), csrf, jar: [...jar].map(([name, value]) => ({ name, value })) };
}

/** Starts an empty internal-certificate draft for the demo factory as `session`'s user (internal.main); its id. */
export async function startDraftOverHttp(base: string, session: HttpSession): Promise<string> {
  const started = await fetch(`${base}/api/requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf },
    body: JSON.stringify({ kind: 'internalCertificate', facilityId: 'inf-almarai-foods', data: {} }),
  });
  if (started.status !== 201) throw new Error(`draft request: ${started.status} ${await started.text()}`);
  return ((await started.json()) as { id: string }).id;
}
