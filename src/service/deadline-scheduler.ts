import { randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { Clock } from '../runtime/clock.js';
import { deadlineRound, type DeadlineRound } from './deadline-consequences.js';
import { pollEvery, type PollingLoop } from '../runtime/polling-loop.js';

const LEASE = 'deadlines';
/** How often `serve` looks for passed and approaching deadlines: well within the 5 s promised. */
export const DEADLINE_POLL_MS = 1_000;
/** A holder that stops renewing (killed) is replaced after this long. */
const LEASE_MS = 4_000;

export interface SchedulerLog {
  info(detail: object, message: string): void;
  warn(detail: object, message: string): void;
}

/**
 * Applies passed deadlines and announces approaching ones, in one process at a time: each round
 * first takes (or renews) a lease in the store, so that with several processes or machines one
 * does the work and another takes over within seconds when it dies. Correctness does not rest on
 * the lease (every booking is read again under its order's lock before anything is applied); the
 * lease only keeps the others from doing the same reads.
 */
export class DeadlineScheduler {
  private readonly holder = `dl_${randomBytes(8).toString('hex')}`;
  private loop: PollingLoop | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly warningMs: number,
    private readonly log: SchedulerLog,
  ) {}

  /** One round, if this process holds the lease; null when another one does. */
  async tick(): Promise<DeadlineRound | null> {
    const now = this.clock();
    const until = new Date(Date.parse(now) + LEASE_MS).toISOString();
    const held = await this.store.write((tx) => tx.claimLease(LEASE, this.holder, now, until));
    if (!held) return null;
    const round = await deadlineRound(this.store, this.clock, this.warningMs);
    if (round.applied > 0 || round.warned > 0) this.log.info({ ...round }, 'deadlines');
    return round;
  }

  start(): void {
    this.loop = pollEvery(
      DEADLINE_POLL_MS,
      () => this.tick(),
      (error) => this.log.warn({ cause: (error as Error).message }, 'deadline round failed; trying again'),
    );
  }

  /** Waits for the round under way, and lets another process take over at once. */
  async stop(): Promise<void> {
    await this.loop?.stop();
    await this.store.write((tx) => tx.releaseLease(LEASE, this.holder)).catch(() => {});
  }
}
