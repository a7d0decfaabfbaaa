import type { Language } from '../../i18n';
import { foldArabic } from './text';

export interface FaqEntry {
  id: string;
  questionAr: string;
  questionEn: string;
  answerAr: string;
  answerEn: string;
  keywordsAr: string;
  keywordsEn: string;
}

export interface AssistantAnswer {
  /** The FAQ entry answered, or null when nothing matched well enough. */
  faqId: string | null;
  question: string | null;
  answer: string | null;
  /** Other questions worth offering as buttons. */
  suggestions: { id: string; question: string }[];
}

/** Words that carry no meaning for matching (the question words themselves included). */
const STOP_WORDS: Record<Language, Set<string>> = {
  en: new Set(
    'a an the and or of to in on for with by at from is are was were be been can could do does did how what when where which who why i my me we our you your it its this that these those there please about if as not no any get'.split(
      ' ',
    ),
  ),
  ar: new Set(
    foldArabic('في من على الى إلى عن مع هل ما ماذا متى اين أين كيف لماذا كم هو هي هم انا أنا نحن انت أنت هذا هذه ذلك تلك التي الذي او أو و ثم لا لم لن قد يمكن يمكنني اريد أريد عند كل اي أي بعد قبل').split(' '),
  ),
};

/** Lower-cases, folds Arabic spellings, strips punctuation, drops stop words and common Arabic/English affixes. */
export function tokens(text: string, lang: Language): string[] {
  const words = foldArabic(text.toLowerCase())
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const stop = STOP_WORDS[lang];
  const out: string[] = [];
  for (const w of words) {
    if (stop.has(w)) continue;
    out.push(stem(w));
  }
  return out.filter((w) => w.length > 1);
}

function stem(w: string): string {
  if (/^[a-z]+$/.test(w)) {
    if (w.length > 5 && w.endsWith('ing')) return w.slice(0, -3);
    if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
    if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
    return w;
  }
  // Arabic: the article and the attached conjunction/prepositions ("والشهادة", "بالشهادة", "للشهادة").
  let s = w;
  for (const prefix of ['وال', 'بال', 'فال', 'كال', 'لل', 'ال']) {
    if (s.startsWith(prefix) && s.length - prefix.length >= 3) {
      s = s.slice(prefix.length);
      break;
    }
  }
  for (const suffix of ['ات', 'ين', 'ون', 'ها', 'ه']) {
    if (s.endsWith(suffix) && s.length - suffix.length >= 3) return s.slice(0, -suffix.length);
  }
  return s;
}

const pick = (e: FaqEntry, lang: Language) =>
  lang === 'ar'
    ? { question: e.questionAr, answer: e.answerAr, keywords: e.keywordsAr }
    : { question: e.questionEn, answer: e.answerEn, keywords: e.keywordsEn };

/**
 * Answers a visitor's message from the FAQ in their language: each entry is scored by the words it shares with
 * the message, rarer words weighing more (question and keywords fully, answer text at a third), and the best entry
 * answers when it shares at least one meaningful word. Otherwise the caller gets suggestions only.
 */
export function answerFromFaq(entries: readonly FaqEntry[], message: string, lang: Language): AssistantAnswer {
  const asked = [...new Set(tokens(message, lang))];
  const docs = entries.map((e) => {
    const p = pick(e, lang);
    return { e, p, strong: new Set(tokens(`${p.question} ${p.keywords}`, lang)), weak: new Set(tokens(p.answer, lang)) };
  });
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set([...d.strong, ...d.weak])) df.set(t, (df.get(t) ?? 0) + 1);
  const idf = (t: string) => Math.log(1 + docs.length / (df.get(t) ?? 1));

  let best: { d: (typeof docs)[number]; score: number } | null = null;
  const scored = docs.map((d) => {
    let score = 0;
    for (const t of asked) {
      if (d.strong.has(t)) score += idf(t);
      else if (d.weak.has(t)) score += idf(t) / 3;
    }
    return { d, score };
  });
  for (const s of scored) if (s.score > 0 && (!best || s.score > best.score)) best = s;
  const MIN_SCORE = 0.5;
  const others = scored
    .filter((s) => s !== best)
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .map((s) => ({ id: s.d.e.id, question: s.d.p.question }));
  if (!best || best.score < MIN_SCORE) {
    return { faqId: null, question: null, answer: null, suggestions: others };
  }
  return { faqId: best.d.e.id, question: best.d.p.question, answer: best.d.p.answer, suggestions: others };
}
