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
  }
}
export {};
