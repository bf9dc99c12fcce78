/**
 * The agencies' side of a chaos run, written as a careful integrator writes it: every change request
 * carries an Idempotency-Key and is sent again with the same key, to whichever process, until it is
 * answered 200; a reader pages the event feed with NextAfter the whole time.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { OPERATIONS, type Job, type Operation } from './workload.js';

/** How long a client waits for an answer before it gives up on that process (one stopped with SIGSTOP never answers). */
const CLIENT_TIMEOUT_MS = 2_500;
/** Statuses a careful client retries with the same key; anything else but 200 is a fault of the service. */
const RETRIED = new Set([408, 409, 500, 502, 503, 504]);

/** Every HTTP exchange of the run, for the summary and for the rule that no 5xx but 503 with Retry-After is sent. */
export class Traffic {
  /** HTTP attempts of change requests, and of feed pages. */
  attempts = 0;
  feedRequests = 0;
  /** Change requests sent and not yet answered, so that a fault can be aimed at a moment with work under way. */
  inFlight = 0;
  connectionErrors = 0;
  readonly statuses = new Map<number, number>();
  readonly violations: string[] = [];

  note(what: string, response: Response): void {
    this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
    if (
      response.status >= 500 &&
      !(response.status === 503 && /^[1-9][0-9]*$/.test(response.headers.get('retry-after') ?? ''))
    ) {
      this.violations.push(
        `${what}: ${response.status} with Retry-After ${JSON.stringify(response.headers.get('retry-after'))}`,
      );
    }
  }
}

export interface Targets {
  /** The base URLs of the processes that exist now. */
  targets(): string[];
}

/** One change request, answered 200 in the end. */
export interface Acknowledged {
  job: Job;
  operation: Operation;
  key: string;
  /** The 200 answer's body as received, and parsed. */
  text: string;
  body: any;
  replayed: boolean;
  /** HTTP attempts it took (1 when the first was answered 200). */
  attempts: number;
}

async function post(
  base: string,
  path: string,
  token: string,
  body: object,
  key: string | null,
): Promise<{ response: Response; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  if (key !== null) headers['idempotency-key'] = key;
  const response = await fetch(base + path, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });
  return { response, text: await response.text() };
}

function retryDelay(response: Response | null, random: () => number): number {
  const seconds = Number(response?.headers.get('retry-after') ?? 0);
  // Retry-After is honoured, with jitter so that clients refused together do not return together.
  return (seconds > 0 ? Math.min(seconds, 2) * 1000 : 100) * (0.5 + random());
}

/**
 * Sends one change request until it is answered 200, with the same key on every attempt, each to a
 * process picked at random. A 4xx other than 408 and 409 is not retried: it is recorded as a fault.
 */
export async function changeRequest(
  fleet: Targets,
  traffic: Traffic,
  random: () => number,
  token: string,
  job: Job,
  operation: Operation,
  key: string,
): Promise<Acknowledged | null> {
  const { path, body } = {
    path: OPERATIONS[operation].path,
    body: OPERATIONS[operation].body(job.orderId, job.references),
  };
  for (let attempts = 1; ; attempts += 1) {
    const targets = fleet.targets();
    if (targets.length === 0) {
      await sleep(100);
      attempts -= 1;
      continue;
    }
    const base = targets[Math.floor(random() * targets.length)]!;
    traffic.attempts += 1;
    let answer: { response: Response; text: string };
    traffic.inFlight += 1;
    try {
      answer = await post(base, path, token, body, key);
    } catch {
      // Refused, reset, or no answer in time: whether it was done is for the retry to learn.
      traffic.connectionErrors += 1;
      await sleep(retryDelay(null, random));
      continue;
    } finally {
      traffic.inFlight -= 1;
    }
    traffic.note(`${operation} ${job.orderId} key ${key}`, answer.response);
    if (answer.response.status === 200) {
      return {
        job,
        operation,
        key,
        text: answer.text,
        body: JSON.parse(answer.text),
        replayed: answer.response.headers.get('idempotent-replayed') === 'true',
        attempts,
      };
    }
    if (!RETRIED.has(answer.response.status)) {
      traffic.violations.push(
        `${operation} ${job.orderId} key ${key}: ${answer.response.status} ${answer.text.slice(0, 300)}`,
      );
      return null;
    }
    await sleep(retryDelay(answer.response, random));
  }
}

/**
 * An agency's jobs, released evenly over the run, so that requests keep coming until its end
 * whatever the service's pace; a job released while every client is busy waits for one.
 */
export class JobQueue {
  private taken = 0;

  constructor(
    private readonly jobs: readonly Job[],
    private readonly from: number,
    private readonly until: number,
  ) {}

  /** The next job, once its time has come; null when none is left or the run is over. */
  async take(): Promise<Job | null> {
    if (this.taken >= this.jobs.length || Date.now() >= this.until) return null;
    const index = this.taken;
    this.taken += 1;
    const release = this.from + (index * (this.until - this.from)) / this.jobs.length;
    if (release > Date.now()) await sleep(release - Date.now());
    return this.jobs[index]!;
  }
}

/** A client of one agency: takes the agency's jobs in turn, sending a job's racing requests at once, each with its own key. */
export async function runClient(options: {
  fleet: Targets;
  traffic: Traffic;
  random: () => number;
  token: string;
  jobs: JobQueue;
  keyPrefix: string;
  acknowledged: Acknowledged[];
}): Promise<void> {
  const { fleet, traffic, random, token } = options;
  for (let job = await options.jobs.take(); job; job = await options.jobs.take()) {
    const current = job;
    const answers = await Promise.all(
      current.racers.map((operation, racer) =>
        changeRequest(
          fleet,
          traffic,
          random,
          token,
          current,
          operation,
          `${options.keyPrefix}-${current.orderId}-${current.references.join('+')}-${racer}-${operation}`,
        ),
      ),
    );
    for (const answer of answers) if (answer) options.acknowledged.push(answer);
  }
}

/** Pages the agency's feed with NextAfter, as docs/webhooks.md's loop does, and keeps what it was handed, in order. */
export class FeedReader {
  readonly seen: string[] = [];
  readonly violations: string[] = [];
  private readonly known = new Set<string>();
  private after = '';
  private running = true;
  private done: Promise<void> = Promise.resolve();
  /** True once a page came back empty: the reader had everything listed at that moment. */
  caughtUp = false;

  constructor(
    private readonly fleet: Targets,
    private readonly traffic: Traffic,
    private readonly random: () => number,
    private readonly token: string,
    readonly agencyId: string,
  ) {}

  start(): void {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  /** One page; false when the request failed. */
  async page(): Promise<boolean> {
    const targets = this.fleet.targets();
    if (targets.length === 0) return false;
    const base = targets[Math.floor(this.random() * targets.length)]!;
    this.traffic.feedRequests += 1;
    let answer: { response: Response; text: string };
    try {
      answer = await post(
        base,
        '/AirOrderEventList',
        this.token,
        { OrderEventListRQ: { Query: this.after ? { After: this.after, Limit: 200 } : { Limit: 200 } } },
        null,
      );
    } catch {
      this.traffic.connectionErrors += 1;
      return false;
    }
    this.traffic.note(`AirOrderEventList of ${this.agencyId}`, answer.response);
    if (answer.response.status !== 200) {
      if (!RETRIED.has(answer.response.status))
        this.violations.push(
          `feed of ${this.agencyId} after ${this.after}: ${answer.response.status} ${answer.text.slice(0, 300)}`,
        );
      return false;
    }
    const page = JSON.parse(answer.text).OrderEventListRS;
    for (const event of page.Events as { EventID: string }[]) {
      if (this.known.has(event.EventID))
        this.violations.push(`feed of ${this.agencyId}: ${event.EventID} handed out twice`);
      this.known.add(event.EventID);
      this.seen.push(event.EventID);
    }
    this.caughtUp = page.Events.length === 0;
    if (page.NextAfter) this.after = page.NextAfter;
    return true;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const ok = await this.page();
      if (!ok || this.caughtUp) await sleep(100 + this.random() * 200);
    }
  }
}

/** The whole feed of an agency, read from its start in one go (after the run, with every process up). */
export async function fullFeed(fleet: Targets, traffic: Traffic, token: string, agencyId: string): Promise<FeedReader> {
  const reader = new FeedReader(fleet, traffic, () => 0, token, agencyId);
  for (let failures = 0; !reader.caughtUp;) {
    if (!(await reader.page())) {
      failures += 1;
      if (failures > 50) throw new Error(`the feed of ${agencyId} could not be read to its end`);
      await sleep(200);
    }
  }
  return reader;
}
