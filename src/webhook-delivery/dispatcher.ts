import { randomBytes } from 'node:crypto';
import type { Clock } from '../runtime/clock.js';
import { webhookPayload } from '../events/wire-event.js';
import type { StoredEvent } from '../events/event-types.js';
import type { ClaimedDelivery, WebhookEndpoint } from '../store/repositories/webhook-repository.js';
import type { Store } from '../store/store.js';
import { pollEvery, type PollingLoop } from '../runtime/polling-loop.js';
import type { GuardPolicy } from './address-guard.js';
import { nextAttemptAt } from './retry-schedule.js';
import { sendAttempt, type AttemptResult } from './sender.js';
import { signatureHeader } from './signer.js';

/** Attempts under way at once for one endpoint in one process: a slow receiver holds only these. */
const PER_ENDPOINT = 4;
/** Attempts under way at once in one process. */
const IN_ALL = 64;
const POLL_MS = 1_000;
/** Beyond the attempt's own time-out: a lease outlives any attempt of a live process. */
const LEASE_MARGIN_MS = 5_000;

export interface DispatcherSettings {
  retrySchedule: readonly number[];
  timeoutMs: number;
  policy: GuardPolicy;
}

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed' | 'disabled';

export interface DispatcherLog {
  info(detail: object, message: string): void;
  warn(detail: object, message: string): void;
}

/** The secrets that sign now: the current one, and a rotated-out one during its 24 hours. */
export function signingSecrets(endpoint: WebhookEndpoint, now: string): string[] {
  return endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now
    ? [endpoint.secret, endpoint.previousSecret]
    : [endpoint.secret];
}

/** One event to one endpoint, signed for this attempt. */
export function attemptOf(
  endpoint: WebhookEndpoint,
  event: Pick<StoredEvent, 'eventId' | 'type' | 'occurredAt' | 'data'>,
  now: Date,
) {
  const body = JSON.stringify(webhookPayload({ ...event, agencyId: endpoint.agencyId }));
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    url: endpoint.url,
    id: event.eventId,
    body,
    timestamp,
    signature: signatureHeader(signingSecrets(endpoint, now.toISOString()), event.eventId, timestamp, body),
  };
}

/**
 * Delivers the outbox: every second, claims the deliveries that are due (each by one process: a
 * lease in the store), and sends each on its own, so a slow or dead endpoint never delays another
 * endpoint's deliveries, nor the API. Every outcome is recorded: delivered, retried later on the
 * schedule, failed once the schedule is spent, or the endpoint disabled on 410 Gone.
 */
export class WebhookDispatcher {
  private readonly owner = `wd_${randomBytes(8).toString('hex')}`;
  private readonly inFlight = new Map<string, number>();
  private readonly attempts = new Set<Promise<void>>();
  private loop: PollingLoop | null = null;
  private claims: Promise<unknown> = Promise.resolve();
  /** The last claim left deliveries due for want of room. */
  private backlog = false;
  private readonly followUps = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly settings: DispatcherSettings,
    private readonly log: DispatcherLog,
    private readonly count: (outcome: DeliveryOutcome) => void = () => {},
  ) {}

  /**
   * Claims what is due and starts the attempts; returns how many it started (they go on after).
   * Claims are made one after another, never side by side, so that each sees the attempts the one
   * before it started.
   */
  tick(): Promise<number> {
    const claimed = this.claims.then(() => this.claim());
    this.claims = claimed.catch(() => undefined);
    return claimed;
  }

  private async claim(): Promise<number> {
    const room = IN_ALL - this.attempts.size;
    if (room <= 0) return 0;
    const now = this.clock();
    // Most seconds nothing is due: looked up on the read connection, with no write transaction.
    if ((await this.store.read.endpointsWithDueDeliveries(now)).size === 0) return 0;
    const leaseUntil = new Date(Date.parse(now) + this.settings.timeoutMs + LEASE_MARGIN_MS).toISOString();
    let backlog = false;
    const claimed = await this.store.write(async (tx) => {
      const work: { endpoint: WebhookEndpoint; delivery: ClaimedDelivery }[] = [];
      for (const [endpointId, due] of await tx.endpointsWithDueDeliveries(now)) {
        const free = Math.min(PER_ENDPOINT - (this.inFlight.get(endpointId) ?? 0), room - work.length);
        if (free < due) backlog = true;
        if (free <= 0) continue;
        const endpoint = await tx.findEndpoint(endpointId);
        if (!endpoint) continue;
        for (const delivery of await tx.claimDeliveries(endpointId, this.owner, now, leaseUntil, free))
          work.push({ endpoint, delivery });
      }
      return work;
    });
    this.backlog = backlog;
    for (const { endpoint, delivery } of claimed) this.begin(endpoint, delivery);
    return claimed.length;
  }

  /** Resolves once every attempt started so far, and every claim that followed one, has ended and been recorded. */
  async settle(): Promise<void> {
    while (this.attempts.size > 0 || this.followUps.size > 0)
      await Promise.allSettled([...this.attempts, ...this.followUps]);
  }

  /**
   * An attempt has ended and more were due than there was room for: its room is claimed again at
   * once. Waiting for the next poll instead held a backlog to four deliveries per endpoint and
   * second in each process, however fast the receiver answered.
   */
  private followUp(): void {
    if (!this.backlog || this.stopped) return;
    this.backlog = false;
    const next: Promise<void> = this.tick()
      .then(
        () => {},
        (error: unknown) => this.log.warn({ cause: (error as Error).message }, 'webhook claims failed; trying again'),
      )
      .finally(() => this.followUps.delete(next));
    this.followUps.add(next);
  }

  private begin(endpoint: WebhookEndpoint, delivery: ClaimedDelivery): void {
    this.inFlight.set(endpoint.endpointId, (this.inFlight.get(endpoint.endpointId) ?? 0) + 1);
    const attempt = this.attempt(endpoint, delivery)
      .catch((error: unknown) =>
        this.log.warn(
          { endpoint: endpoint.endpointId, eventId: delivery.eventId, cause: (error as Error).message },
          'webhook attempt not recorded; retried when its lease ends',
        ),
      )
      .finally(() => {
        this.attempts.delete(attempt);
        const left = (this.inFlight.get(endpoint.endpointId) ?? 1) - 1;
        if (left > 0) this.inFlight.set(endpoint.endpointId, left);
        else this.inFlight.delete(endpoint.endpointId);
        this.followUp();
      });
    this.attempts.add(attempt);
  }

  private async attempt(endpoint: WebhookEndpoint, delivery: ClaimedDelivery): Promise<void> {
    const event = {
      eventId: delivery.eventId,
      type: delivery.eventType as StoredEvent['type'],
      occurredAt: delivery.occurredAt,
      data: delivery.data,
    };
    const result = await sendAttempt(
      attemptOf(endpoint, event, new Date(this.clock())),
      this.settings.policy,
      this.settings.timeoutMs,
    );
    const outcome = await this.record(endpoint, delivery, result);
    // A lease that ran out meanwhile made the delivery another attempt's: its outcome is counted there.
    if (outcome !== 'superseded') this.count(outcome);
    // Never the body nor the secret: what happened, to which endpoint, for which event.
    this.log.info(
      {
        endpoint: endpoint.endpointId,
        eventId: delivery.eventId,
        attempt: delivery.attempts + 1,
        status: result.status,
        durationMs: result.ms,
        outcome,
        ...(result.delivered ? {} : { error: result.error }),
      },
      'webhook attempt',
    );
  }

  private async record(
    endpoint: WebhookEndpoint,
    delivery: ClaimedDelivery,
    result: AttemptResult,
  ): Promise<DeliveryOutcome | 'superseded'> {
    const at = this.clock();
    const failedAttempts = delivery.attempts + 1;
    const next =
      result.delivered || result.status === 410
        ? null
        : nextAttemptAt(this.settings.retrySchedule, failedAttempts, Date.parse(at));
    const outcome: DeliveryOutcome = result.delivered
      ? 'delivered'
      : result.status === 410
        ? 'disabled'
        : next === null
          ? 'failed'
          : 'retry';
    return this.store.write(async (tx) => {
      const recorded = await tx.recordAttempt(delivery.eventId, endpoint.endpointId, this.owner, {
        status: outcome === 'delivered' ? 'DELIVERED' : outcome === 'retry' ? 'PENDING' : 'FAILED',
        nextAttemptAt: next === null ? at : new Date(next).toISOString(),
        lastStatus: result.status,
        lastError: result.delivered ? null : result.error,
        at,
      });
      if (!recorded) return 'superseded';
      // The receiver says the endpoint is gone for good: no more attempts until the operator enables it again.
      if (outcome === 'disabled')
        await tx.setEndpointStatus(endpoint.endpointId, 'DISABLED', `the receiver answered 410 Gone at ${at}`);
      return outcome;
    });
  }

  start(): void {
    this.loop = pollEvery(
      POLL_MS,
      () => this.tick(),
      (error) => this.log.warn({ cause: (error as Error).message }, 'webhook claims failed; trying again'),
    );
  }

  /** Stops claiming and waits, up to `graceMs`, for attempts under way; leases of the others run out. */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    await this.loop?.stop();
    await Promise.race([this.settle(), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }
}
