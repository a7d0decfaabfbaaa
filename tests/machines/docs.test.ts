import { describe, expect, it } from 'vitest';
import { readCommitted, renderAll } from '../../scripts/docs-machines';
import { DEFINITIONS, definitions } from '../../machines';
import { REQUEST_KINDS, SERVICES } from '../../machines/services';

describe('generated machine docs', () => {
  it('docs/machines matches the machines (run `npm run docs:machines` after changing a machine)', () => {
    const expected = renderAll();
    const committed = readCommitted();
    expect([...committed.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, content] of expected) expect(committed.get(name), `docs/machines/${name} is stale`).toBe(content);
  });

  it('each machine page carries its readings of the spec, its table and its diagram', () => {
    const files = renderAll();
    // A page describes the current version of its machine.
    for (const d of DEFINITIONS.filter((x) => definitions[x.kind].current === x.version)) {
      const page = files.get(`${d.kind}.md`) ?? '';
      expect(page).toContain('## Readings of the spec');
      for (const reading of d.readings) expect(page).toContain(reading);
      expect(page).toContain('```mermaid');
      expect(page).toContain('| Code | State |');
    }
  });

  it('each request kind’s page states its service contract, every fee rule in words', () => {
    const files = renderAll();
    for (const kind of REQUEST_KINDS) {
      const page = files.get(`${kind}.md`) ?? '';
      expect(page).toContain('## Service contract');
      expect(page).not.toContain('(no reading)');
      for (const section of Object.keys(SERVICES[kind].sections)) expect(page).toContain(`\`${section}\``);
    }
  });
});
