import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { contentPages, newsItems } from '../../../db/schema';
import type { Language } from '../../i18n';
import { escapeHtml } from '../../../lib/escape-html';

/**
 * The public pages, by route path (spec 01 section 2) and the content_pages key holding their title, summary
 * (= meta description) and text. `verify` is the page a certificate's or mark's QR code opens.
 */
export const PUBLIC_PAGE_KEYS = [
  'home',
  'user-manual',
  'hs-code',
  'accredited-cb',
  'our-customers',
  'media-center',
  'about-center',
  'contact-us',
  'privacy',
  'faq',
  'verify',
] as const;
export type PublicPageKey = (typeof PUBLIC_PAGE_KEYS)[number];

export const isPublicPageKey = (key: string): key is PublicPageKey => (PUBLIC_PAGE_KEYS as readonly string[]).includes(key);

/** The portal's name, appended to every page title. */
export const SITE_NAME: Record<Language, string> = { ar: 'المركز الوطني للحلال', en: 'National Halal Center' };

export interface PageMeta {
  title: string;
  description: string;
  lang: Language;
  dir: 'rtl' | 'ltr';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Title and meta description of a public page in a language, for the HTML the server sends before the SPA runs
 * (search engines and link previews read these). `path` is the URL path, e.g. '/hs-code', '/verify/ABC',
 * '/media-center/<news id>'; '/' is the home page. Returns null for paths that are not public pages.
 */
export async function publicPageMeta(db: Db, path: string, lang: Language): Promise<PageMeta | null> {
  const segments = path.split('?')[0].split('/').filter(Boolean);
  const first = segments[0] ?? 'home';
  const key = first === 'public' ? (segments[1] ?? 'home') : first;
  if (!isPublicPageKey(key)) return null;
  const dir = lang === 'ar' ? 'rtl' : 'ltr';
  const newsId = key === 'media-center' ? segments[segments.length - 1] : undefined;
  if (newsId && UUID.test(newsId)) {
    const [n] = await db.select().from(newsItems).where(eq(newsItems.id, newsId));
    if (n) {
      const title = lang === 'ar' ? n.titleAr : n.titleEn;
      return { title: `${title} | ${SITE_NAME[lang]}`, description: lang === 'ar' ? n.summaryAr : n.summaryEn, lang, dir };
    }
  }
  const [page] = await db.select().from(contentPages).where(eq(contentPages.key, key));
  if (!page) return { title: SITE_NAME[lang], description: '', lang, dir };
  const title = lang === 'ar' ? page.titleAr : page.titleEn;
  return {
    title: key === 'home' ? `${SITE_NAME[lang]} | ${title}` : `${title} | ${SITE_NAME[lang]}`,
    description: lang === 'ar' ? page.summaryAr : page.summaryEn,
    lang,
    dir,
  };
}

/** index.html with `<html lang dir>` of a language (other attributes of the tag kept). */
export const withLanguage = (html: string, lang: Language): string =>
  html.replace(/<html([^>]*)>/i, (_m, attrs: string) => {
    const rest = attrs.replace(/\s(lang|dir)="[^"]*"/gi, '');
    return `<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"${rest}>`;
  });

/** index.html with its `<title>` replaced (added before </head> when there is none); the title is HTML-escaped. */
export const withTitle = (html: string, title: string): string => {
  const tag = `<title>${escapeHtml(title)}</title>`;
  return /<title>[\s\S]*?<\/title>/i.test(html) ? html.replace(/<title>[\s\S]*?<\/title>/i, () => tag) : html.replace(/<\/head>/i, () => `${tag}</head>`);
};

/**
 * Puts the meta into index.html: `<html lang dir>`, the `<title>` and `<meta name="description">` (replaced
 * when present, added before </head> otherwise). Values are HTML-escaped; page text is editable by admins.
 */
export function injectPageMeta(html: string, meta: PageMeta): string {
  const out = withTitle(withLanguage(html, meta.lang), meta.title);
  const description = `<meta name="description" content="${escapeHtml(meta.description)}" />`;
  return /<meta\s+name="description"[^>]*>/i.test(out)
    ? out.replace(/<meta\s+name="description"[^>]*>/i, () => description)
    : out.replace(/<\/head>/i, () => `${description}</head>`);
}
