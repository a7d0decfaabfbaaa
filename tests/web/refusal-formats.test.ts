import { beforeAll, describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { apiErrorFromBody, messagesOf } from '../../web/src/api/errors';
import { initServerI18n } from '../../web/src/i18n';

/**
 * A refusal said again by the web after a language switch reads as the server said it: the web's i18next (set up as
 * the app sets it up, web/src/i18n.ts) has the same message formats as the server's (machines/message-formats.ts), so
 * the day sent raw in `params` is shown in the reader's language and a Latin reference is isolated in Arabic.
 */
beforeAll(() => initServerI18n('ar', {}));

/** The body the server answers a second refund record with (tests/server/payment-refunds.test.ts). */
const refused = () =>
  apiErrorFromBody(409, { error: { code: 'RefundAlreadyRecorded', message: 'نص الخادم', params: { reference: 'RF-2026/001', date: '2026-11-29' } } });

describe('a refusal with a reference and a day, said again in the web', () => {
  it('in Arabic: the day as the screens show it, the reference inside LTR isolates', () => {
    expect(messagesOf(refused(), i18next.getFixedT('ar'))).toEqual([
      'سُجّل استرداد هذه الدفعة من قبل (المرجع \u2066RF-2026/001\u2069، بتاريخ 29\u200f/11\u200f/2026)، ولا تُسترد الدفعة إلا مرة واحدة.',
    ]);
  });

  it('in English: the English day, the reference as it is', () => {
    expect(messagesOf(refused(), i18next.getFixedT('en'))).toEqual(['A refund has already been recorded for this payment (reference RF-2026/001, 29 Nov 2026): a payment is refunded once.']);
  });

  it('a moment sent as an instant is said in Riyadh time (the personal-data request refused within a day)', () => {
    const pending = apiErrorFromBody(409, { error: { code: 'GdprRequestPending', message: 'x', params: { after: '2026-11-29T22:30:00.000Z' } } });
    expect(messagesOf(pending, i18next.getFixedT('en'))).toEqual(['Your earlier personal-data request is still pending: a new copy can be asked for once a day, from 30 Nov 2026, 01:30.']);
  });
});
