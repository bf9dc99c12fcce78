import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runChaos, summary } from '../../scripts/chaos/harness.js';
import { testStoreKind } from '../helpers/test-database.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * The short form of `npm run chaos` (scripts/chaos/, docs/reliability.md): on PostgreSQL three
 * `serve` processes under kill -9, SIGSTOP past their leases and PostgreSQL shut down and started
 * again, on a cluster of this file's own (it is the one stopped); on SQLite one process under kill -9.
 * Every check of the long run must hold. The seed is CHAOS_SEED when set, a fixed one when CI=true,
 * otherwise a new one each run; it is printed, and replays the run.
 */
const STORE = testStoreKind();
const SEED = Number(process.env.CHAOS_SEED ?? (process.env.CI === 'true' ? 19 : Date.now() % 1_000_000));
const DURATION_S = STORE === 'postgres' ? 16 : 10;

test(
  `chaos on ${STORE} for ${DURATION_S} s: every acknowledged change stored as answered, deadlines applied once, each event in the feed once and delivered, every process gone after SIGTERM`,
  { timeout: scaled(240_000) },
  async (t) => {
    t.diagnostic(
      `seed ${SEED} (replay: CHAOS_SEED=${SEED}, or npm run chaos -- --seed ${SEED} --duration ${DURATION_S} --store ${STORE})`,
    );
    const report = await runChaos({
      seed: SEED,
      durationS: DURATION_S,
      store: STORE,
      log: (line) => t.diagnostic(line),
    });
    for (const line of summary(report).split('\n')) t.diagnostic(line);
    assert.deepEqual(report.failures, []);
    assert.equal(report.figures?.lost, 0);
    assert.ok(report.faults.kill > 0, 'a process was killed');
    if (STORE === 'postgres')
      assert.ok(
        report.faults.stop > 0 && report.faults['postgres-fast'] + report.faults['postgres-immediate'] > 0,
        'a process was stopped and PostgreSQL restarted',
      );
  },
);
