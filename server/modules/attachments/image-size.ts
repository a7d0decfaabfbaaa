import { open } from 'node:fs/promises';

export interface ImageSize {
  width: number;
  height: number;
}

/** Reads `length` bytes at `position` (fewer at the end of the file). */
type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** PNG: the IHDR chunk right after the 8-byte signature holds width and height (big-endian). */
async function pngSize(read: ReadAt): Promise<ImageSize | null> {
  const b = await read(0, 24);
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

// Start-of-frame markers carry the frame size; C4 (DHT), C8 (JPG extension) and CC (DAC) share the range but do not.
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/**
 * JPEG: walks the marker segments from the start (EXIF and other APPn segments can be up to 64 KB each, so the
 * frame header may be far in) until a start-of-frame segment, which holds height then width.
 */
async function jpegSize(read: ReadAt): Promise<ImageSize | null> {
  let pos = 2;
  for (let guard = 0; guard < 1000; guard++) {
    const head = await read(pos, 9);
    if (head.length < 4 || head[0] !== 0xff) return null;
    const marker = head[1];
    if (marker === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      pos += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / start of scan before any frame header
    const length = head.readUInt16BE(2);
    if (SOF.has(marker)) {
      if (head.length < 9) return null;
      return { height: head.readUInt16BE(5), width: head.readUInt16BE(7) };
    }
    if (length < 2) return null;
    pos += 2 + length;
  }
  return null;
}

/** Pixel size of a PNG or JPEG file, or null when its header cannot be read (a damaged or forged image). */
export async function readImageSize(path: string, mime: 'image/png' | 'image/jpeg'): Promise<ImageSize | null> {
  const fh = await open(path, 'r');
  try {
    const read: ReadAt = async (position, length) => {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, position);
      return buf.subarray(0, bytesRead);
    };
    return mime === 'image/png' ? await pngSize(read) : await jpegSize(read);
  } finally {
    await fh.close();
  }
}
