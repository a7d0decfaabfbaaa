import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultSystem } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { appSystem } from '../../web/src/theme';

const system = appSystem();

/**
 * The portal's Chakra system carries only the recipes of the components it uses (web/src/theme.ts, issue 18): a
 * component whose recipe is missing renders unstyled, silently. This reads every component the web imports from
 * @chakra-ui/react, finds the module Chakra defines it in, and requires each recipe key that module styles itself
 * with, and that Chakra's default theme defines, to be in the system.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHAKRA = join(ROOT, 'node_modules/@chakra-ui/react/dist/esm/components');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The names the web imports from '@chakra-ui/react'. */
function importedComponents(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(join(ROOT, 'web/src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g))
      for (const part of m[1]!.split(','))
        if (!part.trim().startsWith('type ')) {
          const name = part.trim().split(/\s+as\s+/)[0]!;
          if (/^[A-Z]/.test(name)) names.add(name);
        }
  }
  return names;
}

/** Export name -> the files of Chakra's components/index.js that define it (a namespace: the files it re-exports). */
function definingFiles(): Map<string, string[]> {
  const index = readFileSync(join(CHAKRA, 'index.js'), 'utf8');
  const files = new Map<string, string[]>();
  const namespaces = new Map<string, string>();
  for (const m of index.matchAll(/import \* as (\S+) from '\.\/([^']+)'/g)) namespaces.set(m[1]!, m[2]!);
  for (const m of index.matchAll(/export \{([^}]*)\}(?: from '\.\/([^']+)')?/g)) {
    for (const part of m[1]!.split(',')) {
      const [local, exported = local] = part.trim().split(/\s+as\s+/) as [string, string?];
      const from = m[2] ?? namespaces.get(local);
      if (!from) continue;
      const file = join(CHAKRA, from);
      if (!from.endsWith('namespace.js')) files.set(exported, [file]);
      else {
        const reexports = [...readFileSync(file, 'utf8').matchAll(/from '\.\/([^']+)'/g)].map((r) => join(dirname(file), r[1]!));
        files.set(exported, reexports);
      }
    }
  }
  return files;
}

describe('the Chakra system', () => {
  it('has the recipe of every Chakra component the web uses', () => {
    const files = definingFiles();
    const used = importedComponents();
    const missing: string[] = [];
    let styled = 0;
    for (const name of used) {
      for (const file of files.get(name) ?? []) {
        for (const m of readFileSync(file, 'utf8').matchAll(/(useRecipe|useSlotRecipe|createRecipeContext|createSlotRecipeContext)\(\s*\{\s*key:\s*"([^"]+)"/g)) {
          const [key, slot] = [m[2]!, m[1]!.includes('Slot')];
          const has = (s: typeof system) => (slot ? s.isSlotRecipe(key) : s.isRecipe(key));
          // A key the default theme lacks too (Text's "text") is styled by props alone.
          if (has(defaultSystem)) styled++;
          if (has(defaultSystem) && !has(system)) missing.push(`${name}: ${slot ? 'slot recipe' : 'recipe'} ${key}`);
        }
      }
    }
    // The scan itself must work: the portal uses dozens of styled components (buttons, dialogs, tables...).
    expect(used.size).toBeGreaterThan(20);
    expect(styled).toBeGreaterThan(20);
    expect(missing).toEqual([]);
  });
});
