import type { DataIssue } from './types';
import type { MarkPackages } from './settings';

/**
 * The Halal-mark package rule (spec 02 section 3, administrator limits): between the minimum and maximum number of
 * tags, in steps, and at least one tag per chosen product. The server's SUBMIT check ('markPackage') and the wizard's
 * package step both run this, so the step refuses exactly what submission would.
 */
export function markPackageIssues(tags: number, products: number, limits: Pick<MarkPackages, 'minTags' | 'maxTags' | 'step'>): DataIssue[] {
  const { minTags, maxTags, step } = limits;
  const issues: DataIssue[] = [];
  if (tags < minTags || tags > maxTags || tags % step !== 0) issues.push({ path: 'package.tags', message: 'form.markPackageRange', params: { min: minTags, max: maxTags, step } });
  if (tags < products) issues.push({ path: 'package.tags', message: 'form.markPackageTooSmall', params: { products } });
  return issues;
}
