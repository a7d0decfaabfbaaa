import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Client, type TestApp } from '../helpers/app';
import { certificates } from '../../db/schema';

/*
 * Issue 11, point 6: private answers are not cached (Cache-Control: no-store), and the one GET that changes state
 * (marking the circular letter downloaded) needs the CSRF header.
 */

let t: TestApp;
let applicant: Client;
let staff: Client;

beforeAll(async () => {
  t = await createTestApp();
  applicant = await t.login('internal.main');
  staff = await t.login('registration');
}, 60_000);
afterAll(() => t?.close());

describe('Cache-Control: no-store on private answers', () => {
  it('session, requests, bills, certificates and their files, facilities, users', async () => {
    const [cert] = await t.database.db.select({ id: certificates.id }).from(certificates).limit(1);
    const urls: [Client, string][] = [
      [applicant, '/api/auth/session'],
      [t.anonymous, '/api/auth/session'],
      [applicant, '/api/requests'],
      [applicant, '/api/bills'],
      [staff, `/api/certificates/${cert.id}`],
      [staff, `/api/certificates/${cert.id}/pdf`],
      [applicant, '/api/Facility/GetUserFacilities'],
      [applicant, '/api/app/halal-user/is-external-user-downloaded-circular'],
      [applicant, '/api/requests/00000000-0000-4000-8000-000000000000/history'],
      [t.anonymous, '/api/bills'], // the refusal is private too
    ];
    for (const [client, url] of urls) {
      const res = await client.get(url);
      expect(res.statusCode, `${url}: ${res.statusCode}`).toBeLessThan(500);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('public answers to anonymous callers stay cacheable', async () => {
    const res = await t.anonymous.get('/api/public/hs-codes?search=0401');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBeUndefined();
  });
});

describe('the circular letter GET that changes state', () => {
  const URL = '/api/app/halal-user/set-user-download-circular';

  it('is refused without the CSRF header, and changes nothing', async () => {
    const user = await t.login('external');
    const res = await user.request({ method: 'GET', url: `${URL}?lang=en`, headers: { 'x-csrf-token': '' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('CsrfInvalid');
    expect((await user.get('/api/app/halal-user/is-external-user-downloaded-circular')).json()).toBe(false);
  });

  it('is accepted with it', async () => {
    const user = await t.login('external');
    const res = await user.get(URL);
    expect(res.statusCode, res.body).toBe(200);
    expect((await user.get('/api/app/halal-user/is-external-user-downloaded-circular')).json()).toBe(true);
  });
});
