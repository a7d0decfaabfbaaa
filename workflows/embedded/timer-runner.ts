/**
 * Polls for due deadline timers and fires them through the engine (see EmbeddedEngine.fireDueTimers). One sweep at a
 * time; stop() waits for the running sweep so the database is never closed under it.
 */
export class TimerRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly fire: () => Promise<number>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    if (!this.stopped || this.intervalMs <= 0) return;
    this.stopped = false;
    this.schedule(0);
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.fire()
        .catch(this.onError)
        .finally(() => {
          this.running = undefined;
          this.schedule(this.intervalMs);
        });
    }, delay);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
