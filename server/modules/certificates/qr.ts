import QRCode from 'qrcode';

/**
 * The public verification URL a certificate's QR code carries. The public site serves /verify/<code>; the base is
 * PUBLIC_URL when configured (the address people reach), else the origin of the request that asked for the document.
 */
export function verificationUrl(base: string, verificationCode: string): string {
  return `${base.replace(/\/+$/, '')}/verify/${encodeURIComponent(verificationCode)}`;
}

/** Medium error correction survives a worn print or a stamp over a corner, at a size still easy to scan. */
const OPTIONS = { errorCorrectionLevel: 'M' } as const;

/** The QR code as a PNG (for pdfkit). `margin` is the quiet zone in modules; scanners need about 4. */
export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { ...OPTIONS, type: 'png', margin: 4, scale: 8, color: { dark: '#000000', light: '#ffffff' } });
}

/**
 * The QR code as one SVG path of rectangles (one per horizontal stretch of dark modules) in a `size` x `size` module grid, quiet zone
 * excluded; the caller scales and places it. A path of squares keeps the SVG free of fonts and images.
 */
export function qrModules(text: string): { size: number; path: string } {
  const { modules } = QRCode.create(text, OPTIONS);
  const parts: string[] = [];
  // One rectangle per horizontal stretch of dark modules: fewer path commands, and no hairline seams between
  // neighbouring squares when a renderer anti-aliases their edges.
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; ) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      let end = col;
      while (end < modules.size && modules.get(row, end)) end++;
      parts.push(`M${col} ${row}h${end - col}v1h-${end - col}z`);
      col = end;
    }
  }
  return { size: modules.size, path: parts.join('') };
}
