import { z } from 'zod';
import { FormMessage as M } from './messages';
import { CATEGORY_TREE, MAIN_CATEGORIES, type MainCategory } from './catalogues';
import { ATTACHMENT_CATEGORIES, type AttachmentCategory } from './attachment-categories';
import { requiredOrInvalid } from './fields';

/**
 * Building blocks shared by the request forms of every service: optional fields, drafts (every field optional, filled
 * fields valid), enumerations, category selections and attachment lists. Messages are `validation` keys.
 */

/** Where a rule reports a problem: a zod refinement context, or a plain collector for the cross-step rules. */
export type IssueSink = { addIssue(issue: { code: 'custom'; message: string; path: PropertyKey[] }): void };
export const issueAt = (ctx: IssueSink, message: string, path: PropertyKey[]) => ctx.addIssue({ code: 'custom', message, path });

/** An optional field: left blank ('' or null) it is absent rather than "required". */
export const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
export const optionalField = <S extends z.ZodType>(s: S) => z.preprocess(blankToUndefined, s.optional());

export const enumField = <T extends string>(values: readonly T[], message: string) =>
  z
    .string({ error: requiredOrInvalid })
    .refine((v) => (values as readonly string[]).includes(v), message)
    .transform((v) => v as T);

/** A draft of an object: every field optional, filled fields keep their rules. */
export function draftShape<S extends Record<string, z.ZodType>>(shape: S) {
  return Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, z.preprocess(blankToUndefined, s.optional())])) as {
    [K in keyof S]: z.ZodPreprocess<z.ZodOptional<S[K]>, unknown>;
  };
}
export const draftObject = <S extends Record<string, z.ZodType>>(shape: S) => z.object(draftShape(shape), { error: M.invalid });
/** A draft of a list of objects (absent, or rows whose filled fields are valid). */
export const draftList = <S extends Record<string, z.ZodType>>(shape: S, max: number) =>
  z.array(z.object(draftShape(shape), { error: M.invalid }), { error: M.invalid }).max(max, M.tooManyItems).optional();

export function noDuplicateStrings(message: string) {
  return (items: readonly string[], ctx: IssueSink) => {
    const seen = new Set<string>();
    items.forEach((v, i) => {
      if (seen.has(v)) issueAt(ctx, message, [i]);
      seen.add(v);
    });
  };
}

// ---- categories: a whole main category or chosen sub-categories (spec 02 section 5) ----

export const categoryShape = () => ({
  category: enumField(MAIN_CATEGORIES, M.categoryInvalid),
  /** Empty: the whole main category. */
  subCategories: z.array(z.string({ error: requiredOrInvalid }), { error: M.invalid }).default([]),
});
export type TCategorySelection = { category: MainCategory; subCategories: string[] }[];

export function validCategorySelection(items: readonly { category: MainCategory; subCategories: string[] }[], ctx: IssueSink) {
  const seen = new Set<string>();
  items.forEach((c, i) => {
    if (seen.has(c.category)) issueAt(ctx, M.categoryDuplicate, [i, 'category']);
    seen.add(c.category);
    const subs: readonly string[] = CATEGORY_TREE[c.category];
    c.subCategories.forEach((s, j) => {
      if (!subs.includes(s) || c.subCategories.indexOf(s) !== j) issueAt(ctx, M.subCategoryMismatch, [i, 'subCategories', j]);
    });
  });
}

/** A category selection: at least one, no main category twice, sub-categories of their main one. */
export const categorySelection = () =>
  z
    .array(z.object(categoryShape(), { error: M.invalid }), { error: requiredOrInvalid })
    .min(1, M.categoryRequired)
    .max(MAIN_CATEGORIES.length, M.tooManyItems)
    .superRefine(validCategorySelection);
export const categorySelectionDraft = () => draftList(categoryShape(), MAIN_CATEGORIES.length);

/** Product category codes a selection covers: chosen sub-categories, or all of a wholly chosen main one. */
export function coveredCategoryCodes(items: readonly { category: MainCategory; subCategories: readonly string[] }[]): Set<string> {
  const codes = new Set<string>();
  for (const c of items) {
    const subs: readonly string[] = CATEGORY_TREE[c.category];
    if (!subs.length) codes.add(c.category);
    for (const s of c.subCategories.length ? c.subCategories : subs) codes.add(s);
  }
  return codes;
}

/** The codes a certificate lists for a selection: the main category when chosen whole, else each chosen sub-category. */
export function selectionCodes(items: readonly { category: string; subCategories: readonly string[] }[]): string[] {
  return items.flatMap((c) => (c.subCategories.length ? [...c.subCategories] : [c.category]));
}

// ---- attachments: references to uploaded files, by category ----

export interface AttachmentRules {
  allowed: readonly AttachmentCategory[];
  required: readonly AttachmentCategory[];
}

export const attachmentRefShape = (rules: AttachmentRules) => ({
  id: z.uuid({ error: M.invalid }),
  category: enumField(rules.allowed, M.attachmentCategoryNotAllowed),
});

function attachmentCounts(rules: AttachmentRules) {
  return (items: readonly { id: string; category: AttachmentCategory }[], ctx: IssueSink) => {
    const ids = new Set<string>();
    const counts = new Map<AttachmentCategory, number>();
    items.forEach((a, i) => {
      if (ids.has(a.id)) issueAt(ctx, M.attachmentDuplicate, [i, 'id']);
      ids.add(a.id);
      const n = (counts.get(a.category) ?? 0) + 1;
      counts.set(a.category, n);
      if (n > ATTACHMENT_CATEGORIES[a.category].maxFiles) issueAt(ctx, M.attachmentTooMany, [i, 'category']);
    });
    // "at least one where demanded" (spec 02 section 5): one issue on the list, whose text names the documents.
    if (rules.required.some((c) => !counts.has(c))) issueAt(ctx, M.attachmentRequired, []);
  };
}

export const attachmentList = (rules: AttachmentRules, max = 200) =>
  z
    .array(z.object(attachmentRefShape(rules), { error: M.invalid }), { error: requiredOrInvalid })
    .max(max, M.tooManyItems)
    .superRefine(attachmentCounts(rules));
export const attachmentListDraft = (rules: AttachmentRules, max = 200) => draftList(attachmentRefShape(rules), max);
