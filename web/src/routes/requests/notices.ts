import type { TFunction } from 'i18next';

/**
 * A notice the server gave on an event (server/modules/requests/service.ts Notice): a message key with its parameters
 * and the names it lists in both languages. Kept as such in the history entry, so the request page shows it in the
 * language it is read in, not the one it was submitted in.
 */
export interface NoticeMessage {
  key: string;
  params?: Record<string, unknown>;
  names?: Record<string, { ar: string; en: string }[]>;
}

/**
 * The notice in the reader's language: each name list run together as the language runs a list (Intl.ListFormat, as
 * the server's noticeTexts does). A plain string is a notice kept before they were keys: it is shown as it was written.
 */
export function noticeText(t: TFunction, lang: string, notice: string | NoticeMessage): string {
  if (typeof notice === 'string') return notice;
  const language = lang === 'en' ? 'en' : 'ar';
  const list = new Intl.ListFormat(language, { type: 'conjunction' });
  const names = Object.fromEntries(Object.entries(notice.names ?? {}).map(([k, v]) => [k, list.format(v.map((n) => n[language]))]));
  return t(notice.key, { ...notice.params, ...names });
}
