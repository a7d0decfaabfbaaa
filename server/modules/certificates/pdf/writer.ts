import PDFDocument from 'pdfkit';
import { FONT_KEYS, fontOf, isArabicChar, type FontKey, type Weight } from './fonts';
import { visualRuns, type Direction } from './bidi-text';

export interface TextStyle {
  size: number;
  weight?: Weight;
  color?: string;
}

export interface LineOptions {
  direction: Direction;
  /** Where the line sits in its box; defaults to the start side of the direction. */
  align?: 'left' | 'right' | 'center';
}

/**
 * Without a features list pdfkit lays text out word by word and joins the words in logical order, which reverses the
 * word order of an Arabic run; any list (even empty, the script's default features still apply) makes it shape the
 * run whole, and fontkit then orders the whole run right to left.
 */
const WHOLE_RUN = { features: [] as PDFKit.Mixins.OpenTypeFeatures[] };

export const COLORS = {
  ink: '#1f2933',
  muted: '#5f6b7a',
  brand: '#0b6e4f',
  brandLight: '#e6f2ed',
  rule: '#c9d6cf',
} as const;

/**
 * Draws bilingual text on a pdfkit document. pdfkit shapes Arabic (fontkit applies the OpenType features) but lays
 * words out in logical order and knows nothing of the bidirectional algorithm, so every line goes through
 * visualRuns and is drawn run by run at positions computed here. Wrapping is done here too, on logical text.
 */
export class PdfWriter {
  readonly doc: PDFKit.PDFDocument;

  constructor(options: PDFKit.PDFDocumentOptions & { title: string }) {
    const { title, ...rest } = options;
    this.doc = new PDFDocument({ size: 'A4', margin: 0, ...rest, info: { Title: title, Author: 'Halal Center', ...rest.info } });
    for (const key of FONT_KEYS) this.doc.registerFont(key, fontOf(key).buffer);
  }

  private use(key: FontKey, style: TextStyle) {
    return this.doc.font(key).fontSize(style.size);
  }

  /** Width of a line as it will be drawn. */
  width(text: string, style: TextStyle, direction: Direction): number {
    let w = 0;
    for (const run of visualRuns(text, direction)) {
      w += this.use(`${run.script}-${style.weight ?? 'regular'}`, style).widthOfString(run.text, WHOLE_RUN);
    }
    return w;
  }

  /** Height of one line of this style. */
  lineHeight(style: TextStyle): number {
    return this.use(`latin-${style.weight ?? 'regular'}`, style).currentLineHeight(true);
  }

  /** Draws one line inside [x, x + width]; returns the line height. */
  line(text: string, x: number, y: number, width: number, style: TextStyle, opts: LineOptions): number {
    const align = opts.align ?? (opts.direction === 'rtl' ? 'right' : 'left');
    const total = this.width(text, style, opts.direction);
    let cursor = align === 'left' ? x : align === 'right' ? x + width - total : x + (width - total) / 2;
    for (const run of visualRuns(text, opts.direction)) {
      const doc = this.use(`${run.script}-${style.weight ?? 'regular'}`, style);
      doc.fillColor(style.color ?? COLORS.ink).text(run.text, cursor, y, { lineBreak: false, ...WHOLE_RUN });
      cursor += doc.widthOfString(run.text, WHOLE_RUN);
    }
    return this.lineHeight(style);
  }

  /** Breaks logical text into lines that fit `width` (at spaces; a word longer than a line is cut). */
  wrap(text: string, width: number, style: TextStyle, direction: Direction): string[] {
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      let current = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const candidate = current ? `${current} ${word}` : word;
        if (this.width(candidate, style, direction) <= width) {
          current = candidate;
          continue;
        }
        if (current) lines.push(current);
        current = word;
        while (this.width(current, style, direction) > width && current.length > 1) {
          let cut = current.length - 1;
          while (cut > 1 && this.width(current.slice(0, cut), style, direction) > width) cut--;
          lines.push(current.slice(0, cut));
          current = current.slice(cut);
        }
      }
      lines.push(current);
    }
    return lines;
  }

  /** Draws wrapped text; returns the height used. */
  paragraph(text: string, x: number, y: number, width: number, style: TextStyle, opts: LineOptions & { gap?: number }): number {
    const lh = this.lineHeight(style) + (opts.gap ?? 0);
    const lines = this.wrap(text, width, style, opts.direction);
    lines.forEach((l, i) => this.line(l, x, y + i * lh, width, style, opts));
    return lines.length * lh;
  }

  /** Height `paragraph` would use, without drawing. */
  measure(text: string, width: number, style: TextStyle, direction: Direction, gap = 0): number {
    return this.wrap(text, width, style, direction).length * (this.lineHeight(style) + gap);
  }

  /** Renders the document to bytes. */
  async toBuffer(): Promise<Buffer> {
    storeArabicLigaturesInDrawingOrder(this.doc);
    const chunks: Buffer[] = [];
    const done = new Promise<Buffer>((resolve, reject) => {
      this.doc.on('data', (c: Buffer) => chunks.push(c));
      this.doc.on('end', () => resolve(Buffer.concat(chunks)));
      this.doc.on('error', reject);
    });
    this.doc.end();
    return done;
  }
}

/**
 * A ligature glyph (lam-alef, and Plex's letter pairs) stands for several letters in the PDF's text layer. Text
 * extractors (poppler's pdftotext, pdf.js) read a right-to-left line in drawing order and reverse the whole character
 * sequence, the letters inside a ligature's entry included, so "للأغذية" would come out as "لألغذية". Arabic
 * ligatures only ever occur in right-to-left runs, so their entries are stored in drawing order and the reversal
 * restores the logical text. This reaches into pdfkit's fonts (`_fontFamilies[].unicode`, read when the document
 * ends); if a pdfkit upgrade moves them, nothing is changed and only copied ligatures suffer.
 */
function storeArabicLigaturesInDrawingOrder(doc: PDFKit.PDFDocument): void {
  const families = (doc as unknown as { _fontFamilies?: Record<string, { unicode?: unknown }> })._fontFamilies ?? {};
  for (const font of new Set(Object.values(families))) {
    if (!Array.isArray(font.unicode)) continue;
    font.unicode = (font.unicode as unknown[]).map((cps) =>
      Array.isArray(cps) && cps.length > 1 && cps.every((cp) => typeof cp === 'number' && isArabicChar(cp)) ? [...cps].reverse() : cps,
    );
  }
}

/** One row of a bilingual sheet: English on the left half, Arabic on the right half, label above value. */
export interface BilingualField {
  en: { label: string; value: string };
  ar: { label: string; value: string };
}

const LABEL: TextStyle = { size: 8.5, color: COLORS.muted };
const VALUE: TextStyle = { size: 11 };

/** Draws fields as rows across [x, x + width]; returns the y under the last row. Breaks the page when needed. */
export function drawFields(w: PdfWriter, fields: BilingualField[], x: number, y: number, width: number, opts: { bottom: number; onNewPage?: () => number }): number {
  const gutter = 16;
  const half = (width - gutter) / 2;
  for (const f of fields) {
    const hEn = w.lineHeight(LABEL) + w.measure(f.en.value || '—', half, VALUE, 'ltr');
    const hAr = w.lineHeight(LABEL) + w.measure(f.ar.value || '—', half, VALUE, 'rtl');
    const h = Math.max(hEn, hAr) + 6;
    if (y + h > opts.bottom && opts.onNewPage) y = opts.onNewPage();
    w.line(f.en.label, x, y, half, LABEL, { direction: 'ltr' });
    w.paragraph(f.en.value || '—', x, y + w.lineHeight(LABEL), half, VALUE, { direction: 'ltr' });
    w.line(f.ar.label, x + half + gutter, y, half, LABEL, { direction: 'rtl' });
    w.paragraph(f.ar.value || '—', x + half + gutter, y + w.lineHeight(LABEL), half, VALUE, { direction: 'rtl' });
    y += h;
    w.doc.moveTo(x, y - 3).lineTo(x + width, y - 3).lineWidth(0.5).strokeColor(COLORS.rule).stroke();
  }
  return y;
}
