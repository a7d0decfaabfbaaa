import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSystem } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { appSystem, UNUSED_PALETTES } from '../../web/src/theme';

/**
 * The portal's Chakra system leaves out the colour palettes it never draws with (web/src/theme.ts, issue 18): a
 * badge or button given a missing palette has no colour at all. Palettes are chosen at run time from tables and
 * conditions (status badges, clocks, danger buttons), so instead of following each `colorPalette` this reads every
 * string literal of web/src: each of Chakra's palette names that appears ('red', "green.600"...) must be in the
 * system, with its shades and its semantic tokens.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const system = appSystem();
const hasPalette = (s: typeof system, palette: string) => s.tokens.getByName(`colors.${palette}.500`) !== undefined && s.tokens.getByName(`colors.${palette}.solid`) !== undefined;
/** Chakra's own palettes: shades and semantic tokens (not `bg`, `fg`, `whiteAlpha`...). */
const chakraPalettes = [...new Set(defaultSystem.tokens.allTokens.map((t) => (t.extensions.colorPalette as { value?: string } | undefined)?.value))].filter(
  (p): p is string => typeof p === 'string' && hasPalette(defaultSystem, p),
);

describe('the Chakra system colour palettes', () => {
  it('holds every Chakra palette named in web/src, shades and semantic tokens', () => {
    expect(chakraPalettes).toEqual(expect.arrayContaining(['gray', 'red', 'green', ...UNUSED_PALETTES]));
    const named = new Set<string>();
    const literal = new RegExp(`['"\`](${chakraPalettes.join('|')})(\\.[\\w.]+)?['"\`]`, 'g');
    for (const file of sourceFiles(join(ROOT, 'web/src')))
      for (const m of readFileSync(file, 'utf8').matchAll(literal)) if (!file.endsWith('theme.ts')) named.add(m[1]!);
    // What the portal uses today: statuses, clocks, danger actions, HS eligibility.
    expect([...named].sort()).toEqual(expect.arrayContaining(['gray', 'green', 'orange', 'red', 'yellow', 'blue']));
    expect([...named].filter((p) => !hasPalette(system, p))).toEqual([]);
  });

  it('keeps the portal palettes and leaves out only the unused ones', () => {
    for (const p of ['brand', 'gray', 'red', 'orange', 'yellow', 'green', 'blue']) expect(hasPalette(system, p), p).toBe(true);
    for (const p of UNUSED_PALETTES) expect(hasPalette(system, p), p).toBe(false);
  });
});
