import { Unzip, UnzipInflate, strFromU8 } from 'fflate';

/**
 * What an uploaded product form (.xlsx, a zip of XML parts) may cost before any spreadsheet library sees it. The
 * template holds 1,000 product rows (columns.ts); these limits leave room for a person's formatting, and refuse
 * what only an attacker sends: a zip bomb (a few KB that inflate to gigabytes) or a sheet that claims or uses
 * rows far beyond the form (one cell at row 1,048,576 makes a row-by-row reader walk a million rows).
 */
export const XLSX_LIMITS = {
  /** Parts in the zip (the template has about fifteen). */
  maxEntries: 100,
  /** Inflated bytes of all parts together, and of one part. */
  maxInflatedBytes: 20 * 1024 * 1024,
  /** Last row a worksheet may use or declare in its dimension (the form's 1,000 rows start at row 3). */
  maxRow: 5_000,
  /** Last column a worksheet may use or declare (the form has 12; Excel allows 16,384). */
  maxColumn: 64,
  /** Compressed bytes fed to the inflater at a time: bounds what one step can allocate (deflate inflates ≤ 1032:1). */
  feedBytes: 4 * 1024,
} as const;

export type XlsxRefusal = { ok: false; reason: 'invalid' | 'inflatedTooLarge' | 'sheetTooLarge'; detail: string };

/** Column letters to a number: A = 1, Z = 26, AA = 27. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** The largest row and column a worksheet's XML declares (dimension) or uses (row and cell references). */
export function sheetExtent(xml: string): { rows: number; columns: number } {
  let rows = 0;
  let columns = 0;
  const dim = /<(?:\w+:)?dimension\b[^>]*\bref="([^"]*)"/.exec(xml);
  if (dim) {
    for (const ref of dim[1].split(':')) {
      const m = /^\$?([A-Za-z]{1,4})?\$?(\d+)?$/.exec(ref);
      if (!m) continue;
      if (m[1]) columns = Math.max(columns, columnNumber(m[1]));
      if (m[2]) rows = Math.max(rows, Number(m[2]));
    }
  }
  for (const m of xml.matchAll(/<(?:\w+:)?row\b[^>]*?\br="(\d+)"/g)) rows = Math.max(rows, Number(m[1]));
  for (const m of xml.matchAll(/<(?:\w+:)?c\b[^>]*?\br="([A-Za-z]{1,4})(\d+)"/g)) {
    columns = Math.max(columns, columnNumber(m[1]));
    rows = Math.max(rows, Number(m[2]));
  }
  return { rows, columns };
}

/**
 * Inflates every part of the workbook in small steps, counting bytes, and stops at the first limit crossed; then
 * checks each worksheet's extent. Linear in the (bounded) inflated size; nothing is parsed as a spreadsheet.
 */
export function inspectXlsx(data: Uint8Array, limits: typeof XLSX_LIMITS = XLSX_LIMITS): { ok: true } | XlsxRefusal {
  let refusal: XlsxRefusal | null = null;
  const refuse = (reason: XlsxRefusal['reason'], detail: string) => {
    refusal ??= { ok: false, reason, detail };
  };
  let entries = 0;
  let total = 0;
  const sheets = new Map<string, Uint8Array[]>();
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file) => {
    if (refusal) return;
    if (++entries > limits.maxEntries) return refuse('inflatedTooLarge', `more than ${limits.maxEntries} parts`);
    const isSheet = /^xl\/worksheets\/[^/]+\.xml$/i.test(file.name);
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (err, chunk) => {
      if (refusal) return;
      if (err) return refuse('invalid', `${file.name}: ${err.message}`);
      size += chunk.length;
      total += chunk.length;
      if (size > limits.maxInflatedBytes || total > limits.maxInflatedBytes) {
        refuse('inflatedTooLarge', `inflates beyond ${limits.maxInflatedBytes} bytes (${file.name})`);
        file.terminate();
        return;
      }
      if (isSheet) chunks.push(chunk);
    };
    if (isSheet) sheets.set(file.name, chunks);
    try {
      file.start();
    } catch (e) {
      refuse('invalid', `${file.name}: ${(e as Error).message}`);
    }
  };
  try {
    for (let i = 0; i < data.length && !refusal; i += limits.feedBytes) {
      unzip.push(data.subarray(i, i + limits.feedBytes), i + limits.feedBytes >= data.length);
    }
  } catch (e) {
    refuse('invalid', (e as Error).message);
  }
  if (refusal) return refusal;
  if (!entries) return { ok: false, reason: 'invalid', detail: 'not a zip archive' };
  for (const [name, chunks] of sheets) {
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    const { rows, columns } = sheetExtent(strFromU8(bytes));
    if (rows > limits.maxRow) return { ok: false, reason: 'sheetTooLarge', detail: `${name} reaches row ${rows} (at most ${limits.maxRow})` };
    if (columns > limits.maxColumn) return { ok: false, reason: 'sheetTooLarge', detail: `${name} reaches column ${columns} (at most ${limits.maxColumn})` };
  }
  return { ok: true };
}
