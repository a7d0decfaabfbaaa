import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { portalSettings } from '../../db/schema';
import {
  DEFAULT_AUDIT_LOG_RETENTION_DAYS,
  ZPortalSettings,
  mergeSettings,
  settingChanges,
  type PortalSettings,
  type SettingChange,
} from '../../machines/admin-settings';
import type { BusinessSettings } from '../../machines/services/settings';
import { AppError, AppErrorCode } from '../errors';
import { writeAudit } from './audit-log';

const KEY = 'business';

export interface SettingsSnapshot {
  value: PortalSettings;
  defaults: PortalSettings;
  /** 0 while nothing was saved (the environment defaults are in force). */
  version: number;
  updatedAt: string | null;
}

export interface Changer {
  userId: string | null;
  userName: string | null;
  ip?: string | null;
}

/**
 * The business settings in force: the environment defaults with the administrator's saved row laid over them.
 * `current()` is synchronous (the engine reads it inside effects) and answers from memory; it starts a reload in the
 * background when the copy is older than `refreshMs`, so a change saved by another server or worker process is in
 * force within that time, and a change saved through this process at once. No restart either way.
 */
export class SettingsStore {
  private value: PortalSettings;
  private version = 0;
  private updatedAt: Date | null = null;
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    readonly defaults: PortalSettings,
    private readonly refreshMs = 2_000,
    private readonly log: (msg: string, err?: unknown) => void = () => undefined,
  ) {
    this.value = defaults;
  }

  current(): PortalSettings {
    if (!this.closed && Date.now() - this.loadedAt > this.refreshMs) void this.refresh();
    return this.value;
  }

  /** Reads the saved row now (concurrent calls share one read). A row that no longer validates is ignored. */
  refresh(): Promise<void> {
    this.loading ??= this.load().finally(() => (this.loading = null));
    return this.loading;
  }

  snapshot(): SettingsSnapshot {
    return { value: this.value, defaults: this.defaults, version: this.version, updatedAt: this.updatedAt?.toISOString() ?? null };
  }

  close(): void {
    this.closed = true;
  }

  private async load(): Promise<void> {
    try {
      const [row] = await this.db.select().from(portalSettings).where(eq(portalSettings.key, KEY));
      this.loadedAt = Date.now();
      if (!row) {
        this.value = this.defaults;
        this.version = 0;
        this.updatedAt = null;
        return;
      }
      const parsed = ZPortalSettings.safeParse(mergeSettings(this.defaults, row.value));
      if (!parsed.success) {
        this.log('saved settings do not validate; the environment defaults stay in force', parsed.error);
        return;
      }
      this.value = parsed.data;
      this.version = row.version;
      this.updatedAt = row.updatedAt;
    } catch (err) {
      // The database going away (shutdown) must not break a caller that only wanted the current values.
      this.loadedAt = Date.now();
      if (!this.closed) this.log('could not reload the settings', err);
    }
  }

  /**
   * Saves new settings (validated by ZPortalSettings) if `expectedVersion` is still the saved one, audits every
   * changed value with its old and new value, and puts them in force at once.
   */
  async update(next: unknown, expectedVersion: number, by: Changer): Promise<{ snapshot: SettingsSnapshot; changes: SettingChange[] }> {
    const parsed = ZPortalSettings.safeParse(next);
    if (!parsed.success) {
      throw new AppError(
        AppErrorCode.ValidationFailed,
        {},
        parsed.error.issues.map((i) => {
          const field = i.path.join('.');
          if (i.message.startsWith('settings.')) return { field, message: `admin:${i.message}` };
          if (i.code === 'too_small') return { field, message: 'min', params: { min: Number(i.minimum) } };
          if (i.code === 'too_big') return { field, message: 'max', params: { max: Number(i.maximum) } };
          return { field, message: 'invalid' };
        }),
      );
    }
    const value = parsed.data;
    const changes = await this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(portalSettings).where(eq(portalSettings.key, KEY)).for('update');
      const version = row?.version ?? 0;
      if (version !== expectedVersion) throw new AppError(AppErrorCode.ConcurrencyConflict);
      const before = row ? mergeSettings(this.defaults, row.value) : this.defaults;
      const changes = settingChanges(before, value);
      if (!changes.length) return changes;
      const now = new Date();
      if (row) {
        await tx.update(portalSettings).set({ value, version: version + 1, updatedBy: by.userId, updatedAt: now }).where(eq(portalSettings.key, KEY));
      } else {
        await tx.insert(portalSettings).values({ key: KEY, value, version: 1, updatedBy: by.userId, updatedAt: now });
      }
      await writeAudit(tx, {
        action: 'settings.change',
        userId: by.userId,
        userName: by.userName,
        ip: by.ip ?? null,
        outcome: 'success',
        details: { version: version + 1, changes },
      });
      return changes;
    });
    await this.refresh();
    return { snapshot: this.snapshot(), changes };
  }
}

/** The environment's business settings plus the portal's own defaults. */
export function portalDefaults(business: BusinessSettings): PortalSettings {
  return { ...business, auditLogRetentionDays: DEFAULT_AUDIT_LOG_RETENTION_DAYS, holidays: [] };
}
