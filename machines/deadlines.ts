import type { DeadlineName } from './types';

/**
 * How the due time of each deadline name is found. `config` durations come from server configuration (the engine
 * reads the named variable); the others are computed here from the machine's context or the calendar, so
 * deadlinesOf() returns their `dueAt`.
 */
export type DeadlineRule =
  | { kind: 'config'; config: 'PAYMENT_WINDOW_HOURS' | 'DRAFT_RETENTION_DAYS'; unit: 'hours' | 'days'; description: string }
  | { kind: 'immediate'; description: string }
  | { kind: 'endOfMonth'; description: string }
  | { kind: 'contextDate'; field: 'expiresAt' | 'validFrom' | 'nextInstallmentAt'; offsetDays: number; description: string; optional?: boolean };

/** Spec 02 section 9: "Expiring soon: under 60 days". */
export const EXPIRING_SOON_DAYS = 60;

export const DEADLINES: Record<DeadlineName, DeadlineRule> = {
  paymentWindow: {
    kind: 'config',
    config: 'PAYMENT_WINDOW_HOURS',
    unit: 'hours',
    description: 'an unpaid bill expires (PAYMENT_WINDOW_HOURS, default 72)',
  },
  draftRetention: {
    kind: 'config',
    config: 'DRAFT_RETENTION_DAYS',
    unit: 'days',
    description: 'drafts and stopped requests are deleted (DRAFT_RETENTION_DAYS, default 30)',
  },
  immediately: { kind: 'immediate', description: 'at once: a step the system performs durably' },
  endOfMonth: {
    kind: 'endOfMonth',
    description: 'at the end of the Gregorian month, when bulk invoices are issued (spec 02 section 9)',
  },
  certificateExpiringSoon: {
    kind: 'contextDate',
    field: 'expiresAt',
    offsetDays: -EXPIRING_SOON_DAYS,
    description: `${EXPIRING_SOON_DAYS} days before the expiry date`,
  },
  certificateExpiry: { kind: 'contextDate', field: 'expiresAt', offsetDays: 0, description: 'on the expiry date' },
  markValidFrom: { kind: 'contextDate', field: 'validFrom', offsetDays: 0, description: 'on the start of validity' },
  markExpiringSoon: {
    kind: 'contextDate',
    field: 'expiresAt',
    offsetDays: -EXPIRING_SOON_DAYS,
    description: `${EXPIRING_SOON_DAYS} days before the expiry date`,
  },
  markExpiry: { kind: 'contextDate', field: 'expiresAt', offsetDays: 0, description: 'on the expiry date' },
  installmentDue: {
    kind: 'contextDate',
    field: 'nextInstallmentAt',
    offsetDays: 0,
    optional: true,
    description: 'on each anniversary while yearly instalments remain (none when paid in full)',
  },
};

const DAY_MS = 86_400_000;

/** The first instant of the next Gregorian month (UTC), i.e. the end of the current one. */
export function endOfGregorianMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/**
 * The due time of a deadline that does not depend on configuration, undefined for `config` ones (the engine
 * adds the configured duration to the entry time), null for an optional one that does not apply now.
 */
export function computedDueAt(name: DeadlineName, context: Record<string, unknown>, now: Date): Date | null | undefined {
  const rule = DEADLINES[name];
  switch (rule.kind) {
    case 'config':
      return undefined;
    case 'immediate':
      return now;
    case 'endOfMonth':
      return endOfGregorianMonth(now);
    case 'contextDate': {
      const raw = context[rule.field];
      if (rule.optional && (raw === null || raw === undefined)) return null;
      const date = typeof raw === 'string' || raw instanceof Date ? new Date(raw) : undefined;
      if (!date || Number.isNaN(date.getTime())) throw new Error(`deadline ${name}: context.${rule.field} is not a date`);
      return new Date(date.getTime() + rule.offsetDays * DAY_MS);
    }
  }
}
