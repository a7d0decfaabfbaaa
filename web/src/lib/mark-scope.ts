type T = (key: string, options?: { defaultValue?: string }) => string;

/**
 * A certificate's scope as a reader reads it: a Halal mark's scope is a code ('Saudi', 'Global') named in the
 * reader's language ("السوق السعودي"); a certificate's scope is already a sentence and is shown as it is.
 */
export function scopeText(t: T, kind: string, scope: string | null | undefined): string | null {
  if (!scope) return null;
  return kind === 'halalMark' ? t(`public:markScope.${scope}`, { defaultValue: scope }) : scope;
}
