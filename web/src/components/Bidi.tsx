/**
 * Numbers, codes, dates and amounts keep their own left-to-right order inside Arabic text ("2026-000001" must not
 * read "000001-2026"): `<Ltr>` isolates them in markup, `ltr()` in plain strings (titles, interpolated messages)
 * with the Unicode isolates LRI ... PDI.
 */
export function Ltr({ children }: { children: React.ReactNode }) {
  return <bdi dir="ltr">{children}</bdi>;
}

export const ltr = (text: string | number | null | undefined): string => (text === null || text === undefined || text === '' ? '' : `\u2066${text}\u2069`);
