import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../runtime/clock.js';
import type { Store } from '../store/store.js';
import type { RememberedRefusals } from './remembered-refusals.js';
import { LOGIN_WINDOW_MS } from './sign-in.js';

/** How often, by the service's clock, the counts of ended windows are dropped. */
export const SIGN_IN_PURGE_EVERY_MS = 60_000;

// How often the clock is looked at: a look is a comparison, and the purge is then late by this at most.
const LOOK_EVERY_MS = 1_000;

/**
 * Drops the sign-in counts whose window has ended, every SIGN_IN_PURGE_EVERY_MS by the service's
 * clock, whatever the sign-ins were (refused ones included), and the refusals remembered in memory
 * that have run out. So a key's row lives its window and a minute at most (docs/security.md).
 */
export class SignInPurge {
  private timer: NodeJS.Timeout | null = null;
  private lastAt: number | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly refusals: RememberedRefusals,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.look(), LOOK_EVERY_MS);
    this.timer.unref();
  }

  /** Stops the timer and waits for a purge under way, before the store closes. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private look(): void {
    const now = this.clock();
    const at = Date.parse(now);
    // The first look purges; a clock set back (a test's) starts the count again.
    if (this.running || (this.lastAt !== null && at >= this.lastAt && at - this.lastAt < SIGN_IN_PURGE_EVERY_MS))
      return;
    this.lastAt = at;
    this.refusals.forgetPast(now);
    const before = new Date(at - LOGIN_WINDOW_MS).toISOString();
    this.running = this.store
      .write((tx) => tx.purgeSignInAttempts(before))
      .then(
        (count) => {
          if (count > 0) this.log.debug({ count }, 'ended sign-in windows removed');
        },
        (error: unknown) =>
          this.log.warn(
            { cause: (error as Error).message },
            'could not remove ended sign-in windows; tried again later',
          ),
      )
      .finally(() => {
        this.running = null;
      });
  }
}
