import { PollingLoop } from '../lib/polling-loop.js';
import type { PassSummary, RecurringService } from './recurring-service.js';

// The in-service scheduler: one pass at start and then every interval (RECURRING_INTERVAL_SECONDS,
// docs/operations.md). Every instance may run it: a period is claimed by one of them (see
// recurring-service.ts), so more instances make no more invoices.

export class RecurringScheduler {
  private readonly loop: PollingLoop;
  private lastPass: PassSummary | null = null;

  constructor(
    private readonly service: RecurringService,
    options: { intervalMs: number; onError: (error: unknown, what: string) => void },
  ) {
    this.loop = new PollingLoop({
      intervalMs: options.intervalMs,
      nudgeDelayMs: 0,
      look: async () => {
        this.lastPass = await this.service.runDue(new Date(), (error, id) =>
          options.onError(error, `the run of recurring invoice ${id}`),
        );
      },
      onError: (error) => options.onError(error, 'a pass of the recurring invoice scheduler'),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Stops passing: the pass under way ends first (its runs commit or roll back whole). */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Runs a pass now (or waits for the one under way and one more); resolves when it ended. */
  async passNow(): Promise<PassSummary | null> {
    await this.loop.poll();
    return this.lastPass;
  }
}
