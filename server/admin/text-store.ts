import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { textOverrides } from '../../db/schema';
import { isTemplateKey, overrideProblem, variablesOf, withOriginalFormats, type TextLanguage } from '../../machines/text-overrides';
import { AppError, AppErrorCode } from '../errors';
import { LANGUAGES, applyTextOverrides, bundledCatalogue, type TextOverride } from '../i18n';
import { writeAudit } from './audit-log';
import type { Changer } from './settings-store';

export interface TextEntry {
  namespace: string;
  key: string;
  template: boolean;
  /** Per language: the bundled text, the override in force (or null) and the variables the text must keep. */
  texts: Record<TextLanguage, { original: string; override: string | null; variables: string[] } | null>;
}

export interface TextQuery {
  namespace?: string;
  search?: string;
  templates?: boolean;
  overriddenOnly?: boolean;
  skipCount: number;
  maxResultCount: number;
}

/**
 * The administrator's text overrides (language-management, text-template-management), kept in memory and laid
 * over the server's i18next resources. Like the settings store, a change saved through this process is in force at
 * once and one saved by another process within `refreshMs` (`touch()` runs on every request).
 */
export class TextStore {
  private overrides: TextOverride[] = [];
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly refreshMs = 2_000,
    private readonly log: (msg: string, err?: unknown) => void = () => undefined,
  ) {}

  /** Starts a reload in the background when the copy in memory is older than `refreshMs`. */
  touch(): void {
    if (!this.closed && Date.now() - this.loadedAt > this.refreshMs) void this.refresh();
  }

  refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => (this.loading = null));
    return this.loading;
  }

  close(): void {
    this.closed = true;
  }

  /** Every override in force, as nested resources per language and namespace (what the web lays over its bundle). */
  resources(): Record<TextLanguage, Record<string, Record<string, string>>> {
    const out: Record<TextLanguage, Record<string, Record<string, string>>> = { ar: {}, en: {} };
    for (const o of this.overrides) (out[o.lang][o.namespace] ??= {})[o.key] = o.value;
    return out;
  }

  private async load(): Promise<void> {
    try {
      const rows = await this.db.select().from(textOverrides);
      this.loadedAt = Date.now();
      this.overrides = rows.map((r) => ({ lang: r.lang, namespace: r.namespace, key: r.key, value: r.value }));
      applyTextOverrides(this.overrides);
    } catch (err) {
      this.loadedAt = Date.now();
      if (!this.closed) this.log('could not reload the text overrides', err);
    }
  }

  /** The bundled texts with their overrides, filtered and paged, for the administration screens. */
  list(q: TextQuery): { totalCount: number; items: TextEntry[]; namespaces: string[] } {
    const bundled = bundledCatalogue();
    const overridden = new Map(this.overrides.map((o) => [`${o.lang}:${o.namespace}:${o.key}`, o.value]));
    const namespaces = [...new Set(LANGUAGES.flatMap((l) => Object.keys(bundled[l])))].sort();
    const needle = q.search?.trim().toLowerCase();
    const all: TextEntry[] = [];
    for (const ns of namespaces) {
      if (q.namespace && ns !== q.namespace) continue;
      const keys = [...new Set(LANGUAGES.flatMap((l) => Object.keys(bundled[l][ns] ?? {})))].sort();
      for (const key of keys) {
        const template = isTemplateKey(key);
        if (q.templates && !template) continue;
        const texts = Object.fromEntries(
          LANGUAGES.map((l) => {
            const original = bundled[l][ns]?.[key];
            return [l, original === undefined ? null : { original, override: overridden.get(`${l}:${ns}:${key}`) ?? null, variables: variablesOf(original) }];
          }),
        ) as TextEntry['texts'];
        if (q.overriddenOnly && !LANGUAGES.some((l) => texts[l]?.override !== null && texts[l] !== null)) continue;
        if (needle) {
          const hay = [ns, key, `${ns}:${key}`, ...LANGUAGES.flatMap((l) => [texts[l]?.original ?? '', texts[l]?.override ?? ''])].join('\n').toLowerCase();
          if (!hay.includes(needle)) continue;
        }
        all.push({ namespace: ns, key, template, texts });
      }
    }
    return { totalCount: all.length, items: all.slice(q.skipCount, q.skipCount + q.maxResultCount), namespaces };
  }

  /** Saves an override after the parity checks (400 otherwise, nothing changed), audited with old and new text. */
  async set(lang: TextLanguage, namespace: string, key: string, typed: string, by: Changer): Promise<void> {
    const problem = overrideProblem(bundledCatalogue(), lang, namespace, key, typed);
    if (problem) {
      if (problem.reason === 'unknownKey' || problem.reason === 'notInBothLanguages') {
        throw new AppError('TextKeyUnknown', { key: `${namespace}:${key}` });
      }
      if (problem.reason === 'variables') {
        throw new AppError('TextVariablesDiffer', { expected: problem.expected.map((v) => `{{${v}}}`).join(' ') || '—', found: problem.found.map((v) => `{{${v}}}`).join(' ') || '—' });
      }
      throw new AppError(AppErrorCode.ValidationFailed, {}, [
        problem.reason === 'tooLong' ? { field: 'value', message: 'max', params: { max: problem.max } } : { field: 'value', message: 'required' },
      ]);
    }
    const original = bundledCatalogue()[lang][namespace][key];
    const value = withOriginalFormats(original, typed);
    await this.db.transaction(async (tx) => {
      const where = and(eq(textOverrides.lang, lang), eq(textOverrides.namespace, namespace), eq(textOverrides.key, key));
      const [row] = await tx.select().from(textOverrides).where(where).for('update');
      const old = row?.value ?? original;
      if (old === value && row) return;
      const now = new Date();
      if (value === original) {
        // Writing the bundled text back is a reset: no row needs to stay.
        if (!row) return;
        await tx.delete(textOverrides).where(where);
      } else if (row) {
        await tx.update(textOverrides).set({ value, updatedBy: by.userId, updatedAt: now }).where(where);
      } else {
        await tx.insert(textOverrides).values({ lang, namespace, key, value, updatedBy: by.userId, updatedAt: now });
      }
      await writeAudit(tx, {
        action: 'text.change',
        userId: by.userId,
        userName: by.userName,
        ip: by.ip ?? null,
        outcome: 'success',
        details: { lang, namespace, key, changes: [{ path: `${lang} ${namespace}:${key}`, old, new: value }] },
      });
    });
    await this.refresh();
  }

  /** Removes an override: the bundled text is in force again (audited). */
  async reset(lang: TextLanguage, namespace: string, key: string, by: Changer): Promise<void> {
    const original = bundledCatalogue()[lang]?.[namespace]?.[key];
    if (original === undefined) throw new AppError('TextKeyUnknown', { key: `${namespace}:${key}` });
    await this.db.transaction(async (tx) => {
      const where = and(eq(textOverrides.lang, lang), eq(textOverrides.namespace, namespace), eq(textOverrides.key, key));
      const [row] = await tx.delete(textOverrides).where(where).returning();
      if (!row) return;
      await writeAudit(tx, {
        action: 'text.reset',
        userId: by.userId,
        userName: by.userName,
        ip: by.ip ?? null,
        outcome: 'success',
        details: { lang, namespace, key, changes: [{ path: `${lang} ${namespace}:${key}`, old: row.value, new: original }] },
      });
    });
    await this.refresh();
  }
}
