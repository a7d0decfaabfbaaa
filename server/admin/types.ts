import type { Tx } from '../../db/client';
import type { SettingsStore } from './settings-store';

declare module 'fastify' {
  interface FastifyInstance {
    /** The settings store behind `app.settings` (setting-management): snapshot, update, refresh. */
    settingsStore: SettingsStore;
  }
  interface FastifyRequest {
    /** One of the signed-in user's roles is read-only (the auditor): every write is refused. */
    readOnly: boolean;
    /** The error code of a refused call, kept for its audit-log row. */
    auditErrorCode?: string;
    /**
     * Writes this call's success row (status 200) inside the given transaction: an event's, through the engine's
     * SendOptions.alsoWrite. Once it has been written, onResponse writes no row for a successful answer.
     */
    auditInEvent(tx: Tx): Promise<void>;
    /** auditInEvent wrote this call's row (in a transaction that committed, if the answer is a success). */
    auditWrittenInEvent: boolean;
  }
}
export {};
