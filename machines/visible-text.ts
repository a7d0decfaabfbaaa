/*
 * Text as a person sees it. Shared by every door (the server's schemas, the event payloads, the web's forms): a number
 * copied from a toast or the tab title carries invisible direction isolates (U+2066…2069), and a reason typed as
 * nothing but such marks is no reason.
 */

/** Characters that draw nothing: direction marks and isolates, zero-width spaces and joiners, the word joiner, the BOM. */
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/g;

/** A search term as a person pasted it: without invisible marks and control characters, trimmed. */
export function searchTerm(text: string): string {
  return text.replace(INVISIBLE, '').replace(CONTROL, '').trim();
}

/** True when the text shows something: not only spaces, control characters and invisible marks. */
export const hasVisibleText = (text: string): boolean => searchTerm(text).length > 0;
