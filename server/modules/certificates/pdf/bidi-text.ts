import bidiFactory from 'bidi-js';
import { fontOf, isArabicChar, type Script } from './fonts';

const bidi = bidiFactory();

export type Direction = 'rtl' | 'ltr';

/**
 * A piece of one line, in visual (left to right) order, ready to hand to pdfkit or fontkit.
 * fontkit shapes Arabic and lays an Arabic string out right to left by itself (it reverses the glyphs of a run whose
 * script is right-to-left), so an Arabic run keeps its logical order here; a right-to-left run without Arabic letters
 * (a colon or dash between Arabic words) is reversed here, because fontkit would lay it out left to right.
 */
export interface VisualRun {
  text: string;
  script: Script;
  rtl: boolean;
}

/** Which font file draws the character: Arabic letters in the Arabic file, the rest where a glyph exists. */
function scriptOf(ch: string, rtlLevel: boolean): Script {
  const cp = ch.codePointAt(0)!;
  if (isArabicChar(cp)) return 'arabic';
  if (/\p{L}|\p{N}/u.test(ch)) return 'latin';
  // Neutrals (spaces, punctuation) join the run they sit in when that file has them, so "مصنع المراعي" stays one
  // shaped run; otherwise the Latin file, which has the ASCII punctuation.
  if (rtlLevel && fontOf('arabic-regular').font.hasGlyphForCodePoint(cp)) return 'arabic';
  return 'latin';
}

const hasArabicLetter = (s: string) => [...s].some((c) => isArabicChar(c.codePointAt(0)!) && /\p{L}/u.test(c));

/**
 * Splits one line (no line breaks) into visual runs by the Unicode Bidirectional Algorithm: embedding levels from
 * bidi-js (rules up to I2), then rule L2 applied to runs of equal level, which is exact because a run never spans two
 * levels. `base` is the paragraph direction (Arabic fields 'rtl', English fields 'ltr').
 */
export function visualRuns(line: string, base: Direction): VisualRun[] {
  const text = line.trim();
  if (!text) return [];
  const { levels } = bidi.getEmbeddingLevels(text, base);
  const chars = [...text];
  // Work per code point: levels are per UTF-16 unit, so map each code point to the level of its first unit.
  const runs: { text: string; script: Script; level: number }[] = [];
  let unit = 0;
  for (const ch of chars) {
    const level = levels[unit];
    unit += ch.length;
    const script = scriptOf(ch, level % 2 === 1);
    const last = runs[runs.length - 1];
    if (last && last.level === level && last.script === script) last.text += ch;
    else runs.push({ text: ch, script, level });
  }
  // L2: from the highest level down to the lowest odd level, reverse every maximal sequence at or above it.
  const maxLevel = Math.max(...runs.map((r) => r.level));
  const minOdd = Math.min(...runs.map((r) => (r.level % 2 ? r.level : r.level + 1)));
  for (let level = maxLevel; level >= minOdd; level--) {
    for (let i = 0; i < runs.length; ) {
      if (runs[i].level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < runs.length && runs[j].level >= level) j++;
      runs.splice(i, j - i, ...runs.slice(i, j).reverse());
      i = j;
    }
  }
  return runs.map((r) => {
    const rtl = r.level % 2 === 1;
    if (!rtl || hasArabicLetter(r.text)) return { text: r.text, script: r.script, rtl };
    const mirrored = [...r.text].reverse().map((c) => bidi.getMirroredCharacter(c) ?? c);
    return { text: mirrored.join(''), script: r.script, rtl };
  });
}

/** The paragraph direction a text asks for by its first strong character (used for free-text fields). */
export function directionOf(text: string): Direction {
  for (const ch of text) {
    if (isArabicChar(ch.codePointAt(0)!) && /\p{L}/u.test(ch)) return 'rtl';
    if (/\p{L}/u.test(ch)) return 'ltr';
  }
  return 'ltr';
}
