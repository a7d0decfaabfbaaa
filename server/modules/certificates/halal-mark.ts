import { fontOf, type FontKey } from './pdf/fonts';
import { visualRuns, type Direction } from './pdf/bidi-text';
import { qrModules } from './qr';

/**
 * The Halal mark (spec 01 section 2): the certificate number and a QR code filled into a template, in a horizontal
 * and a vertical variant. Text is drawn as glyph outlines (shaped by fontkit, ordered by the bidi algorithm), so the
 * SVG needs no font on the printer's machine and looks the same everywhere. One description of the shapes feeds both
 * the SVG files and the drawings in the guidelines PDF.
 */
export const MARK_GREEN = '#0B6E4F';

export type MarkItem =
  | { type: 'path'; id?: string; d: string; fill: string; transform?: { x: number; y: number; scale: number } }
  | { type: 'rect'; x: number; y: number; width: number; height: number; radius: number; fill?: string; stroke?: string; strokeWidth?: number };

export interface MarkShape {
  variant: 'horizontal' | 'vertical';
  width: number;
  height: number;
  items: MarkItem[];
}

export interface MarkContent {
  certificateNumber: string;
  verificationUrl: string;
  /** "حلال" and "HALAL" and the certificate-number labels, from the locales. */
  halalAr: string;
  halalEn: string;
  numberLabelEn: string;
}

/** Outlines of one line of text; `x` is the left, centre or right edge per `align`, `baseline` the baseline y. */
export function textOutline(
  text: string,
  opts: { weight: 'regular' | 'bold'; size: number; x: number; baseline: number; align: 'left' | 'center' | 'right'; direction: Direction },
): { d: string; width: number } {
  const runs = visualRuns(text, opts.direction).map((r) => {
    const key: FontKey = `${r.script}-${opts.weight}`;
    const font = fontOf(key).font;
    const layout = font.layout(r.text, []);
    const scale = opts.size / font.unitsPerEm;
    return { layout, scale, width: layout.advanceWidth * scale };
  });
  const width = runs.reduce((s, r) => s + r.width, 0);
  let pen = opts.align === 'left' ? opts.x : opts.align === 'right' ? opts.x - width : opts.x - width / 2;
  const parts: string[] = [];
  for (const { layout, scale } of runs) {
    layout.glyphs.forEach((glyph, i) => {
      const pos = layout.positions[i];
      // Font units are y-up; SVG is y-down: flip, then move to the pen position on the baseline.
      const path = glyph.path.scale(scale, -scale).translate(pen + pos.xOffset * scale, opts.baseline - pos.yOffset * scale);
      parts.push(path.toSVG());
      pen += pos.xAdvance * scale;
    });
  }
  return { d: parts.join(''), width };
}

/** QR items: a white quiet zone and the modules scaled to `size` points at (x, y). */
function qrItems(url: string, x: number, y: number, size: number): MarkItem[] {
  const { size: modules, path } = qrModules(url);
  const quiet = 2;
  const scale = size / (modules + 2 * quiet);
  return [
    { type: 'rect', x, y, width: size, height: size, radius: 0, fill: '#FFFFFF' },
    { type: 'path', id: 'qr', d: path, fill: '#000000', transform: { x: x + quiet * scale, y: y + quiet * scale, scale } },
  ];
}

/** 176 x 46 (spec 01 section 9, logo size; the viewBox is twice that for finer coordinates): QR on the left, the words and number on the right. */
export function horizontalMark(c: MarkContent): MarkShape {
  const width = 352;
  const height = 92;
  const textCenter = 92 + (width - 92 - 8) / 2;
  const t = (text: string, size: number, baseline: number, weight: 'regular' | 'bold', direction: Direction): MarkItem => ({
    type: 'path',
    d: textOutline(text, { weight, size, x: textCenter, baseline, align: 'center', direction }).d,
    fill: MARK_GREEN,
  });
  return {
    variant: 'horizontal',
    width,
    height,
    items: [
      { type: 'rect', x: 2, y: 2, width: width - 4, height: height - 4, radius: 12, fill: '#FFFFFF', stroke: MARK_GREEN, strokeWidth: 3 },
      ...qrItems(c.verificationUrl, 8, 8, 76),
      t(c.halalAr, 32, 38, 'bold', 'rtl'),
      t(c.halalEn, 15, 60, 'bold', 'ltr'),
      t(`${c.numberLabelEn} ${c.certificateNumber}`, 10.5, 80, 'regular', 'ltr'),
    ],
  };
}

/** The vertical variant: words on top, QR below, number at the foot. */
export function verticalMark(c: MarkContent): MarkShape {
  const width = 128;
  const height = 184;
  const t = (text: string, size: number, baseline: number, weight: 'regular' | 'bold', direction: Direction): MarkItem => ({
    type: 'path',
    d: textOutline(text, { weight, size, x: width / 2, baseline, align: 'center', direction }).d,
    fill: MARK_GREEN,
  });
  return {
    variant: 'vertical',
    width,
    height,
    items: [
      { type: 'rect', x: 2, y: 2, width: width - 4, height: height - 4, radius: 12, fill: '#FFFFFF', stroke: MARK_GREEN, strokeWidth: 3 },
      t(c.halalAr, 30, 40, 'bold', 'rtl'),
      t(c.halalEn, 14, 60, 'bold', 'ltr'),
      ...qrItems(c.verificationUrl, (width - 88) / 2, 68, 88),
      t(c.certificateNumber, 9.5, 172, 'regular', 'ltr'),
    ],
  };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);

/** The shape as a standalone SVG file, with the certificate number and URL in its title and description. */
export function markSvg(shape: MarkShape, c: MarkContent): string {
  const body = shape.items
    .map((item) => {
      if (item.type === 'rect') {
        const stroke = item.stroke ? ` stroke="${item.stroke}" stroke-width="${item.strokeWidth ?? 1}"` : '';
        return `<rect x="${item.x}" y="${item.y}" width="${item.width}" height="${item.height}" rx="${item.radius}" fill="${item.fill ?? 'none'}"${stroke}/>`;
      }
      const id = item.id ? ` id="${item.id}"` : '';
      const tr = item.transform ? ` transform="translate(${item.transform.x} ${item.transform.y}) scale(${item.transform.scale})"` : '';
      return `<path${id}${tr} fill="${item.fill}" d="${item.d}"/>`;
    })
    .join('\n  ');
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${shape.width / 2}" height="${shape.height / 2}" viewBox="0 0 ${shape.width} ${shape.height}" role="img" aria-labelledby="title desc" data-certificate-number="${esc(c.certificateNumber)}">
  <title id="title">${esc(`${c.halalEn} ${c.halalAr} — ${c.certificateNumber}`)}</title>
  <desc id="desc">${esc(c.verificationUrl)}</desc>
  ${body}
</svg>
`;
}

/** Draws the shape on a pdfkit page with its top-left corner at (x, y), `scale` points per unit. */
export function drawMark(doc: PDFKit.PDFDocument, shape: MarkShape, x: number, y: number, scale: number): void {
  doc.save();
  doc.translate(x, y).scale(scale);
  for (const item of shape.items) {
    if (item.type === 'rect') {
      doc.roundedRect(item.x, item.y, item.width, item.height, item.radius);
      if (item.fill && item.stroke) doc.lineWidth(item.strokeWidth ?? 1).fillAndStroke(item.fill, item.stroke);
      else if (item.fill) doc.fill(item.fill);
      else if (item.stroke) doc.lineWidth(item.strokeWidth ?? 1).stroke(item.stroke);
      continue;
    }
    doc.save();
    if (item.transform) doc.translate(item.transform.x, item.transform.y).scale(item.transform.scale);
    doc.path(item.d).fill(item.fill);
    doc.restore();
  }
  doc.restore();
}
