import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

/**
 * The fonts of every PDF and SVG the portal produces: IBM Plex Sans Arabic, self-hosted from @fontsource.
 * Why this family and not the web's Noto Sans Arabic: Noto draws dotted letters as a dotless base plus separate dot
 * glyphs, so one glyph stands for several letters and the PDF's text layer (ToUnicode, one string per glyph) turns
 * "غ" into "ع" and "ة" into "ه" when the text is copied or searched. Plex uses one glyph per letter form, so the text
 * a person copies from the certificate is the text that was printed.
 * Why WOFF and not WOFF2: fontkit's subsetter fails on the composite glyphs of the WOFF2 files.
 * Fontsource splits the family by Unicode range; the Arabic file carries Arabic letters and the space, the Latin
 * file Latin letters, digits and punctuation, so a line is drawn in runs, each in the file that has its characters.
 */
export type Script = 'arabic' | 'latin';
export type Weight = 'regular' | 'bold';
export type FontKey = `${Script}-${Weight}`;

const require = createRequire(import.meta.url);
const FILE: Record<FontKey, string> = {
  'arabic-regular': 'ibm-plex-sans-arabic-arabic-400-normal.woff',
  'arabic-bold': 'ibm-plex-sans-arabic-arabic-700-normal.woff',
  'latin-regular': 'ibm-plex-sans-arabic-latin-400-normal.woff',
  'latin-bold': 'ibm-plex-sans-arabic-latin-700-normal.woff',
};

interface LoadedFont {
  buffer: Buffer;
  font: Font;
}

const loaded = new Map<FontKey, LoadedFont>();

/** The font file's bytes (for pdfkit) and its parsed form (for coverage checks and SVG outlines); read once. */
export function fontOf(key: FontKey): LoadedFont {
  let f = loaded.get(key);
  if (!f) {
    const buffer = readFileSync(require.resolve(`@fontsource/ibm-plex-sans-arabic/files/${FILE[key]}`));
    f = { buffer, font: create(buffer) as Font };
    loaded.set(key, f);
  }
  return f;
}

export const FONT_KEYS = Object.keys(FILE) as FontKey[];

const ARABIC_RANGES: [number, number][] = [
  [0x0600, 0x06ff],
  [0x0750, 0x077f],
  [0x0870, 0x08ff],
  [0xfb50, 0xfdff],
  [0xfe70, 0xfeff],
];

/** True for characters of the Arabic blocks (letters, Arabic-Indic digits, Arabic punctuation). */
export const isArabicChar = (cp: number): boolean => ARABIC_RANGES.some(([a, b]) => cp >= a && cp <= b);
