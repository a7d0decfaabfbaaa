import { afterAll, describe, expect, it } from 'vitest';
import { MACHINE_KINDS } from '../../machines';
import { walkMachine, type Coverage } from './coverage';

const results: Coverage[] = [];

describe('model-based paths through every machine', () => {
  for (const kind of MACHINE_KINDS) {
    it(`${kind}: every state reached and every transition taken`, async () => {
      const c = await walkMachine(kind);
      results.push(c);
      const missingStates = c.states.filter((s) => !c.coveredStates.has(s));
      const missingTransitions = c.transitions.filter((t) => !c.coveredTransitions.has(t));
      console.log(
        `${kind}: states ${c.states.length - missingStates.length}/${c.states.length}, transitions ${c.transitions.length - missingTransitions.length}/${c.transitions.length}, ${c.paths} paths, ${c.steps} steps`,
      );
      expect(missingStates).toEqual([]);
      expect(missingTransitions).toEqual([]);
    });
  }

  afterAll(() => {
    const sum = (f: (c: Coverage) => number) => results.reduce((n, c) => n + f(c), 0);
    const states = sum((c) => c.states.length);
    const coveredStates = sum((c) => c.states.filter((s) => c.coveredStates.has(s)).length);
    const transitions = sum((c) => c.transitions.length);
    const coveredTransitions = sum((c) => c.transitions.filter((t) => c.coveredTransitions.has(t)).length);
    console.log(
      `machines: ${results.length} states ${coveredStates}/${states} covered, transitions ${coveredTransitions}/${transitions} covered`,
    );
  });
});
