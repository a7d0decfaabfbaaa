import type { Bilingual } from '../certificates/bilingual';
import { formatDualDate, formatSar } from '../certificates/bilingual';
import { toDualDate } from '../public/calendar';
import { COLORS, PdfWriter, drawFields, type BilingualField } from '../certificates/pdf/writer';
import { billServiceName, type BillView } from './bill-view';

/** The stored codes billServiceName reads, from the view the file prints. */
const rowOf = (bill: BillView) => ({ service: bill.service.code, feeKind: bill.feeKind.code });

const PAGE_WIDTH = 595.28;
const X0 = 50;
const WIDTH = PAGE_WIDTH - 2 * X0;

/**
 * The bill file: a bilingual A4 invoice with the number, payment reference, dates, service, request, facility,
 * the amount without VAT, the VAT and the total with VAT, and the status.
 */
export async function renderBillPdf(bill: BillView, t: Bilingual, vatRate: number): Promise<Buffer> {
  const w = new PdfWriter({ title: `${t.en('payments:bill.title')} ${bill.number}`, lang: 'ar' });
  const b = (tt: Bilingual['en'], key: string, params?: Record<string, unknown>) => tt(`payments:bill.${key}`, params);
  const title = { size: 22, weight: 'bold' as const, color: COLORS.brand };
  const half = WIDTH / 2 - 8;
  w.line(b(t.en, 'title'), X0, 50, half, title, { direction: 'ltr' });
  w.line(b(t.en, 'issuer'), X0, 82, half, { size: 10, color: COLORS.muted }, { direction: 'ltr' });
  w.line(b(t.ar, 'title'), X0 + half + 16, 48, half, title, { direction: 'rtl' });
  w.line(b(t.ar, 'issuer'), X0 + half + 16, 82, half, { size: 10, color: COLORS.muted }, { direction: 'rtl' });
  w.doc.rect(X0, 108, WIDTH, 2).fill(COLORS.brand);

  const sar = (v: string, tt: Bilingual['en']) => `${formatSar(v)} ${b(tt, 'currency')}`;
  const date = (iso: string | null, tt: Bilingual['en']) => (iso ? formatDualDate(toDualDate(new Date(iso)), tt) : '—');
  const rate = Math.round(vatRate * 10_000) / 100;
  const row = (key: string, en: string, ar: string, params?: Record<string, unknown>): BilingualField => ({
    en: { label: b(t.en, key, params), value: en },
    ar: { label: b(t.ar, key, params), value: ar },
  });
  const ref = bill.paymentReference;
  const fields: BilingualField[] = [
    row('number', bill.number, bill.number),
    row('paymentReference', ref ?? b(t.en, 'notIssued'), ref ?? b(t.ar, 'notIssued')),
    row('date', date(bill.date, t.en), date(bill.date, t.ar)),
    row('dueAt', date(bill.dueAt, t.en), date(bill.dueAt, t.ar)),
    ...(bill.paidAt ? [row('paidAt', date(bill.paidAt, t.en), date(bill.paidAt, t.ar))] : []),
    row('service', billServiceName(rowOf(bill), t.en), billServiceName(rowOf(bill), t.ar)),
    row(
      'feeKind',
      t.en(`payments:feeKind.${bill.feeKind.code}`, { defaultValue: bill.feeKind.code }),
      t.ar(`payments:feeKind.${bill.feeKind.code}`, { defaultValue: bill.feeKind.code }),
    ),
    row('requestNumber', bill.requestNumber ?? '—', bill.requestNumber ?? '—'),
    row('facility', bill.facility.nameEn, bill.facility.nameAr),
    row('status', t.en(`payments:billStatus.${bill.status.code}`), t.ar(`payments:billStatus.${bill.status.code}`)),
  ];
  let y = drawFields(w, fields, X0, 126, WIDTH, { bottom: 700 });

  // Amounts: a shaded summary, the total with VAT emphasised.
  y += 10;
  const amounts = [
    row('amount', sar(bill.amount, t.en), sar(bill.amount, t.ar)),
    row('vat', sar(bill.vat, t.en), sar(bill.vat, t.ar), { rate }),
    row('total', sar(bill.total, t.en), sar(bill.total, t.ar)),
  ];
  const ROW = 36;
  w.doc.rect(X0, y, WIDTH, amounts.length * ROW + 12).fill(COLORS.brandLight);
  y += 10;
  amounts.forEach((a, i) => {
    const last = i === amounts.length - 1;
    const label = { size: 9, color: COLORS.muted };
    const value = last ? { size: 14, weight: 'bold' as const, color: COLORS.brand } : { size: 12 };
    w.line(a.en.label, X0 + 12, y, half - 12, label, { direction: 'ltr' });
    w.line(a.en.value, X0 + 12, y + 12, half - 12, value, { direction: 'ltr' });
    w.line(a.ar.label, X0 + half + 16, y, half - 12, label, { direction: 'rtl' });
    w.line(a.ar.value, X0 + half + 16, y + 12, half - 12, value, { direction: 'rtl' });
    y += ROW;
  });
  y += 24;
  w.paragraph(b(t.en, 'footer'), X0, y, half, { size: 8.5, color: COLORS.muted }, { direction: 'ltr' });
  w.paragraph(b(t.ar, 'footer'), X0 + half + 16, y, half, { size: 8.5, color: COLORS.muted }, { direction: 'rtl' });
  return w.toBuffer();
}
