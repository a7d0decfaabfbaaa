import { expect } from 'vitest';
import { SYSTEM_ACTOR } from '../../machines/actor';
import { SERVICES, type RequestKind } from '../../machines/services';
import { VALID_DATA } from '../services/fixtures';
import type { Client, TestApp } from './app';
import { multipartBody, pdf } from './multipart';

/**
 * Requests as a person prepares them over HTTP: a draft started through POST /api/requests, its attachments really
 * uploaded to it, and its data the schema-valid fixture of its kind (tests/services/fixtures.ts) with those files' ids.
 */

export interface RequestJson {
  id: string;
  number: string;
  version: number;
  kind: string;
  status: { code: number; label: string };
  data: Record<string, unknown>;
  context: Record<string, unknown>;
  notices?: string[];
}

export const send = (c: Client, id: string, type: string, expectedVersion: number, payload?: Record<string, unknown>, lang = 'en') =>
  c.post(`/api/requests/${id}/events?lang=${lang}`, { type, expectedVersion, ...(payload ? { payload } : {}) });

/** Sends an event that must be accepted; returns the request after it. */
export async function accept(c: Client, id: string, type: string, payload?: Record<string, unknown>): Promise<RequestJson> {
  const current = (await c.get(`/api/requests/${id}`)).json() as RequestJson;
  const res = await send(c, id, type, current.version, payload);
  if (res.statusCode !== 200) throw new Error(`${type} refused: ${res.statusCode} ${res.body}`);
  return res.json() as RequestJson;
}

export async function uploadTo(c: Client, facilityPublicId: string, requestId: string, category: string, name = `${category}.pdf`): Promise<string> {
  const body = multipartBody({ name, type: 'application/pdf', content: pdf() });
  const res = await c.request({
    method: 'POST',
    url: `/api/attachments?facilityPublicId=${facilityPublicId}&category=${category}&requestId=${requestId}`,
    payload: body.payload,
    headers: body.headers,
  });
  if (res.statusCode !== 201) throw new Error(`upload ${category} refused: ${res.statusCode} ${res.body}`);
  return res.json().id as string;
}

/** Replaces every placeholder attachment id of the fixture with a file uploaded to the request (same category). */
async function withRealAttachments(c: Client, facilityPublicId: string, requestId: string, data: Record<string, unknown>): Promise<Record<string, unknown>> {
  const PLACEHOLDER = /^00000000-0000-4000-8000-\d{12}$/;
  const out = structuredClone(data);
  const visit = async (node: unknown, category: string): Promise<unknown> => {
    if (Array.isArray(node)) return Promise.all(node.map((n) => visit(n, category)));
    if (!node || typeof node !== 'object') return node;
    const o = node as Record<string, unknown>;
    const cat = typeof o.category === 'string' ? o.category : category;
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'string' && PLACEHOLDER.test(v)) {
        o[k] = await uploadTo(c, facilityPublicId, requestId, k === 'planAttachmentId' ? 'operationPlan' : k === 'attachmentId' ? 'testCertificate' : cat);
      } else o[k] = await visit(v, cat);
    }
    return o;
  };
  return (await visit(out, 'requestNote')) as Record<string, unknown>;
}

/**
 * A draft of `kind` with complete data, ready to submit. `data` overrides sections of the fixture; `certificateId`
 * names the subject certificate of renewals, changes and marks.
 */
export async function completeDraft(
  c: Client,
  kind: RequestKind,
  facilityId: string,
  opts: { data?: Record<string, unknown>; certificateId?: string } = {},
): Promise<RequestJson> {
  const started = await c.post('/api/requests', { kind, facilityId, ...(opts.certificateId ? { certificateId: opts.certificateId } : {}) });
  if (started.statusCode !== 201) throw new Error(`start ${kind} refused: ${started.statusCode} ${started.body}`);
  const draft = started.json() as RequestJson;
  const fixture = { ...VALID_DATA[kind](), ...(opts.data ?? {}) };
  const data = await withRealAttachments(c, facilityId, draft.id, fixture);
  // Only the kind's sections (a fixture never holds others).
  expect(Object.keys(data).every((k) => k in SERVICES[kind].sections)).toBe(true);
  const res = await send(c, draft.id, 'EDIT', draft.version, { data });
  if (res.statusCode !== 200) throw new Error(`EDIT ${kind} refused: ${res.statusCode} ${res.body}`);
  return res.json() as RequestJson;
}

/** Tells the request its bill is paid, as the payment portal's callback does (tests/server/payments.test.ts covers the callback). */
export async function confirmPayment(t: TestApp, id: string): Promise<void> {
  await t.app.engine.send(id, { type: 'PAYMENT_CONFIRMED' }, SYSTEM_ACTOR);
}
