import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getDocument, OPS, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';

/*
 * PDFs as a person gets them, read with pdf.js (an npm package, so `npm test` needs no system tools): the pages'
 * size, the fonts embedded, the text layer as copy, search and screen readers get it (pdf.js puts right-to-left runs
 * in logical order, as poppler does), and pages rendered to pixels on @napi-rs/canvas (what a viewer or printer
 * shows), from which a QR code can be decoded.
 */

/** pdf.js's standard fonts, for a PDF that uses one without embedding it (ours embed theirs). */
const STANDARD_FONTS = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/').href;

export function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  // pdf.js takes ownership of the buffer it is given: hand it a copy.
  return getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS, verbosity: 0, isEvalSupported: false }).promise;
}

export interface PdfText {
  pages: number;
  /** Page sizes in points. */
  sizes: [number, number][];
  /** Names of the fonts the pages use (embedded subsets carry a `XXXXXX+` prefix). */
  fonts: string[];
  /** Every text run, in content order. */
  items: string[];
  /** The runs joined, a line break where pdf.js sees a line end, without invisible direction marks. */
  text: string;
}

export async function readPdf(bytes: Uint8Array): Promise<PdfText> {
  const doc = await openPdf(bytes);
  try {
    const sizes: [number, number][] = [];
    const fonts = new Set<string>();
    const items: string[] = [];
    let text = '';
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const [x0, y0, x1, y1] = page.view;
      sizes.push([x1 - x0, y1 - y0]);
      const ops = await page.getOperatorList();
      ops.fnArray.forEach((fn, i) => {
        if (fn === OPS.setFont) fonts.add((page.commonObjs.get(ops.argsArray[i][0] as string) as { name: string }).name);
      });
      for (const item of (await page.getTextContent()).items) {
        if (!('str' in item)) continue;
        const t = item as TextItem;
        const str = t.str.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
        items.push(str);
        text += str + (t.hasEOL ? '\n' : '');
      }
      text += '\n';
    }
    return { pages: doc.numPages, sizes, fonts: [...fonts].sort(), items, text };
  } finally {
    await doc.destroy();
  }
}

export interface Raster {
  width: number;
  height: number;
  /** RGBA, 4 bytes a pixel. */
  rgba: Uint8ClampedArray;
}

/** Renders every page at `dpi` on a white background. */
export async function renderPdf(bytes: Uint8Array, dpi: number): Promise<Raster[]> {
  const doc = await openPdf(bytes);
  try {
    const out: Raster[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: dpi / 72 });
      const width = Math.ceil(viewport.width);
      const height = Math.ceil(viewport.height);
      const factory = (doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: unknown; context: CanvasRenderingContext2D } } }).canvasFactory;
      const { canvas, context } = factory.create(width, height);
      context.fillStyle = '#ffffff';
      context.fillRect(0, 0, width, height);
      await page.render({ canvas: canvas as HTMLCanvasElement, canvasContext: context, viewport }).promise;
      out.push({ width, height, rgba: new Uint8ClampedArray(context.getImageData(0, 0, width, height).data) });
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

/** Share of the pixels darker than mid-grey (luminance < 128). */
export function darkShare(r: Raster): number {
  let dark = 0;
  for (let i = 0; i < r.rgba.length; i += 4) if (0.299 * r.rgba[i] + 0.587 * r.rgba[i + 1] + 0.114 * r.rgba[i + 2] < 128) dark++;
  return dark / (r.width * r.height);
}
