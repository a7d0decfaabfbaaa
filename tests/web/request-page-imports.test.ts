import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MACHINE_KINDS } from '../../machines/types';
import { sectionsOf } from '../../machines/sections';
import { REQUEST_SECTIONS } from '../../web/src/routes/requests/request-sections';

const ROOT = resolve(__dirname, '../..');

/** The files a module pulls in when it runs: its static imports, recursively (not `import type`, not `import()`). */
function staticImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.[^']+)'/gms)) {
      const base = resolve(dirname(file), m[1]!);
      const found = ['.ts', '.tsx', '/index.ts', '/index.tsx', ''].map((ext) => base + ext).find((f) => existsSync(f) && !f.endsWith('/'));
      if (found && /\.tsx?$/.test(found)) visit(found);
    }
  };
  visit(entry);
  return new Set([...seen].map((f) => relative(ROOT, f)));
}

describe('the request page loads neither the action dialogs nor the service registry with its first render', () => {
  const page = staticImports(join(ROOT, 'web/src/routes/requests/RequestPage.tsx'));

  it('reaches the action dialogs only through import() (LazyEventDialog)', () => {
    expect(page).toContain('web/src/routes/requests/ActionBar.tsx');
    expect(page).toContain('web/src/routes/requests/LazyEventDialog.tsx');
    expect(page).not.toContain('web/src/routes/requests/EventDialog.tsx');
    expect(page).not.toContain('web/src/components/ConfirmDialog.tsx');
  });

  it('does not import the service registry (its forms and zod schemas)', () => {
    expect(page).not.toContain('machines/services/index.ts');
    expect(page).not.toContain('machines/sections.ts');
    expect([...page].filter((f) => f.startsWith('machines/forms/'))).toEqual([]);
  });

  it('its plain tables say what the registry says', () => {
    for (const kind of MACHINE_KINDS) expect([kind, REQUEST_SECTIONS[kind]]).toEqual([kind, sectionsOf(kind)]);
  });
});
