/**
 * Part of the production attack (tests/walk/production-attack.sh): hostile events on a request and another facility's
 * reach for it. The administrator (whose session cookie the shell passes in ADMIN_SESSION) creates two applicant
 * accounts; each signs in and adds its own external facility (the only kind production adds without the CR registry),
 * and the first starts a request. Prints one `ok`/`FAIL` line per check, like the shell script.
 *
 * Every refusal is checked as the person sees it: the status, the error code and the message in the language asked
 * for (the bundled locales/<lang>/errors.json text, not a bare key), and that nothing changed when the owner reads
 * the request again (version, state, history length).
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

const BASE = process.env.BASE ?? 'http://127.0.0.1:3999';
const ADMIN_SESSION = process.env.ADMIN_SESSION ?? '';
const RUN = process.env.RUN_ID ?? String(process.pid);

type Lang = 'ar' | 'en';
const ERRORS: Record<Lang, Record<string, string>> = {
  ar: JSON.parse(readFileSync('locales/ar/errors.json', 'utf8')),
  en: JSON.parse(readFileSync('locales/en/errors.json', 'utf8')),
};

let failed = 0;
function check(name: string, expected: unknown, actual: unknown) {
  const e = JSON.stringify(expected);
  const a = JSON.stringify(actual);
  if (e === a) console.log(`ok    ${name}`);
  else {
    failed++;
    console.log(`FAIL  ${name}: expected ${e}, got ${a}`);
  }
}

interface Answer {
  status: number;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

class Client {
  private cookies = new Map<string, string>();
  csrf = '';
  constructor(session?: string) {
    if (session) this.cookies.set('halal_session', session);
  }
  /** The cookies, CSRF token and language of a call made with another body (multipart). */
  headers(lang?: Lang): Record<string, string> {
    return {
      'x-forwarded-proto': 'https',
      cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': this.csrf,
      ...(lang ? { 'accept-language': lang } : {}),
    };
  }
  async call(method: string, path: string, opts: { body?: unknown; raw?: string | Buffer; type?: string; csrf?: boolean; lang?: Lang } = {}): Promise<Answer> {
    const headers: Record<string, string> = { 'x-forwarded-proto': 'https' };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (opts.csrf !== false && this.csrf) headers['x-csrf-token'] = this.csrf;
    if (opts.lang) headers['accept-language'] = opts.lang === 'en' ? 'en-US,en;q=0.9' : 'ar-SA,ar;q=0.9';
    let body: string | Buffer | undefined;
    if (opts.raw !== undefined) {
      body = opts.raw;
      headers['content-type'] = opts.type ?? 'application/json';
    } else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = opts.type ?? 'application/json';
    }
    const res = await fetch(BASE + path, { method, headers, body: Buffer.isBuffer(body) ? new Uint8Array(body) : body });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return { status: res.status, json: jsonOf(await res.text()) };
  }
  /**
   * A JSON body past the server's limit, sent as a careful client does (Expect: 100-continue, the body only once the
   * server asks for it): the server refuses it by its declared length, unread, and may close the connection while a
   * client is still uploading, which fetch reports as "fetch failed" instead of the refusal. Here the answer is what
   * the server sent, whatever happens to the upload after it; a connection lost before any answer is status 0.
   */
  oversized(method: string, path: string, body: unknown, lang: Lang): Promise<Answer> {
    const data = Buffer.from(JSON.stringify(body));
    const headers = { ...this.headers(lang), 'content-type': 'application/json', 'content-length': data.length, expect: '100-continue' };
    return new Promise((resolve) => {
      let answered = false;
      const req = request(BASE + path, { method, headers });
      req.on('continue', () => answered || req.end(data));
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('close', () => {
          resolve({ status: res.statusCode ?? 0, json: jsonOf(Buffer.concat(chunks).toString()) });
          req.destroy();
        });
      });
      req.on('error', (e) => answered || resolve({ status: 0, json: String(e) }));
    });
  }
  async session() {
    const s = await this.call('GET', '/api/auth/session');
    this.csrf = s.json.csrfToken;
    return s.json;
  }
  static async signIn(userName: string, password: string): Promise<Client> {
    const c = new Client();
    const res = await c.call('POST', '/api/auth/login', { body: { userName, password } });
    if (res.status !== 200) throw new Error(`sign-in of ${userName}: ${res.status} ${JSON.stringify(res.json)}`);
    await c.session();
    return c;
  }
}

function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The refusal as the person sees it: status, code, and the message in their language (the bundled text). */
const seen = (a: Answer, lang: Lang) => [a.status, a.json?.error?.code, a.json?.error?.message === ERRORS[lang][a.json?.error?.code] ? `${lang} text` : a.json?.error?.message];
const refusal = (status: number, code: string, lang: Lang) => [status, code, `${lang} text`];

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

async function applicantWithFacility(admin: Client, n: string): Promise<{ c: Client; facility: string; crFile: string }> {
  const userName = `attack.${n}.${RUN}`;
  const password = `Attack#${n}-2026xY`;
  const created = await admin.call('POST', '/api/identity/users', {
    body: { userName, name: `Attacker ${n.toUpperCase()}`, email: `${userName}@example.com`, password, roles: ['applicant'] },
  });
  if (created.status !== 200) throw new Error(`create ${userName}: ${created.status} ${JSON.stringify(created.json)}`);
  const c = await Client.signIn(userName, password);
  const files: Record<string, string> = {};
  for (const category of ['commercialRegistration', 'accreditationCertificate']) {
    const up = await c.call('POST', `/api/facility-attachments?category=${category}&fileName=${category}.pdf`, { raw: PDF, type: 'application/pdf' });
    if (up.status !== 200) throw new Error(`upload ${category}: ${up.status} ${JSON.stringify(up.json)}`);
    files[category] = up.json.id;
  }
  const facility = await c.call('POST', '/api/Facility/CreateExternal', {
    body: {
      nameAr: `مصنع المهاجم ${n === 'a' ? 'الأول' : 'الثاني'}`,
      nameEn: `Attacker Factory ${n.toUpperCase()}`,
      registrationNumber: `TR-ATK-${n}-${RUN}`,
      countryCode: 'TR',
      city: 'Ankara',
      address: 'Organize Sanayi Bolgesi',
      operations: ['slaughtering'],
      productionLinesCount: 1,
      criticalPointsCount: 1,
      permanentEmployeeCount: 10,
      shiftsCount: 1,
      productionArea: '100',
      hasExtraBranches: false,
      attachments: Object.values(files).map((id) => ({ id })),
    },
  });
  if (facility.status !== 200) throw new Error(`facility ${n}: ${facility.status} ${JSON.stringify(facility.json)}`);
  await c.session(); // the new membership is in the session's facility list from the next call on
  return { c, facility: facility.json.publicId, crFile: files.commercialRegistration };
}

async function main() {
  const admin = new Client(ADMIN_SESSION);
  await admin.session();
  const a = await applicantWithFacility(admin, 'a');
  const b = await applicantWithFacility(admin, 'b');
  check('two applicants each add their own facility through the API', true, !!a.facility && !!b.facility && a.facility !== b.facility);

  const started = await a.c.call('POST', '/api/requests', { body: { kind: 'externalCertificate', facilityId: a.facility } });
  check('applicant A starts a request for their facility', 201, started.status);
  const id: string = started.json.id;
  const events = `/api/requests/${id}/events`;
  const read = async () => {
    const r = await a.c.call('GET', `/api/requests/${id}`);
    const h = await a.c.call('GET', `/api/requests/${id}/history`);
    return { status: r.status, version: r.json.version, state: r.json.state, data: r.json.data, history: h.json.items?.length };
  };
  const before = await read();
  check('the owner reads the draft', [200, 1], [before.status, before.version]);
  const v = before.version as number;

  // ---- (a) malformed events on the owner's own request ----
  const deep = (n: number) => '{"x":'.repeat(n) + '1' + '}'.repeat(n);
  const malformed: [name: string, send: () => Promise<Answer>, status: number, code: string, lang: Lang][] = [
    ['an event whose type is a number', () => a.c.call('POST', events, { body: { type: 5, expectedVersion: v }, lang: 'en' }), 400, 'ValidationFailed', 'en'],
    ['an event whose type is lower-case words', () => a.c.call('POST', events, { body: { type: 'cancel it', expectedVersion: v }, lang: 'ar' }), 400, 'ValidationFailed', 'ar'],
    ['an event without expectedVersion', () => a.c.call('POST', events, { body: { type: 'DELETE' }, lang: 'en' }), 400, 'ValidationFailed', 'en'],
    ['an event with expectedVersion as a string', () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: String(v) }, lang: 'ar' }), 400, 'ValidationFailed', 'ar'],
    ['an event with expectedVersion 0', () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: 0 }, lang: 'en' }), 400, 'ValidationFailed', 'en'],
    ['an event with expectedVersion 1.5', () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: 1.5 }, lang: 'en' }), 400, 'ValidationFailed', 'en'],
    ['an event with a stale expectedVersion', () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: v + 5 }, lang: 'en' }), 409, 'ConcurrencyConflict', 'en'],
    ['an event with a stale expectedVersion (Arabic)', () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: v + 5 }, lang: 'ar' }), 409, 'ConcurrencyConflict', 'ar'],
    ['an event with expectedVersion past the database integer', () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: 2 ** 31 }, lang: 'en' }), 409, 'ConcurrencyConflict', 'en'],
    ['an event with expectedVersion past the safe integers', () => a.c.call('POST', events, { raw: `{"type":"DELETE","expectedVersion":9007199254740993}`, lang: 'en' }), 400, 'ValidationFailed', 'en'],
    ['an event type of 100000 letters', () => a.c.call('POST', events, { body: { type: 'A'.repeat(100_000), expectedVersion: v }, lang: 'en' }), 409, 'TransitionNotAllowed', 'en'],
    ['an unknown event type', () => a.c.call('POST', events, { body: { type: 'GRANT_CERTIFICATE_NOW', expectedVersion: v }, lang: 'en' }), 409, 'TransitionNotAllowed', 'en'],
    ['a staff event sent by the applicant', () => a.c.call('POST', events, { body: { type: 'ACCEPT', expectedVersion: v }, lang: 'ar' }), 409, 'TransitionNotAllowed', 'ar'],
    ['a payload that is an array', () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: v, payload: [1, 2] }, lang: 'en' }), 400, 'ValidationFailed', 'en'],
    ['a payload that is a string', () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: v, payload: 'drop table requests' }, lang: 'en' }), 400, 'ValidationFailed', 'en'],
    ['a body that is not an object', () => a.c.call('POST', events, { raw: '"DELETE"', lang: 'en' }), 400, 'ValidationFailed', 'en'],
    ['a payload nested 40 deep', () => a.c.call('POST', events, { raw: `{"type":"EDIT","expectedVersion":${v},"payload":${deep(40)}}`, lang: 'en' }), 400, 'InputTooDeep', 'en'],
    ['a payload nested 200000 deep', () => a.c.call('POST', events, { raw: `{"type":"EDIT","expectedVersion":${v},"payload":${deep(200000)}}`, lang: 'ar' }), 400, 'InputTooDeep', 'ar'],
    ['a payload with a NUL character', () => a.c.call('POST', events, { raw: `{"type":"EDIT","expectedVersion":${v},"payload":{"note":"a\\u0000b"}}`, lang: 'en' }), 400, 'InputUnusableText', 'en'],
    ['a payload with __proto__', () => a.c.call('POST', events, { raw: `{"type":"EDIT","expectedVersion":${v},"payload":{"__proto__":{"isStaff":true,"version":99}}}`, lang: 'en' }), 400, 'BadRequest', 'en'],
    ['a body with __proto__ at its root', () => a.c.call('POST', events, { raw: `{"__proto__":{"expectedVersion":${v}},"type":"DELETE"}`, lang: 'ar' }), 400, 'BadRequest', 'ar'],
    ['a payload with constructor.prototype', () => a.c.call('POST', events, { raw: `{"type":"EDIT","expectedVersion":${v},"payload":{"constructor":{"prototype":{"isStaff":true}}}}`, lang: 'en' }), 400, 'BadRequest', 'en'],
    ['an event sent as text/plain', () => a.c.call('POST', events, { raw: JSON.stringify({ type: 'DELETE', expectedVersion: v }), type: 'text/plain', lang: 'en' }), 400, 'ValidationFailed', 'en'],
    ['an event sent as a form', () => a.c.call('POST', events, { raw: `type=DELETE&expectedVersion=${v}`, type: 'application/x-www-form-urlencoded', lang: 'ar' }), 400, 'BadRequest', 'ar'],
    ['an event without the CSRF token', () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: v }, csrf: false, lang: 'en' }), 403, 'CsrfInvalid', 'en'],
    ['an event with the other applicant’s CSRF token', () => withToken(a.c, b.c.csrf, () => a.c.call('POST', events, { body: { type: 'DELETE', expectedVersion: v }, lang: 'ar' })), 403, 'CsrfInvalid', 'ar'],
  ];
  for (const [name, send, status, code, lang] of malformed) {
    check(`${name} is refused in ${lang === 'en' ? 'English' : 'Arabic'}`, refusal(status, code, lang), seen(await send(), lang));
  }
  // Payloads of megabytes, shaped like a real edit: past the signed-in JSON limit (4 MB) refused unread, below it
  // refused by the section's schema; never a 5xx.
  const big = (data: unknown) => a.c.call('POST', events, { body: { type: 'EDIT', expectedVersion: v, payload: { data } }, lang: 'en' });
  const huge = { type: 'EDIT', expectedVersion: v, payload: { data: { products: [{ nameEn: 'a'.repeat(8_000_000) }] } } };
  check('an edit with an 8 MB product name is refused unread in English', refusal(413, 'BodyTooLarge', 'en'), seen(await a.c.oversized('POST', events, huge, 'en'), 'en'));
  const many = await big({ products: Array.from({ length: 150_000 }, () => ({ nameEn: 'Beef' })) });
  check('an edit with 150000 products is refused with a 4xx in English', [true, 'en text'], [many.status >= 400 && many.status < 500, seen(many, 'en')[2]]);
  const afterMalformed = await read();
  check('after the malformed events the request is unchanged', [before.version, before.state, before.history], [afterMalformed.version, afterMalformed.state, afterMalformed.history]);
  check('after the malformed events its data is unchanged', JSON.stringify(before.data), JSON.stringify(afterMalformed.data));
  const bSession = await b.c.call('GET', '/api/auth/session');
  check('after the pollution attempts an applicant is still not staff', false, bSession.json.isStaff);
  check('after the pollution attempts an anonymous caller is still refused', 401, (await new Client().call('GET', `/api/requests/${id}`)).status);

  // ---- (b) the other facility's applicant reaches for the request ----
  for (const [path, lang] of [[`/api/requests/${id}`, 'en'], [`/api/requests/${id}`, 'ar'], [`/api/requests/${id}/history`, 'en'], [`/api/requests/${id}/actions`, 'ar'], [`/api/requests/${id}/people`, 'en'], [`/api/requests/${id}/fees`, 'en'], [`/api/requests/${id}/deletion`, 'ar']] as const) {
    check(`another facility's applicant reading ${path.replace(id, ':id')} gets 404 in ${lang === 'en' ? 'English' : 'Arabic'}`, refusal(404, 'EntityNotFound', lang), seen(await b.c.call('GET', path, { lang }), lang));
  }
  for (const [type, version, lang] of [['DELETE', v, 'en'], ['DELETE', v + 3, 'ar'], ['SUBMIT', v, 'en'], ['EDIT', v, 'ar']] as const) {
    const payload = type === 'SUBMIT' ? { agreementAccepted: true } : type === 'EDIT' ? { sections: {} } : {};
    check(
      `another facility's applicant sending ${type} (version ${version === v ? 'current' : 'stale'}) gets 404 in ${lang === 'en' ? 'English' : 'Arabic'}`,
      refusal(404, 'EntityNotFound', lang),
      seen(await b.c.call('POST', events, { body: { type, expectedVersion: version, payload }, lang }), lang),
    );
  }
  for (const bad of ["x' OR '1'='1", '00000000-0000-4000-8000-00000000000g', '..%2f..%2fadmin', 'a'.repeat(100)]) {
    check(`a request id like ${bad.slice(0, 24)} is a 404 in English`, refusal(404, 'EntityNotFound', 'en'), seen(await b.c.call('GET', `/api/requests/${encodeURIComponent(bad)}`, { lang: 'en' }), 'en'));
  }
  const foreignStart = await b.c.call('POST', '/api/requests', { body: { kind: 'externalCertificate', facilityId: a.facility }, lang: 'en' });
  check("another facility's applicant cannot start a request for it", refusal(404, 'EntityNotFound', 'en'), seen(foreignStart, 'en'));
  const queue = await b.c.call('GET', '/api/queues/applicant');
  check("the request is not in the other applicant's queue", [200, false], [queue.status, JSON.stringify(queue.json).includes(id)]);
  const file = await b.c.call('GET', `/api/facility-attachments/${a.crFile}`, { lang: 'en' });
  check("another facility's applicant cannot download its registration file", refusal(404, 'AttachmentNotFound', 'en'), seen(file, 'en'));
  // The request's own files: the owner uploads one; the other applicant can neither list, fetch, remove nor add. The
  // file calls answer 403 with the spec's "not authorized" messages (tests/server/attachments.test.ts), given to any
  // non-member whether or not the facility exists, so they reveal nothing the request's 404 hides.
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), 'note.pdf');
  const upload = await fetch(`${BASE}/api/attachments?facilityPublicId=${a.facility}&category=requestNote&requestId=${id}`, { method: 'POST', headers: a.c.headers(), body: form });
  const fileId: string = (await upload.json()).id;
  check('the owner uploads a file to the request', 201, upload.status);
  const foreignUpload = await fetch(`${BASE}/api/attachments?facilityPublicId=${a.facility}&category=requestNote&requestId=${id}`, { method: 'POST', headers: b.c.headers('en'), body: form });
  check("another facility's applicant cannot add a file to the request", refusal(403, 'UploadUnauthorizedUpload', 'en'), seen({ status: foreignUpload.status, json: await foreignUpload.json() }, 'en'));
  check("another facility's applicant cannot list the request's files", refusal(403, 'NotAuthorized', 'ar'), seen(await b.c.call('GET', `/api/attachments?facilityPublicId=${a.facility}&requestId=${id}`, { lang: 'ar' }), 'ar'));
  const foreignDownload = await b.c.call('GET', `/api/attachments/${fileId}/download`, { lang: 'en' });
  check("another facility's applicant cannot download the request's file", [...refusal(403, 'UploadUnauthorizedDownload', 'en'), false], [...seen(foreignDownload, 'en'), JSON.stringify(foreignDownload.json).includes('%PDF')]);
  check("another facility's applicant cannot remove the request's file", refusal(403, 'NotAuthorized', 'ar'), seen(await b.c.call('DELETE', `/api/attachments/${fileId}`, { lang: 'ar' }), 'ar'));
  const files = await a.c.call('GET', `/api/attachments?facilityPublicId=${a.facility}&requestId=${id}`);
  check("the owner still has the request's file", [200, 1], [files.status, files.json.length]);
  check("another facility's applicant cannot read the facility", refusal(404, 'NotFacilityMember', 'en'), seen(await b.c.call('GET', `/api/Facility/GetFacilityByPublicId?publicId=${a.facility}`, { lang: 'en' }), 'en'));
  const afterForeign = await read();
  check('after the other facility’s attempts the request is unchanged', [before.version, before.state, before.history], [afterForeign.version, afterForeign.state, afterForeign.history]);

  // The owner can still act on it: the refusals did not break the request. A section's unknown fields are dropped
  // by its schema (by design: drafts keep what the service knows), so 1 MB of them is neither stored nor in the history.
  const edit = await a.c.call('POST', events, {
    body: { type: 'EDIT', expectedVersion: v, payload: { data: { factory: { facilityPublicId: a.facility, productionLines: 2, note: 'a'.repeat(1_000_000) } } } },
    lang: 'en',
  });
  check('the owner can still edit the request afterwards', [200, v + 1], [edit.status, edit.json?.version]);
  const kept = JSON.stringify([(await a.c.call('GET', `/api/requests/${id}`)).json, (await a.c.call('GET', `/api/requests/${id}/history`)).json]);
  check('an unknown 1 MB field of an accepted edit is kept nowhere', [true, false], [kept.includes('"productionLines":2'), kept.length > 100_000]);
}

/** Runs one call with another CSRF token in the header (the cookie secret stays the caller's). */
async function withToken<T>(c: Client, token: string, f: () => Promise<T>): Promise<T> {
  const own = c.csrf;
  c.csrf = token;
  try {
    return await f();
  } finally {
    c.csrf = own;
  }
}

main().then(
  () => process.exit(failed ? 1 : 0),
  (err) => {
    console.log(`FAIL  the request attack could not run: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
