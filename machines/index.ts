/**
 * The lifecycle machines of the Halal portal: the single source of truth for statuses, the events that move a
 * request, and who may send them. Pure: no I/O, no database (effects are actions the engine applies).
 *
 * Use: `getMachine(kind, version)` with xstate's `initialTransition(machine, input)` and
 * `transition(machine, snapshot, event)`; `allowedActions` for what a user may do now; `statusOf`, `queueOf`,
 * `deadlinesOf` to store and schedule; `validateEvent` before sending; `effectsOf(actions)` for the DB effects.
 */
export { registry, getMachine, getDefinition, definitions, isMachineKind, DEFINITIONS } from './registry';
export { allowedActions, allowedActionsOf, canSend, guardParamsOf, mayAct, mayStart, queueWorkPermissions, type AllowedAction } from './allowed-actions';
export { statusOf, queueOf, deadlinesOf, toSnapshot, type ActiveDeadline, type PersistedSnapshot } from './snapshot';
export { eventSchemas, validateEvent, parseEvent, parseStartData, parseEventPayload, eventTypesOf, type EventIssue, type ParsedEvent } from './validate-event';
export { EVENT_DEFINITIONS, EventMessage, ZAuditPlan, ZNonConformity, ZCorrectiveAction, ZReturnPayload, ZEditPayload } from './events';
export { catalogues, statusCatalogue, kindOfRequestType, stateNodesOf, REQUEST_KINDS, type StatusEntry } from './catalogues';
export { EFFECT_NAMES, PAYMENT_SERVICES, effectsOf, isEffectName, type Effect, type EffectParams } from './effects';
export { DEADLINES, EXPIRING_SOON_DAYS, computedDueAt, endOfGregorianMonth, type DeadlineRule } from './deadlines';
export { RELATIONS, authorize, type MayParams, type Relation } from './guards';
export { CONDITIONS, type ConditionName } from './conditions';
export { sectionsOf } from './sections';
export { DELETED_STATUS } from './fragments/common';
export { GENERAL_READINGS } from './readings';
export { halalMarkCodeFromReadingB, HALAL_MARK_CODES, HALAL_MARK_CODES_READING_B } from './halal-mark';
export { statusLabel, eventLabel, translate, type Language } from './labels';
export * from './types';
export type { MachineDefinition, StatusAlias } from './definition';
