import type { AnyStateMachine } from 'xstate';
import type { MachineKind } from './types';

/** A status code kept in a catalogue as another spelling of a code the machine emits (imported data). */
export interface StatusAlias {
  code: number;
  aliasOf: number;
  why: string;
}

/**
 * One version of one lifecycle with what the docs and catalogues need besides the machine itself. `readings` are
 * the choices made where the spec is silent; the generated docs print them under "Readings of the spec".
 */
export interface MachineDefinition {
  kind: MachineKind;
  version: number;
  machine: AnyStateMachine;
  title: string;
  /** The spec 02 section 4 catalogue the codes come from. */
  catalogue: string;
  /** Request type codes (spec 02 section 3) served by this machine. */
  requestTypes?: readonly (number | string)[];
  /** Request kind code (spec 01 section 3). */
  requestKind?: number;
  aliases?: readonly StatusAlias[];
  readings: readonly string[];
}
