import { describe, expect, it } from 'vitest';
import { DeterminismViolationError } from '@temporalio/workflow';
import { historyFromJson } from './harness/history-json';
import { WORKFLOWS, committedHistories, replay, type HistoryFile } from './helpers';

/*
 * The committed histories (histories/*.json, written by record-histories.ts, in the CLI/UI export format) replayed
 * by the real Temporal core with Worker.runReplayHistories: the workflow code of today must issue exactly the
 * commands those runs issued. A change that breaks this breaks every request in flight on a cluster.
 */

interface JsonEvent {
  eventId: string;
  eventType: string;
  [attributes: string]: unknown;
}
const eventsOf = (h: HistoryFile) => (h.json as { events: JsonEvent[] }).events;
const typesOf = (h: HistoryFile) => eventsOf(h).map((e) => e.eventType.replace(/^EVENT_TYPE_/, ''));

const histories = committedHistories();
const byFile = (file: string) => {
  const h = histories.find((x) => x.file === file);
  if (!h) throw new Error(`histories/${file} is missing`);
  return h;
};

describe('committed histories replay on today\u2019s workflow code', () => {
  for (const workflows of [...new Set(histories.map((h) => h.workflows))]) {
    const group = histories.filter((h) => h.workflows === workflows);
    it(`${group.length} histories on the ${workflows} worker`, async () => {
      const results = await replay(
        WORKFLOWS[workflows],
        group.map((h) => ({ workflowId: h.workflowId, history: historyFromJson(h.json) })),
      );
      expect(results.map((r, i) => [group[i].file, r.error?.message])).toEqual(group.map((h) => [h.file, undefined]));
    });
  }

  it('together they cover accepted and refused updates, a fired timer, continue-as-new and a pinned machine version', () => {
    const all = histories.flatMap(typesOf);
    expect(all).toContain('WORKFLOW_EXECUTION_UPDATE_ACCEPTED');
    expect(all).toContain('TIMER_FIRED');
    expect(all).toContain('TIMER_CANCELED');
    expect(all).toContain('WORKFLOW_EXECUTION_CONTINUED_AS_NEW');
    expect(all).toContain('MARKER_RECORDED');
    expect(all).toContain('WORKFLOW_EXECUTION_SIGNALED');
    // An update accepted, then refused by the handler (the state had moved on): its completion carries a failure.
    const failed = histories.flatMap(eventsOf).filter((e) => e.eventType === 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED');
    expect(failed.some((e) => JSON.stringify(e).includes('"failure"'))).toBe(true);
    // The version-1 history has no patch marker and is replayed by the worker that knows version 2.
    expect(typesOf(byFile('fixture-machine-v1.json'))).not.toContain('MARKER_RECORDED');
    expect(byFile('fixture-machine-v1.json').workflows).toBe('fixtureV2');
  });
});

/** Removes events and renumbers the rest, fixing every *EventId reference, as if they had never been written. */
function without(h: HistoryFile, drop: (e: JsonEvent) => boolean): HistoryFile {
  const events = structuredClone(eventsOf(h));
  const kept = events.filter((e) => !drop(e));
  const ids = new Map(kept.map((e, i) => [e.eventId, String(i + 1)]));
  const renumber = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(renumber);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (/EventId$/.test(k) && typeof v === 'string' && ids.has(v)) (node as Record<string, unknown>)[k] = ids.get(v);
      else renumber(v);
    }
  };
  kept.forEach(renumber);
  for (const e of kept) e.eventId = ids.get(e.eventId)!;
  return { ...h, json: { events: kept } };
}

async function replayError(h: HistoryFile): Promise<Error | undefined> {
  const [r] = await replay(WORKFLOWS[h.workflows], [{ workflowId: h.workflowId, history: historyFromJson(h.json) }]);
  return r.error;
}

describe('replay catches what would break running workflows', () => {
  it('without its patch marker, a version-2 history replays on version 1 and diverges (the marker is what pins it)', async () => {
    const v2 = byFile('fixture-machine-v2.json');
    expect(await replayError(v2)).toBeUndefined();
    const unmarked = without(v2, (e) => e.eventType === 'EVENT_TYPE_MARKER_RECORDED' || e.eventType === 'EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES');
    expect(await replayError(unmarked)).toBeInstanceOf(DeterminismViolationError);
  });

  it('a history whose fired timer is missing does not replay', async () => {
    const deadline = byFile('fixture-payment-deadline.json');
    const fired = eventsOf(deadline).find((e) => e.eventType === 'EVENT_TYPE_TIMER_FIRED')!;
    const startedId = (fired.timerFiredEventAttributes as { startedEventId: string }).startedEventId;
    const noTimer = without(deadline, (e) => e.eventId === startedId || e.eventId === fired.eventId);
    expect(await replayError(noTimer)).toBeInstanceOf(DeterminismViolationError);
  });

  it('an activity of another type in history does not replay', async () => {
    const h = structuredClone(byFile('fixture-accepted-and-refused.json'));
    const scheduled = eventsOf(h).find((e) => e.eventType === 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED')!;
    (scheduled.activityTaskScheduledEventAttributes as { activityType: { name: string } }).activityType.name = 'sendEmail';
    expect(await replayError(h)).toBeInstanceOf(DeterminismViolationError);
  });
});
