/**
 * npm run chaos [-- --seed N] [--duration S] [--store postgres|sqlite]
 *
 * Runs the service under random faults for S seconds (default 300) and checks what it promised
 * (docs/reliability.md). The seed is printed first; the same seed replays the same plan of
 * requests, answers and faults. Exits 1 when a check fails, 2 on bad arguments.
 */
import { parseArgs } from 'node:util';
import { runChaos, summary, type ChaosStore } from './harness.js';

function options(): { seed: number; durationS: number; store: ChaosStore } {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      duration: { type: 'string', default: '300' },
      store: { type: 'string', default: 'postgres' },
    },
  });
  const seed = values.seed === undefined ? Math.floor(Math.random() * 1_000_000) : Number(values.seed);
  const durationS = Number(values.duration);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a whole number, got ${values.seed}`);
  if (!Number.isFinite(durationS) || durationS < 5)
    throw new Error(`--duration must be a number of seconds, 5 or more, got ${values.duration}`);
  if (values.store !== 'postgres' && values.store !== 'sqlite')
    throw new Error(`--store must be postgres or sqlite, got ${values.store}`);
  return { seed, durationS, store: values.store };
}

let chosen;
try {
  chosen = options();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(2);
}
process.stdout.write(`chaos: seed ${chosen.seed} (replay with npm run chaos -- --seed ${chosen.seed})\n`);
const report = await runChaos({ ...chosen, log: (line) => process.stdout.write(`${line}\n`) });
process.stdout.write(`\n${summary(report)}\n`);
process.exitCode = report.failures.length === 0 ? 0 : 1;
