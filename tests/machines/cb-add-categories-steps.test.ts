import { describe, expect, it } from 'vitest';
import { CB_ADD_CATEGORIES_STEPS, cbAddCategoriesV1, findCbAddCategoriesStep } from '../../machines/cb-add-categories';

/*
 * The CB certificate page shows each add-categories request's step of three (spec 02 section 4) from the server's
 * answer. A state left out of the steps would be shown as some step it is not; this holds the steps to the machine.
 */
const topLevelStates = Object.keys((cbAddCategoriesV1.machine as unknown as { root: { states: Record<string, unknown> } }).root.states);

describe('the three steps of an add-categories request', () => {
  it('place every top-level state of the machine in exactly one step', () => {
    const placed = CB_ADD_CATEGORIES_STEPS.flatMap((s) => [...s.states]);
    expect([...placed].sort()).toEqual([...topLevelStates].sort());
  });

  it('keep a request returned to the CB in audit review, where it goes back when resubmitted', () => {
    expect(topLevelStates).toContain('returned');
    expect(findCbAddCategoriesStep('returned')).toEqual({ key: 'auditReview', index: 1, count: 3 });
    expect(findCbAddCategoriesStep('auditReview.underReview')).toEqual({ key: 'auditReview', index: 1, count: 3 });
  });

  it('give no step for a state in none of them instead of showing it as the first step', () => {
    // The list shows such a row without a step, so one row does not fail the CB's whole list.
    expect(findCbAddCategoriesStep('somewhereElse')).toBeNull();
    expect(findCbAddCategoriesStep('somewhereElse.underReview')).toBeNull();
    expect(findCbAddCategoriesStep('waitingIssue')).toEqual({ key: 'issue', index: 2, count: 3 });
  });
});
