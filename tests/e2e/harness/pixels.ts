import { PNG } from 'pngjs';

/**
 * The pixels that differ between two PNG screenshots (alpha ignored), and an image of them: the first screenshot
 * faded, the differing pixels in red. Null when the sizes differ. Used by prerender.e2e.ts and tests/bench/look.ts.
 */
export function pixelDifference(first: Buffer, second: Buffer): { pixels: number; image: PNG } | null {
  const a = PNG.sync.read(first);
  const b = PNG.sync.read(second);
  if (a.width !== b.width || a.height !== b.height) return null;
  const image = new PNG({ width: a.width, height: a.height });
  let pixels = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const same = a.data[i] === b.data[i] && a.data[i + 1] === b.data[i + 1] && a.data[i + 2] === b.data[i + 2];
    if (!same) pixels++;
    for (let c = 0; c < 3; c++) image.data[i + c] = same ? 170 + a.data[i + c]! / 3 : c === 0 ? 255 : 0;
    image.data[i + 3] = 255;
  }
  return { pixels, image };
}
