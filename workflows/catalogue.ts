import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import type { Actor } from '../machines/actor';
import type { AllowedAction } from './engine';

/** A field error of an event payload: `message` is a key of locales/<lang>/validation.json. */
export interface EventIssue {
  field: string;
  message: string;
  params?: Record<string, unknown>;
}

export interface Deadline {
  /** The event the timer sends (PAYMENT_EXPIRED, DRAFT_EXPIRED, ...). */
  event: string;
  /** The deadline's name ('paymentWindow', 'draftRetention', 'certificateExpiry', ...). */
  after: string;
  /**
   * The due time when the machine computes it (from a context date, the month end, or "immediately"); absent for
   * configured durations, which the engine adds to the time the state was entered. ISO string.
   */
  computedDueAt?: string;
  /** Id of the state node that declares it. */
  stateId?: string;
}

/**
 * What the engine needs from the machines. The production catalogue wraps `machines/index.ts`
 * (workflows/machines-catalogue.ts); tests may pass a small one of their own. Kept as an interface so the engine
 * depends on the machines' contract, not on every machine module.
 */
export interface MachineCatalogue {
  hasKind(kind: string): boolean;
  currentVersion(kind: string): number;
  /** The machine of `kind` at `version` (a request keeps the version it started with). */
  getMachine(kind: string, version: number): AnyStateMachine;
  /** Only events the active states take (one of `getNextTransitions`): the engine reads "allowed" as "taken". */
  allowedActions(kind: string, snapshot: AnyMachineSnapshot, actor: Actor, version: number): AllowedAction[];
  /** Whether allowedActions would list `type` (optional: without it the engine builds the list and looks). */
  mayAct?(kind: string, snapshot: AnyMachineSnapshot, actor: Actor, version: number, type: string): boolean;
  statusOf(snapshot: AnyMachineSnapshot): number;
  queueOf(snapshot: AnyMachineSnapshot): string | null;
  /** The active deadlines; `now` (default: the wall clock) places those computed from the calendar (month end, at once). */
  deadlinesOf(snapshot: AnyMachineSnapshot, now?: Date): Deadline[];
  /**
   * The one validation of an event (machines/validate-event.ts parseEvent): its payload schema and, for request kinds,
   * the service contract against the request's stored data, and (given the current snapshot) the field rules its
   * state's guards put on the payload. Returns the payload the transition must use.
   */
  parseEvent(kind: string, event: { type: string; [k: string]: unknown }, context: Record<string, unknown>, snapshot?: AnyMachineSnapshot): ParsedPayload;
  /** The first data of a new request, parsed like an edit. */
  parseStartData(kind: string, data: Record<string, unknown> | undefined): ParsedPayload;
}

export type ParsedPayload = { ok: true; payload: Record<string, unknown> } | { ok: false; issues: EventIssue[] };
