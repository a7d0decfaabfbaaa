/** Escapes LIKE wildcards so that "100%" or "a_b" typed by a visitor match literally. */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Folds the spellings Arabic writers mix: hamza forms of alef, alef maqsura, taa marbuta, and the diacritics and
 * tatweel, so that "الالبان" finds "الألبان". Applied to both the text searched and the words typed.
 */
export function foldArabic(s: string): string {
  return s
    .replace(/[\u064B-\u0652\u0640]/g, '')
    .replace(/[أإآٱ]/g, 'ا')
    .replace(/ى/g, 'ي')
    .replace(/ة/g, 'ه');
}
