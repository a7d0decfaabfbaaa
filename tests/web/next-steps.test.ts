import { describe, expect, it } from 'vitest';
import ar from '../../locales/ar/requests.json';
import en from '../../locales/en/requests.json';
import { nextStepsKeys } from '../../web/src/routes/requests/next-steps';

/*
 * walk1 #12: after submitting a shipment or a Halal mark request, which go straight to their bill with no reviewers,
 * the confirmation said "The request now goes to its reviewers…". It says what comes next: the payment.
 */
const texts = { ar, en } as const;
/** The first of the keys the locale has, as i18next resolves a list of keys. */
const resolve = (lang: 'ar' | 'en', keys: string[]) => {
  const next = texts[lang].confirmation.next as Record<string, string>;
  return keys.map((k) => next[k.replace('requests:confirmation.next.', '')]).find((v) => v !== undefined);
};

describe('next steps after submitting', () => {
  it('a request waiting for its payment speaks of paying, not of reviewers, in both languages', () => {
    for (const kind of ['shipment', 'externalHalalMark', 'internalHalalMark']) {
      expect(resolve('en', nextStepsKeys(kind, 'payment'))).toMatch(/pay/i);
      expect(resolve('en', nextStepsKeys(kind, 'payment'))).not.toMatch(/reviewer/i);
      expect(resolve('ar', nextStepsKeys(kind, 'payment'))).toMatch(/السداد/);
      expect(resolve('ar', nextStepsKeys(kind, 'payment'))).not.toMatch(/المراجعين/);
    }
  });

  it('a request in review keeps the review text; a service with steps of its own keeps them', () => {
    expect(resolve('en', nextStepsKeys('internalCertificate', 'registration'))).toBe(en.confirmation.next.default);
    expect(resolve('ar', nextStepsKeys('externalRenewal', 'registration'))).toBe(ar.confirmation.next.externalRenewal);
  });
});
