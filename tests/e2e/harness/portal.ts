/**
 * The payment portal simulator as a walk's payer meets it (its own server, tests/helpers/simulators.ts): a bill's
 * payment registered there as start-payment.ts registers it, and the payer pressing Pay on its page.
 */
export interface PortalPayment {
  paymentId: string;
  /** The portal's page the payer opens. */
  paymentUrl: string;
}

/** Registers a 1,000 SAR + 150 VAT certificate fee under `reference`; the payer returns to, and the portal notifies, `callbackUrl`. */
export async function registerPortalPayment(simulatorsUrl: string, reference: string, lang: 'ar' | 'en', callbackUrl: string): Promise<PortalPayment> {
  const res = await fetch(`${simulatorsUrl}/simulators/payment-portal/payments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer simulator-key' },
    body: JSON.stringify({
      merchantReference: reference,
      amount: '1000.00',
      vat: '150.00',
      total: '1150.00',
      currency: 'SAR',
      description: { ar: 'رسوم الشهادة', en: 'Certificate fee' },
      language: lang,
      returnUrl: callbackUrl,
      callbackUrl,
    }),
  });
  if (res.status !== 201) throw new Error(`the payment portal simulator answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as PortalPayment;
}

/** The payer presses Pay on the portal's page: the portal's answer (303 to the signed return) is not followed. */
export function payOnPortalPage(paymentUrl: string, lang: 'ar' | 'en'): Promise<Response> {
  return fetch(paymentUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ action: 'pay', lang }).toString(),
    redirect: 'manual',
  });
}
