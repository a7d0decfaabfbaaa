import { and, asc, eq, lt } from 'drizzle-orm';
import { personalDataRequests } from '../../../db/schema';
import type { Db } from '../../../db/client';
import { tFor } from '../../i18n';
import { collectPersonalData } from './personal-data';
import { PERSONAL_DATA } from '../../../machines/personal-data';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Prepares personal-data files in the background. A request row is the job: the runner claims the oldest
 * `preparing` row with FOR UPDATE SKIP LOCKED and stores the file in the same transaction, so a crash (or several
 * servers on one database) can neither lose nor duplicate a preparation. It runs when the server is ready, every
 * `pollMs`, and at once after a new request (`nudge`).
 */
export class PersonalDataJobs {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;

  constructor(
    private readonly db: Db,
    private readonly log: (msg: string, err: unknown) => void,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => void this.nudge(), PERSONAL_DATA.pollMs);
    this.timer.unref();
    void this.nudge();
  }

  /** Stops taking new jobs and waits for the one in hand (its transaction commits or rolls back whole). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs the queue now; resolves when it is empty (or the runner is stopped). */
  nudge(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => (this.running = null));
    return this.running;
  }

  private async drain(): Promise<void> {
    do {
      this.again = false;
      while (!this.stopped && (await this.prepareOne())) {
        // next waiting request
      }
      if (!this.stopped) await this.expire();
    } while (this.again && !this.stopped);
  }

  /** Prepares the oldest waiting request; false when there is none (or it failed, to be retried on the next poll). */
  private async prepareOne(): Promise<boolean> {
    try {
      return await this.db.transaction(async (tx) => {
        const [job] = await tx
          .select({ id: personalDataRequests.id, userId: personalDataRequests.userId, language: personalDataRequests.language, attempts: personalDataRequests.attempts })
          .from(personalDataRequests)
          .where(eq(personalDataRequests.status, 'preparing'))
          .orderBy(asc(personalDataRequests.requestedAt))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!job) return false;
        try {
          const data = await tx.transaction(async (inner) => collectPersonalData(inner, job.userId, tFor(job.language)));
          await tx
            .update(personalDataRequests)
            .set({ status: 'ready', readyAt: new Date(), data: JSON.stringify(data, null, 2) })
            .where(eq(personalDataRequests.id, job.id));
          return true;
        } catch (err) {
          this.log('could not prepare a personal-data file', err);
          const attempts = job.attempts + 1;
          await tx
            .update(personalDataRequests)
            .set({ attempts, status: attempts >= PERSONAL_DATA.maxAttempts ? 'failed' : 'preparing' })
            .where(eq(personalDataRequests.id, job.id));
          return false;
        }
      });
    } catch (err) {
      this.log('could not claim a personal-data request', err);
      return false;
    }
  }

  /** Deletes the files kept longer than `keepDays`. */
  private async expire(): Promise<void> {
    try {
      await this.db
        .update(personalDataRequests)
        .set({ status: 'expired', data: null, tokenHash: null, tokenExpiresAt: null })
        .where(and(eq(personalDataRequests.status, 'ready'), lt(personalDataRequests.readyAt, new Date(Date.now() - PERSONAL_DATA.keepDays * DAY))));
    } catch (err) {
      this.log('could not expire personal-data files', err);
    }
  }
}
