import { setup } from 'xstate';
import { effectActions } from './effects';
import { mayGuard } from './guards';
import type { BaseContext, MachineEvent, MachineInput, Queue, StateMeta } from './types';

/** Context fields every entity machine (bill, certificate, Halal mark, delegation) starts with. */
export function baseContext(input: MachineInput): BaseContext {
  return {
    requestId: input.requestId,
    ownerUserId: input.ownerUserId,
    facilityId: input.facilityId,
    assigneeUserId: null,
  };
}

/** An ISO date from the entity's input data; a missing or bad date stops the start (the engine reports it). */
export function inputDate(input: MachineInput, field: string): string {
  const raw = input.data?.[field];
  const date = typeof raw === 'string' || raw instanceof Date ? new Date(raw) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw new Error(`input.data.${field} must be a date`);
  return date.toISOString();
}

export function inputString(input: MachineInput, field: string): string {
  const raw = input.data?.[field];
  if (typeof raw !== 'string' || raw === '') throw new Error(`input.data.${field} is required`);
  return raw;
}

/** The setup of an entity machine with its own context type. */
export function entitySetup<TContext extends BaseContext>() {
  return setup({
    types: {} as { context: TContext; events: MachineEvent; input: MachineInput; tags: Queue; meta: StateMeta },
    guards: { may: mayGuard },
    actions: { ...effectActions },
  });
}
