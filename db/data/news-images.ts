import { deflateSync } from 'node:zlib';

/**
 * Illustrations of the demo news items, drawn here rather than shipped as binary files: a diagonal gradient in the
 * item's colours with a motif (badge, globe, wheat, ship, grid or handshake-like rings). PNG, 640 x 360.
 */
export type NewsMotif = 'badge' | 'globe' | 'wheat' | 'waves' | 'grid' | 'rings';

type Rgb = readonly [number, number, number];

const WHITE: Rgb = [255, 255, 255];
const W = 640;
const H = 360;

class Canvas {
  readonly px = new Uint8Array(W * H * 3);
  gradient(a: Rgb, b: Rgb) {
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const t = (x / W + y / H) / 2;
        const i = (y * W + x) * 3;
        for (let k = 0; k < 3; k++) this.px[i + k] = Math.round(a[k] + (b[k] - a[k]) * t);
      }
  }
  set(x: number, y: number, c: Rgb, alpha: number) {
    if (x < 0 || y < 0 || x >= W || y >= H || alpha <= 0) return;
    const i = (y * W + x) * 3;
    const a = Math.min(1, alpha);
    for (let k = 0; k < 3; k++) this.px[i + k] = Math.round(this.px[i + k] * (1 - a) + c[k] * a);
  }
  /** Filled disc (or ring when `inner` > 0) with a one-pixel soft edge. */
  disc(cx: number, cy: number, r: number, c: Rgb, alpha = 1, inner = 0) {
    for (let y = Math.floor(cy - r - 1); y <= cy + r + 1; y++)
      for (let x = Math.floor(cx - r - 1); x <= cx + r + 1; x++) {
        const d = Math.hypot(x - cx, y - cy);
        const outer = Math.max(0, Math.min(1, r - d + 0.5));
        const hole = inner > 0 ? Math.max(0, Math.min(1, d - inner + 0.5)) : 1;
        this.set(x, y, c, alpha * outer * hole);
      }
  }
  /** Filled convex polygon (points in order). */
  polygon(points: readonly (readonly [number, number])[], c: Rgb, alpha = 1) {
    const ys = points.map((p) => p[1]);
    for (let y = Math.floor(Math.min(...ys)); y <= Math.ceil(Math.max(...ys)); y++) {
      const xs: number[] = [];
      for (let i = 0; i < points.length; i++) {
        const [x0, y0] = points[i];
        const [x1, y1] = points[(i + 1) % points.length];
        if ((y >= y0 && y < y1) || (y >= y1 && y < y0)) xs.push(x0 + ((y - y0) / (y1 - y0)) * (x1 - x0));
      }
      if (xs.length < 2) continue;
      for (let x = Math.round(Math.min(...xs)); x < Math.round(Math.max(...xs)); x++) this.set(x, y, c, alpha);
    }
  }
  /** A sine wave across the picture, each pixel painted once (no seams where segments would overlap). */
  wave(yBase: number, amplitude: number, period: number, phase: number, thickness: number, alpha: number) {
    for (let x = 0; x < W; x++) {
      const yc = yBase + Math.sin((x + phase) / period) * amplitude;
      for (let y = Math.floor(yc - thickness); y <= Math.ceil(yc + thickness); y++) {
        this.set(x, y, WHITE, alpha * Math.max(0, Math.min(1, thickness / 2 - Math.abs(y - yc) + 0.5)));
      }
    }
  }
  /** Thick line segment. */
  line(x0: number, y0: number, x1: number, y1: number, width: number, c: Rgb, alpha = 1) {
    const minX = Math.floor(Math.min(x0, x1) - width);
    const maxX = Math.ceil(Math.max(x0, x1) + width);
    const minY = Math.floor(Math.min(y0, y1) - width);
    const maxY = Math.ceil(Math.max(y0, y1) + width);
    const dx = x1 - x0;
    const dy = y1 - y0;
    const len2 = dx * dx + dy * dy || 1;
    for (let y = minY; y <= maxY; y++)
      for (let x = minX; x <= maxX; x++) {
        const t = Math.max(0, Math.min(1, ((x - x0) * dx + (y - y0) * dy) / len2));
        const d = Math.hypot(x - (x0 + t * dx), y - (y0 + t * dy));
        this.set(x, y, c, alpha * Math.max(0, Math.min(1, width / 2 - d + 0.5)));
      }
  }
}


function drawMotif(cv: Canvas, motif: NewsMotif, accent: Rgb) {
  // Soft decorative circles common to every picture.
  cv.disc(90, 300, 140, WHITE, 0.06);
  cv.disc(580, 40, 110, WHITE, 0.08);
  const cx = 320;
  const cy = 180;
  switch (motif) {
    case 'badge': {
      for (let i = 0; i < 16; i++) {
        const a = (i / 16) * Math.PI * 2;
        cv.disc(cx + Math.cos(a) * 92, cy + Math.sin(a) * 92, 24, WHITE, 0.9);
      }
      cv.disc(cx, cy, 96, WHITE, 1);
      cv.disc(cx, cy, 80, accent, 1);
      cv.line(cx - 36, cy + 2, cx - 8, cy + 30, 16, WHITE);
      cv.line(cx - 8, cy + 30, cx + 42, cy - 28, 16, WHITE);
      break;
    }
    case 'globe': {
      cv.disc(cx, cy, 110, WHITE, 0.95);
      cv.disc(cx, cy, 104, accent, 1);
      for (const k of [-0.66, -0.33, 0, 0.33, 0.66]) {
        const y = cy + k * 104;
        const half = Math.sqrt(104 * 104 - (k * 104) ** 2);
        cv.line(cx - half, y, cx + half, y, 3, WHITE);
      }
      for (const rx of [35, 70]) {
        for (let t = 0; t <= 64; t++) {
          const a0 = (t / 64) * Math.PI * 2;
          const a1 = ((t + 1) / 64) * Math.PI * 2;
          cv.line(cx + Math.cos(a0) * rx, cy + Math.sin(a0) * 104, cx + Math.cos(a1) * rx, cy + Math.sin(a1) * 104, 3, WHITE);
        }
      }
      cv.line(cx, cy - 104, cx, cy + 104, 3, WHITE);
      break;
    }
    case 'wheat': {
      for (const [sx, tilt] of [
        [cx - 60, -0.25],
        [cx, 0],
        [cx + 60, 0.25],
      ] as const) {
        const topX = sx + tilt * 200;
        cv.line(sx, 320, topX, 90, 5, WHITE, 0.95);
        for (let i = 0; i < 6; i++) {
          const t = 0.15 + i * 0.1;
          const px = topX + (sx - topX) * t;
          const py = 90 + (320 - 90) * t;
          cv.disc(px - 14, py, 11, WHITE, 0.95);
          cv.disc(px + 14, py - 6, 11, WHITE, 0.95);
        }
        cv.disc(topX, 80, 11, WHITE, 0.95);
      }
      break;
    }
    case 'waves': {
      // A container ship: hull, stacked containers, mast.
      cv.polygon(
        [
          [cx - 160, 190],
          [cx + 170, 190],
          [cx + 130, 245],
          [cx - 135, 245],
        ],
        WHITE,
      );
      for (let i = 0; i < 5; i++) {
        cv.polygon(
          [
            [cx - 130 + i * 52, 130],
            [cx - 86 + i * 52, 130],
            [cx - 86 + i * 52, 184],
            [cx - 130 + i * 52, 184],
          ],
          i % 2 ? WHITE : accent,
        );
      }
      cv.line(cx + 150, 190, cx + 150, 100, 6, WHITE);
      for (let row = 0; row < 3; row++) cv.wave(272 + row * 28, 8, 30, row * 40, 5, 0.75 - row * 0.2);
      break;
    }
    case 'grid': {
      for (let r = 0; r < 5; r++)
        for (let c = 0; c < 9; c++) {
          const x = 120 + c * 50;
          const y = 80 + r * 50;
          const on = (r * 7 + c * 3) % 4 !== 0;
          cv.disc(x, y, on ? 14 : 9, on ? WHITE : accent, on ? 0.9 : 1);
        }
      cv.line(110, 300, 530, 300, 6, WHITE, 0.9);
      break;
    }
    case 'rings': {
      cv.disc(cx - 55, cy, 95, WHITE, 0.95, 80);
      cv.disc(cx + 55, cy, 95, WHITE, 0.95, 80);
      cv.disc(cx, cy, 30, accent, 1);
      cv.disc(cx, cy, 18, WHITE, 1);
      break;
    }
  }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function encodePng(px: Uint8Array): Buffer {
  const raw = Buffer.alloc((W * 3 + 1) * H);
  for (let y = 0; y < H; y++) {
    raw[y * (W * 3 + 1)] = 0; // filter: none
    raw.set(px.subarray(y * W * 3, (y + 1) * W * 3), y * (W * 3 + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 6 })), chunk('IEND', new Uint8Array())]);
}

const rendered = new Map<string, Buffer>();

/** A 640 x 360 PNG: gradient from `from` to `to` with the motif drawn in white and `accent` (memoised per process). */
export function newsImagePng(motif: NewsMotif, from: Rgb, to: Rgb, accent: Rgb): Buffer {
  const key = JSON.stringify([motif, from, to, accent]);
  let png = rendered.get(key);
  if (!png) {
    const cv = new Canvas();
    cv.gradient(from, to);
    drawMotif(cv, motif, accent);
    png = encodePng(cv.px);
    rendered.set(key, png);
  }
  return png;
}
