/**
 * The faults of a chaos run, each kind on its own random schedule from the seed: a service process
 * killed with SIGKILL and started again; one stopped with SIGSTOP for longer than any of its leases
 * and then continued; PostgreSQL shut down (fast or immediate) and started again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { PostgresCluster } from '../postgres-cluster.js';
import type { Fleet } from './fleet.js';

export type FaultKind = 'kill' | 'stop' | 'postgres';

export interface FaultCounts {
  kill: number;
  stop: number;
  'postgres-fast': number;
  'postgres-immediate': number;
}

export interface FaultPlan {
  kinds: FaultKind[];
  /** Mean time between two faults of each kind; each wait is drawn from half to one and a half of it. */
  meanIntervalMs: Record<FaultKind, number>;
  /** How long a stopped process stays stopped: past the longest lease it holds (deliveries: time-out + 5 s; deadlines: 4 s). */
  stopMs: [number, number];
}

export class Faults {
  readonly counts: FaultCounts = { kill: 0, stop: 0, 'postgres-fast': 0, 'postgres-immediate': 0 };
  private readonly started = Date.now();
  private readonly recoveries = new Set<Promise<void>>();
  private nextMode: 'fast' | 'immediate' | null = null;

  constructor(
    private readonly fleet: Fleet,
    private readonly cluster: PostgresCluster | null,
    private readonly randoms: Record<FaultKind, () => number>,
    private readonly plan: FaultPlan,
    private readonly log: (line: string) => void,
    /** True while requests are under way: a kill or a stop waits a moment for some, to catch them mid-flight. */
    private readonly busy: () => boolean = () => true,
  ) {}

  /** Injects faults until `until`; resolves once every fault is over: each process running, PostgreSQL up. */
  async run(until: number): Promise<void> {
    await Promise.all(this.plan.kinds.map((kind) => this.schedule(kind, until)));
    await Promise.all(this.recoveries);
  }

  private between(random: () => number, [low, high]: [number, number]): number {
    return low + random() * (high - low);
  }

  /**
   * Faults of one kind come on their own schedule, not after the last one is over: a process may be
   * killed while another is stopped. One that finds no process to act on is tried again shortly.
   */
  private async schedule(kind: FaultKind, until: number): Promise<void> {
    const random = this.randoms[kind];
    for (;;) {
      await sleep(this.between(random, [this.plan.meanIntervalMs[kind] * 0.5, this.plan.meanIntervalMs[kind] * 1.5]));
      for (let waited = 0; waited < 1_000 && kind !== 'postgres' && !this.busy(); waited += 5) await sleep(5);
      for (;;) {
        // A stop that would outlast the run by more than a little is left out: the run ends on time.
        if (Date.now() >= until || (kind === 'stop' && until - Date.now() < this.plan.stopMs[0] / 2)) return;
        const injected =
          kind === 'kill'
            ? this.kill(random)
            : kind === 'stop'
              ? this.stop(random)
              : await this.restartPostgres(random);
        if (injected) break;
        await sleep(500);
      }
    }
  }

  private note(line: string): void {
    this.log(`+${((Date.now() - this.started) / 1000).toFixed(1)}s ${line}`);
  }

  /** A process that is up, leaving another one up where there are several: a client always has somewhere to go but during PostgreSQL's outages. */
  private victim(random: () => number) {
    const up = this.fleet.up();
    if (up.length === 0 || (this.fleet.slots.length > 1 && up.length < 2)) return null;
    return up[Math.floor(random() * up.length)]!;
  }

  /** Kills a process and starts it again in the background; false when no process may be killed now. */
  private kill(random: () => number): boolean {
    const slot = this.victim(random);
    if (!slot) return false;
    this.note(`kill -9 slot ${slot.index} (pid ${slot.process!.child.pid})`);
    this.counts.kill += 1;
    this.recover(
      (async () => {
        await this.fleet.kill(slot);
        await sleep(this.between(random, [200, 1_500]));
        await this.fleet.start(slot);
        this.note(`slot ${slot.index} restarted (pid ${slot.process!.child.pid})`);
      })(),
    );
    return true;
  }

  /** Stops a process, and continues it in the background once the time is up; false when no process may be stopped now. */
  private stop(random: () => number): boolean {
    const slot = this.victim(random);
    if (!slot) return false;
    const ms = this.between(random, this.plan.stopMs);
    this.note(`SIGSTOP slot ${slot.index} (pid ${slot.process!.child.pid}) for ${(ms / 1000).toFixed(1)} s`);
    this.counts.stop += 1;
    this.fleet.stop(slot);
    this.recover(sleep(ms).then(() => this.fleet.resume(slot)));
    return true;
  }

  private recover(recovery: Promise<void>): void {
    const tracked = recovery.finally(() => this.recoveries.delete(tracked));
    this.recoveries.add(tracked);
  }

  /** PostgreSQL down and up again: one at a time, as there is one server. */
  private async restartPostgres(random: () => number): Promise<boolean> {
    // The modes take turns, from one the seed picks: as many crash recoveries as clean restarts.
    this.nextMode ??= random() < 0.5 ? 'fast' : 'immediate';
    const mode = this.nextMode;
    this.nextMode = mode === 'fast' ? 'immediate' : 'fast';
    const down = this.between(random, [300, 2_500]);
    this.note(`PostgreSQL ${mode} shutdown, down ${(down / 1000).toFixed(1)} s`);
    this.counts[`postgres-${mode}`] += 1;
    await this.cluster!.pause(mode);
    await sleep(down);
    for (let tries = 1; ; tries += 1) {
      try {
        await this.cluster!.resume();
        return true;
      } catch (error) {
        if (tries >= 10) throw error;
        await sleep(500);
      }
    }
  }
}
