import { Alert } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { markPackageIssues } from '../../../../machines/services/mark-package';
import { apiQuery, useApi, type ApiResponse } from '../../api/query';

export type MarkPackageLimits = ApiResponse<'/api/mark-packages'>;

/**
 * The package step's issues by the rule SUBMIT runs (machines/services/mark-package.ts), for the products chosen on the
 * step before: none while the limits are not read yet (submission still checks).
 */
export function markPackageStepIssues(limits: MarkPackageLimits | undefined, form: Record<string, unknown>) {
  if (!limits) return [];
  const products = Array.isArray(form.products) ? form.products.length : 0;
  const tags = Number((form.package as { tags?: unknown } | undefined)?.tags);
  return Number.isFinite(tags) ? markPackageIssues(tags, products, limits) : [];
}

/** The rule above the package step: the administrator's limits and the tags the chosen products need. */
export function MarkPackageRule({ products }: { products: number }) {
  const { t } = useTranslation('requests');
  const limits = useApi(apiQuery('/api/mark-packages')).data;
  if (!limits) return null;
  return (
    <Alert.Root status="info" mb="4" data-testid="mark-package-rule">
      <Alert.Indicator />
      <Alert.Description>{t('wizard.markPackageRule', { min: limits.minTags, max: limits.maxTags, step: limits.step, products })}</Alert.Description>
    </Alert.Root>
  );
}
