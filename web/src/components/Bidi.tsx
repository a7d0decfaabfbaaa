/**
 * Numbers, codes, dates and amounts keep their own left-to-right order inside Arabic text ("2026-000001" must not
 * read "000001-2026"): `<Ltr>` isolates them in markup, `ltr()` in plain strings (titles, interpolated messages)
 * with the Unicode isolates LRI ... PDI.
 */
export function Ltr({ children }: { children: React.ReactNode }) {
  return <bdi dir="ltr">{children}</bdi>;
}

export const ltr = (text: string | number | null | undefined): string => (text === null || text === undefined || text === '' ? '' : `\u2066${text}\u2069`);

/**
 * A plain string with `ltr()` isolates, drawn with each isolate as a `<bdi dir="ltr">` that does not wrap: a title's
 * "2026-000002" never breaks at its hyphen on a phone, and a copy of the heading holds no isolate marks.
 */
export function Isolated({ text }: { text: string }) {
  const parts = text.split(/\u2066([^\u2069]*)\u2069/);
  if (parts.length === 1) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <bdi key={i} dir="ltr" style={{ whiteSpace: 'nowrap' }}>
            {part}
          </bdi>
        ) : (
          part
        ),
      )}
    </>
  );
}
