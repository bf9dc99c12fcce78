/**
 * The `airorder serve` processes of a chaos run, each started as a separate machine would start it
 * (its own process, the same database), in slots that faults empty and fill again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CliSandbox, ServeProcess } from '../../test/helpers/cli.js';
import { isAlive } from '../process-alive.js';
import { scaled } from '../../test/helpers/time-scale.js';

export type SlotState = 'up' | 'stopped' | 'down';

export interface Slot {
  index: number;
  process: ServeProcess | null;
  state: SlotState;
  /** Every process this slot ran, for the log tail of a failure and the final check. */
  history: ServeProcess[];
}

/** What the service is told, beyond the database: fast retries and short leases, so that a few minutes hold many cycles. */
export interface FleetSettings {
  env: Record<string, string>;
  /** Grace for in-flight requests at SIGTERM; every process must be gone within it and 2 s. */
  shutdownGraceMs: number;
}

export class Fleet {
  readonly slots: Slot[];

  constructor(
    private readonly sandbox: CliSandbox,
    size: number,
    private readonly settings: FleetSettings,
  ) {
    this.slots = Array.from({ length: size }, (_, index) => ({
      index,
      process: null,
      state: 'down' as SlotState,
      history: [],
    }));
  }

  /**
   * Starts the slot's process, again and again until one is healthy: while PostgreSQL is away, or
   * starts up, `serve` stops at its migrations with an error, as it should.
   */
  async start(slot: Slot, giveUpAfterMs = 120_000): Promise<void> {
    const limit = Date.now() + scaled(giveUpAfterMs);
    for (;;) {
      try {
        const started = await this.sandbox.serve([], {
          env: { ...this.settings.env, SHUTDOWN_GRACE_MS: String(this.settings.shutdownGraceMs) },
        });
        slot.process = started;
        slot.history.push(started);
        slot.state = 'up';
        return;
      } catch (error) {
        if (Date.now() > limit)
          throw new Error(`serve in slot ${slot.index} did not start: ${(error as Error).message}`, { cause: error });
        await sleep(300);
      }
    }
  }

  /** The base URLs a client may pick from: every process that exists, stopped or not (a client cannot tell). */
  targets(): string[] {
    return this.slots.flatMap((slot) => (slot.process ? [slot.process.baseUrl] : []));
  }

  up(): Slot[] {
    return this.slots.filter((slot) => slot.state === 'up');
  }

  async kill(slot: Slot): Promise<void> {
    const victim = slot.process!;
    slot.process = null;
    slot.state = 'down';
    victim.child.kill('SIGKILL');
    await victim.exited;
  }

  stop(slot: Slot): void {
    slot.state = 'stopped';
    slot.process!.child.kill('SIGSTOP');
  }

  resume(slot: Slot): void {
    slot.process!.child.kill('SIGCONT');
    slot.state = 'up';
  }

  /**
   * SIGTERM to every process; returns a line per process that was still there after the grace and
   * 2 s (then killed) or that exited other than with 0.
   */
  async terminate(): Promise<string[]> {
    const problems: string[] = [];
    await Promise.all(
      this.slots.map(async (slot) => {
        const serving = slot.process;
        if (!serving) return;
        if (slot.state === 'stopped') this.resume(slot);
        serving.child.kill('SIGTERM');
        const exit = await Promise.race([
          serving.exited,
          sleep(this.settings.shutdownGraceMs + scaled(2_000)).then(() => null),
        ]);
        if (exit === null) {
          problems.push(
            `slot ${slot.index} (pid ${serving.child.pid}) still running ${this.settings.shutdownGraceMs + scaled(2_000)} ms after SIGTERM`,
          );
          serving.child.kill('SIGKILL');
          await serving.exited;
        } else if (exit.code !== 0) {
          problems.push(
            `slot ${slot.index} (pid ${serving.child.pid}) exited ${JSON.stringify(exit)} after SIGTERM: ${serving.stderr().slice(-500)}`,
          );
        }
        slot.process = null;
        slot.state = 'down';
      }),
    );
    // Gone means gone: not even a zombie or a stray child answering to the pid.
    for (const slot of this.slots) {
      for (const ran of slot.history) {
        if (ran.child.pid !== undefined && isAlive(ran.child.pid))
          problems.push(`pid ${ran.child.pid} of slot ${slot.index} is still alive`);
      }
    }
    return problems;
  }

  /** The tail of every process's output that logged at error level or worse, for a failure's report. */
  errorLines(): string[] {
    return this.slots.flatMap((slot) =>
      slot.history.flatMap((ran) =>
        ran
          .stdout()
          .split('\n')
          .filter((line) => /"level":(50|60)/.test(line))
          .map((line) => `slot ${slot.index} pid ${ran.child.pid}: ${line.slice(0, 600)}`),
      ),
    );
  }
}
