import type { CertificateView } from './certificate-view';
import { countryNames } from '../public/countries';
import { formatDualDate, type Bilingual } from './bilingual';
import { qrPng } from './qr';
import { COLORS, PdfWriter, drawFields, type BilingualField, type TextStyle } from './pdf/writer';

const PAGE = { width: 595.28, height: 841.89 };
const X0 = 50;
const WIDTH = PAGE.width - 2 * X0;
/** Content stops above the footer line. */
const BOTTOM = PAGE.height - 72;
const QR_SIZE = 104;

const d = (t: Bilingual['en'], key: string, params?: Record<string, unknown>) => t(`payments:certificate.document.${key}`, params);

/** The document's title and opening sentence by what it certifies: a shipment, a CB's designation, or a facility (the rest). */
const documentTexts = (kind: string) =>
  kind === 'shipment'
    ? { title: 'shipmentTitle', intro: 'shipmentIntro' }
    : kind === 'cbDesignation'
      ? { title: 'cbTitle', intro: 'cbIntro' }
      : { title: 'title', intro: 'intro' };

/** The frame, title block and running footer of every page; returns where content starts. */
function drawPageChrome(w: PdfWriter, view: CertificateView, t: Bilingual, first: boolean): number {
  const { doc } = w;
  doc.rect(18, 18, PAGE.width - 36, PAGE.height - 36).lineWidth(2).strokeColor(COLORS.brand).stroke();
  doc.rect(24, 24, PAGE.width - 48, PAGE.height - 48).lineWidth(0.5).strokeColor(COLORS.brand).stroke();
  const foot: TextStyle = { size: 6.5, color: COLORS.muted };
  w.paragraph(d(t.en, 'footer'), X0, PAGE.height - 64, WIDTH / 2 - 8, foot, { direction: 'ltr' });
  w.paragraph(d(t.ar, 'footer'), X0 + WIDTH / 2 + 8, PAGE.height - 64, WIDTH / 2 - 8, foot, { direction: 'rtl' });
  if (!first) {
    w.line(`${view.number}`, X0, 40, WIDTH, { size: 10, weight: 'bold', color: COLORS.brand }, { direction: 'ltr', align: 'center' });
    return 70;
  }
  const titleStyle: TextStyle = { size: 24, weight: 'bold', color: COLORS.brand };
  const sub: TextStyle = { size: 10, color: COLORS.muted };
  const issuerEn = view.issuer ? view.issuer.nameEn : d(t.en, 'issuer');
  const issuerAr = view.issuer ? view.issuer.nameAr : d(t.ar, 'issuer');
  const { title, intro } = documentTexts(view.kind);
  w.line(d(t.en, title), X0, 48, WIDTH / 2 - 50, titleStyle, { direction: 'ltr' });
  w.paragraph(issuerEn, X0, 84, WIDTH / 2 - 50, sub, { direction: 'ltr' });
  w.line(d(t.ar, title), X0 + WIDTH / 2 + 50, 44, WIDTH / 2 - 50, { ...titleStyle, size: 26 }, { direction: 'rtl' });
  w.paragraph(issuerAr, X0 + WIDTH / 2 + 50, 84, WIDTH / 2 - 50, sub, { direction: 'rtl' });
  drawEmblem(w, PAGE.width / 2, 78, t);
  // Certificate number band.
  doc.rect(X0, 124, WIDTH, 40).fill(COLORS.brandLight);
  w.line(d(t.en, 'number'), X0 + 12, 138, 120, { size: 10, color: COLORS.muted }, { direction: 'ltr' });
  w.line(d(t.ar, 'number'), X0 + WIDTH - 132, 136, 120, { size: 10, color: COLORS.muted }, { direction: 'rtl' });
  w.line(view.number, X0, 134, WIDTH, { size: 17, weight: 'bold', color: COLORS.brand }, { direction: 'ltr', align: 'center' });
  // The attestation sentence, both languages.
  const half = WIDTH / 2 - 8;
  const hEn = w.paragraph(d(t.en, intro), X0, 174, half, { size: 9 }, { direction: 'ltr' });
  const hAr = w.paragraph(d(t.ar, intro), X0 + half + 16, 174, half, { size: 9 }, { direction: 'rtl' });
  return 174 + Math.max(hEn, hAr) + 10;
}

/** A round seal with the word Halal in both languages. */
function drawEmblem(w: PdfWriter, cx: number, cy: number, t: Bilingual) {
  const { doc } = w;
  doc.circle(cx, cy, 34).lineWidth(2.5).strokeColor(COLORS.brand).stroke();
  doc.circle(cx, cy, 29).lineWidth(0.75).strokeColor(COLORS.brand).stroke();
  w.line(t.ar('payments:mark.halal'), cx - 30, cy - 24, 60, { size: 18, weight: 'bold', color: COLORS.brand }, { direction: 'rtl', align: 'center' });
  w.line(t.en('payments:mark.halal'), cx - 30, cy + 4, 60, { size: 9, weight: 'bold', color: COLORS.brand }, { direction: 'ltr', align: 'center' });
}

function fieldsOf(view: CertificateView, t: Bilingual): BilingualField[] {
  const both = (key: string, en: string, ar: string): BilingualField => ({
    en: { label: d(t.en, key), value: en },
    ar: { label: d(t.ar, key), value: ar },
  });
  const scope = (tt: Bilingual['en']) => (view.scope ? tt(`payments:certificate.scope.${view.scope}`, { defaultValue: view.scope }) : '');
  const names = view.holder.countryCode ? countryNames(view.holder.countryCode) : { countryNameAr: '', countryNameEn: '' };
  const place = (lang: 'ar' | 'en') =>
    [view.holder.city, lang === 'ar' ? names.countryNameAr : names.countryNameEn].filter(Boolean).join(lang === 'ar' ? '، ' : ', ');
  const fields = [
    both('holder', view.holder.nameEn, view.holder.nameAr),
    both('registrationNumber', view.holder.registrationNumber ?? '', view.holder.registrationNumber ?? ''),
    both('address', place('en'), place('ar')),
  ];
  if (view.issuer) fields.push(both('issuedBy', view.issuer.nameEn, view.issuer.nameAr));
  if (view.scope) fields.push(both('scope', scope(t.en), scope(t.ar)));
  if (view.categories.length) fields.push(both('categories', view.categories.join(', '), view.categories.join('، ')));
  fields.push(
    both('issuedAt', formatDualDate(view.issuedAt, t.en), formatDualDate(view.issuedAt, t.ar)),
    // A certificate renewed before its expiry has run without a break since before its renewal's issue date.
    ...(view.validFrom.gregorian !== view.issuedAt.gregorian ? [both('validFrom', formatDualDate(view.validFrom, t.en), formatDualDate(view.validFrom, t.ar))] : []),
    both('expiresAt', formatDualDate(view.expiresAt, t.en), formatDualDate(view.expiresAt, t.ar)),
    both('status', t.en(`payments:certificate.status.${view.status.public}`), t.ar(`payments:certificate.status.${view.status.public}`)),
  );
  return fields;
}

/** Product table: English columns on the left, the HS code in the middle, Arabic columns on the right. */
/** A shipment line's quantity and net weight with its unit, in one language. */
function goodsAmount(tt: Bilingual['en'], p: CertificateView['products'][number]): string {
  if (p.netWeight === undefined) return '';
  const weight = { weight: p.netWeight, unit: p.unit !== undefined ? d(tt, `units.${p.unit}`) : '' };
  return p.quantity !== undefined ? d(tt, 'quantityWeight', { ...weight, count: p.quantity }) : d(tt, 'weight', weight);
}

function drawProducts(w: PdfWriter, view: CertificateView, t: Bilingual, y: number, newPage: () => number): number {
  // A shipment certificate lists its goods with their quantity and net weight where the others show the brand.
  const shipment = view.kind === 'shipment';
  const second = shipment ? 'netWeight' : 'brand';
  const cols = [
    { key: 'product', width: 124, dir: 'ltr' as const, lang: 'en' as const },
    { key: second, width: 75, dir: 'ltr' as const, lang: 'en' as const },
    { key: 'hsCode', width: 92, dir: 'ltr' as const, lang: 'en' as const },
    { key: second, width: 75, dir: 'rtl' as const, lang: 'ar' as const },
    { key: 'product', width: WIDTH - 366, dir: 'rtl' as const, lang: 'ar' as const },
  ];
  const cell: TextStyle = { size: 9 };
  // The middle column also carries each product's number in the national food authority's system (spec 02
  // "Product"), under its HS code: what an inspector matches the goods against.
  const small: TextStyle = { size: 6.5 };
  const head: TextStyle = { size: 8.5, weight: 'bold', color: COLORS.brand };
  const header = (top: number) => {
    w.doc.rect(X0, top, WIDTH, 20).fill(COLORS.brandLight);
    let x = X0;
    for (const c of cols) {
      if (c.key === 'hsCode') {
        const h = { ...head, size: 6 };
        w.line(`${d(t.en, 'hsCode')} / ${d(t.ar, 'hsCode')}`, x + 3, top + 2.5, c.width - 6, h, { direction: 'ltr', align: 'center' });
        w.line(`${d(t.en, 'productNumber')} / ${d(t.ar, 'productNumber')}`, x + 3, top + 11, c.width - 6, h, { direction: 'ltr', align: 'center' });
      } else w.line(d(t[c.lang], c.key), x + 4, top + 5, c.width - 8, head, { direction: c.dir });
      x += c.width;
    }
    return top + 24;
  };
  if (y + 60 > BOTTOM) y = newPage();
  const heading = shipment ? 'goods' : 'products';
  w.line(d(t.en, heading), X0, y, WIDTH / 2, { size: 12, weight: 'bold', color: COLORS.brand }, { direction: 'ltr' });
  w.line(d(t.ar, heading), X0 + WIDTH / 2, y, WIDTH / 2, { size: 12, weight: 'bold', color: COLORS.brand }, { direction: 'rtl' });
  y = header(y + 20);
  if (!view.products.length) {
    w.line(d(t.en, 'noProducts'), X0 + 4, y, WIDTH / 2, cell, { direction: 'ltr' });
    w.line(d(t.ar, 'noProducts'), X0 + WIDTH / 2, y, WIDTH / 2 - 4, cell, { direction: 'rtl' });
    return y + 20;
  }
  for (const p of view.products) {
    const values = shipment
      ? [p.nameEn, goodsAmount(t.en, p), p.hsCode ?? '', goodsAmount(t.ar, p), p.nameAr]
      : [p.nameEn, p.brandEn ?? '', p.hsCode ?? '', p.brandAr ?? '', p.nameAr];
    const numberHeight = p.productNumber ? w.lineHeight(small) - 1 : 0;
    const height = Math.max(...cols.map((c, i) => w.measure(values[i] || '—', c.width - 10, cell, c.dir) + (c.key === 'hsCode' ? numberHeight : 0))) + 6;
    if (y + height > BOTTOM) y = header(newPage());
    let x = X0;
    cols.forEach((c, i) => {
      const used = w.paragraph(values[i] || '—', x + 5, y, c.width - 10, cell, { direction: c.dir, align: c.key === 'hsCode' ? 'center' : undefined });
      if (c.key === 'hsCode' && p.productNumber) w.line(p.productNumber, x + 3, y + used - 1, c.width - 6, small, { direction: 'ltr', align: 'center' });
      x += c.width;
    });
    y += height;
    w.doc.moveTo(X0, y - 3).lineTo(X0 + WIDTH, y - 3).lineWidth(0.4).strokeColor(COLORS.rule).stroke();
  }
  return y;
}

/** QR code in the middle, what it is for on each side. */
async function drawVerification(w: PdfWriter, view: CertificateView, t: Bilingual, y: number) {
  const side = (WIDTH - QR_SIZE) / 2 - 16;
  w.doc.image(await qrPng(view.verificationUrl), X0 + side + 16, y, { width: QR_SIZE, height: QR_SIZE });
  const blocks = [
    { tt: t.en, x: X0, dir: 'ltr' as const },
    { tt: t.ar, x: X0 + side + QR_SIZE + 32, dir: 'rtl' as const },
  ];
  for (const b of blocks) {
    let yy = y + 16;
    yy += w.paragraph(d(b.tt, 'scan'), b.x, yy, side, { size: 11, weight: 'bold', color: COLORS.brand }, { direction: b.dir });
    yy += 4;
    yy += w.paragraph(`${d(b.tt, 'verificationCode')}: ${view.verificationCode}`, b.x, yy, side, { size: 9 }, { direction: b.dir });
    w.paragraph(view.verificationUrl, b.x, yy + 2, side, { size: 7, color: COLORS.muted }, { direction: 'ltr', align: b.dir === 'rtl' ? 'right' : 'left' });
  }
}

/** A diagonal word across the page when the certificate is not in force, so a printout cannot pass as valid. */
function drawStatusWatermark(w: PdfWriter, view: CertificateView, t: Bilingual) {
  const s = view.status.public;
  if (s === 'active' || s === 'expiringSoon') return;
  const text = `${t.en(`payments:certificate.status.${s}`)} — ${t.ar(`payments:certificate.status.${s}`)}`;
  w.doc.save();
  w.doc.rotate(-30, { origin: [PAGE.width / 2, PAGE.height / 2] });
  w.doc.opacity(0.18);
  w.line(text, 0, PAGE.height / 2 - 30, PAGE.width, { size: 56, weight: 'bold', color: '#b42318' }, { direction: 'ltr', align: 'center' });
  w.doc.restore();
}

/**
 * The bilingual certificate document (A4): title block, holder and validity fields in English and Arabic side by
 * side, dates in the Gregorian and Umm al-Qura calendars, the product table (continued on further pages when long),
 * and a QR code of the public verification URL.
 */
export async function renderCertificatePdf(view: CertificateView, t: Bilingual): Promise<Buffer> {
  const w = new PdfWriter({ title: `${t.en(`payments:certificate.document.${documentTexts(view.kind).title}`)} ${view.number}`, lang: 'ar', bufferPages: true });
  let y = drawPageChrome(w, view, t, true);
  const newPage = () => {
    w.doc.addPage();
    return drawPageChrome(w, view, t, false);
  };
  y = drawFields(w, fieldsOf(view, t), X0, y, WIDTH, { bottom: BOTTOM, onNewPage: newPage });
  y = drawProducts(w, view, t, y + 10, newPage);
  if (y + QR_SIZE + 12 > BOTTOM) y = newPage();
  await drawVerification(w, view, t, Math.max(y + 12, BOTTOM - QR_SIZE));
  const range = w.doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    w.doc.switchToPage(i);
    drawStatusWatermark(w, view, t);
    if (range.count > 1) {
      const label = `${t.en('payments:certificate.document.page', { page: i + 1, pages: range.count })}`;
      w.line(label, X0, PAGE.height - 40, WIDTH, { size: 7, color: COLORS.muted }, { direction: 'ltr', align: 'center' });
    }
  }
  return w.toBuffer();
}
