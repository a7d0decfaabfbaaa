import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { escapeHtml } from '../../lib/escape-html';

export interface SimulatedSms {
  id: string;
  to: string;
  from: string;
  text: string;
  receivedAt: string;
}

/** How many messages the simulator keeps (newest first); older ones drop off. */
const KEEP = 500;
const E164 = /^\+[1-9]\d{7,14}$/;

/** Links in a message become clickable so a person can follow a set-password link from the page. */
const linkify = (s: string) => escapeHtml(s).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>');

/**
 * SMS gateway simulator: `POST /messages` (bearer key, `{ to, from, text }`) stores the message; `GET /` is a page a
 * person reads the OTP from; `GET /messages?to=` is the same list as JSON for tests. Messages live in this
 * process's memory: it stands in for a phone, not for a record (the server's own log is the sms_messages table).
 */
export const smsSimulator = (apiKey: string): FastifyPluginAsync =>
  async (app) => {
    const messages: SimulatedSms[] = [];

    app.post<{ Body: { to?: string; from?: string; text?: string } }>('/messages', { config: { csrf: false } }, async (request, reply) => {
      if (request.headers.authorization !== `Bearer ${apiKey}`) return reply.status(401).send({ error: 'unauthorized' });
      const { to, from, text } = request.body ?? {};
      if (!to || !E164.test(to)) return reply.status(400).send({ error: 'invalid_number' });
      if (!text) return reply.status(400).send({ error: 'empty_text' });
      const sms: SimulatedSms = { id: randomUUID(), to, from: from ?? '', text, receivedAt: new Date().toISOString() };
      messages.unshift(sms);
      messages.length = Math.min(messages.length, KEEP);
      return reply.status(201).send({ id: sms.id, status: 'accepted' });
    });

    app.get<{ Querystring: { to?: string } }>('/messages', async (request) => {
      const to = request.query.to;
      return { items: to ? messages.filter((m) => m.to === to) : messages };
    });

    app.get<{ Querystring: { to?: string } }>('/', async (request, reply) => {
      const to = request.query.to;
      const shown = to ? messages.filter((m) => m.to === to) : messages;
      const rows = shown
        .map(
          (m) =>
            `<tr data-testid="sms"><td class="to">${escapeHtml(m.to)}</td><td>${escapeHtml(new Date(m.receivedAt).toLocaleString('en-GB'))}</td><td class="text" dir="auto">${linkify(m.text)}</td></tr>`,
        )
        .join('');
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5">
<title>SMS simulator</title><style>body{font-family:system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;width:100%}
td,th{border:1px solid #ccc;padding:.5rem;text-align:start;vertical-align:top}.text{white-space:pre-wrap}</style></head>
<body><h1>SMS simulator</h1><p>Messages the portal sent, newest first. This page refreshes every 5 seconds.</p>
<form method="get"><label>Phone <input name="to" value="${escapeHtml(to ?? '')}" placeholder="+9665XXXXXXXX"></label> <button>Filter</button></form>
<table><thead><tr><th>To</th><th>Received</th><th>Message</th></tr></thead><tbody>${rows || '<tr><td colspan="3">No messages yet.</td></tr>'}</tbody></table></body></html>`;
      return reply.type('text/html; charset=utf-8').send(html);
    });
  };
