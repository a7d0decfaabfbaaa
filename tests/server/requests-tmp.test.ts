import { it } from 'vitest';
import { createTestApp } from '../helpers/app';
it('x', async () => {
  const t = await createTestApp();
  const c = await t.login('internal.main');
  const r = (await c.post('/api/requests', { kind: 'internalCertificate', facilityId: 'inf-almarai-foods' })).json();
  const e = await c.post(`/api/requests/${r.id}/events?lang=en`, { type: 'SUBMIT', expectedVersion: 1, payload: {} });
  console.log(e.body);
  const h = await c.get(`/api/requests/${r.id}/history?lang=ar`);
  console.log(h.body.slice(0, 400));
  await t.close();
});
