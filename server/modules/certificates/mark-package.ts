import { strToU8, zipSync } from 'fflate';
import type { CertificateView } from './certificate-view';
import type { Bilingual } from './bilingual';
import { drawMark, horizontalMark, markSvg, verticalMark, type MarkContent, type MarkShape } from './halal-mark';
import { COLORS, PdfWriter } from './pdf/writer';

const RULES = ['1', '2', '3', '4', '5', '6', '7', '8'] as const;
const PAGE_WIDTH = 595.28;
const X0 = 50;
const WIDTH = PAGE_WIDTH - 2 * X0;

/** File-name-safe certificate number (numbers are letters, digits and dashes, but a legacy one may hold a slash). */
export const fileSafe = (s: string) => s.replace(/[^A-Za-z0-9-]+/g, '-');

export function markContent(view: CertificateView, t: Bilingual): MarkContent {
  return {
    certificateNumber: view.number,
    verificationUrl: view.verificationUrl,
    halalAr: t.ar('payments:mark.halal'),
    halalEn: t.en('payments:mark.halal'),
    numberLabelEn: t.en('payments:mark.certificateNumber'),
  };
}

/** The guidelines sheet: both marks as they print, then each rule in English and Arabic side by side. */
async function guidelinesPdf(view: CertificateView, t: Bilingual, marks: MarkShape[], files: { name: string; key: string }[]): Promise<Buffer> {
  const g = (tt: Bilingual['en'], key: string) => tt(`payments:mark.guidelines.${key}`);
  const w = new PdfWriter({ title: `${g(t.en, 'title')} ${view.number}`, lang: 'ar' });
  const half = WIDTH / 2 - 10;
  const title = { size: 17, weight: 'bold' as const, color: COLORS.brand };
  w.line(g(t.en, 'title'), X0, 50, half, title, { direction: 'ltr' });
  w.line(g(t.ar, 'title'), X0 + half + 20, 48, half, title, { direction: 'rtl' });
  const sub = { size: 10, color: COLORS.muted };
  w.line(`${g(t.en, 'certificate')}: ${view.number} — ${view.holder.nameEn}`, X0, 78, half, sub, { direction: 'ltr' });
  w.line(`${g(t.ar, 'certificate')}: ${view.number} — ${view.holder.nameAr}`, X0 + half + 20, 78, half, sub, { direction: 'rtl' });
  // The two marks at print size (1 unit = 0.5 mm on paper is 1.417 pt; drawn a little larger to read the detail).
  drawMark(w.doc, marks[0], X0, 110, 0.75);
  drawMark(w.doc, marks[1], X0 + WIDTH - marks[1].width * 0.75, 110, 0.75);
  let y = 110 + marks[1].height * 0.75 + 24;
  for (const rule of RULES) {
    const hEn = w.paragraph(`${rule}. ${g(t.en, `rules.${rule}`)}`, X0, y, half, { size: 10 }, { direction: 'ltr' });
    const hAr = w.paragraph(`${rule}. ${g(t.ar, `rules.${rule}`)}`, X0 + half + 20, y, half, { size: 10 }, { direction: 'rtl' });
    y += Math.max(hEn, hAr) + 8;
  }
  y += 8;
  w.line(g(t.en, 'files'), X0, y, half, { size: 11, weight: 'bold', color: COLORS.brand }, { direction: 'ltr' });
  w.line(g(t.ar, 'files'), X0 + half + 20, y, half, { size: 11, weight: 'bold', color: COLORS.brand }, { direction: 'rtl' });
  y += 20;
  for (const f of files) {
    w.line(`${f.name} — ${g(t.en, f.key)}`, X0, y, half + 60, { size: 9 }, { direction: 'ltr' });
    w.line(g(t.ar, f.key), X0 + half + 80, y, half - 60, { size: 9 }, { direction: 'rtl' });
    y += 15;
  }
  return w.toBuffer();
}

/** The zip a facility downloads: horizontal and vertical SVG marks and the guidelines PDF. */
export async function markZip(view: CertificateView, t: Bilingual): Promise<{ fileName: string; zip: Uint8Array }> {
  const content = markContent(view, t);
  const base = `halal-mark-${fileSafe(view.number)}`;
  const marks = [horizontalMark(content), verticalMark(content)];
  const names = {
    horizontal: `${base}-horizontal.svg`,
    vertical: `${base}-vertical.svg`,
    guidelines: `${base}-guidelines.pdf`,
  };
  const pdf = await guidelinesPdf(view, t, marks, [
    { name: names.horizontal, key: 'horizontal' },
    { name: names.vertical, key: 'vertical' },
  ]);
  const zip = zipSync({
    [names.horizontal]: strToU8(markSvg(marks[0], content)),
    [names.vertical]: strToU8(markSvg(marks[1], content)),
    [names.guidelines]: [new Uint8Array(pdf), { level: 0 }],
  });
  return { fileName: `${base}.zip`, zip };
}
