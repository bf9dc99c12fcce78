/**
 * `node --import tsx bench/log-pages.ts DATABASE_FILE cancel|accept|involuntaryCancel [SECONDS] [START]`
 *
 * Pages written to SQLite's log per request, counted as issue 18 asks: `strace` records the
 * `pwrite64` calls of `airorder serve` (all its threads) while autocannon sends requests of one
 * operation on distinct orders in a scattered order (index × 7919 modulo 200,000, from START); the
 * 4,096-byte writes to the `-wal` file are the pages appended to the log, those to the database file
 * the pages the checkpoint copied back. The database must hold the bench's 200,000 generated orders
 * (bench-orders.ts, imported with `orders import` and `changes import`) and the agency BENCH1.
 * Prints one JSON line. Needs `strace` (Debian's package).
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BENCH_AGENCY, orderId, reference, type Pool } from './bench-orders.js';
import { ROOT } from './processes.js';

const OPERATIONS: Record<Pool, [string, string]> = {
  cancel: ['/AirOrderCancel', 'OrderCancelRQ'],
  accept: ['/AirOrderInvoluntaryAccept', 'OrderInvoluntaryAcceptRQ'],
  involuntaryCancel: ['/AirOrderInvoluntaryCancel', 'OrderInvoluntaryCancelRQ'],
};
const ORDERS = 200_000;
const PORT = 18_777;

const [file, pool, seconds = '5', start = '0'] = process.argv.slice(2) as [string, Pool, string?, string?];
if (!file || !OPERATIONS[pool])
  throw new Error('usage: bench/log-pages.ts DATABASE_FILE cancel|accept|involuntaryCancel [SECONDS] [START]');
const bin = path.join(ROOT, 'bin', 'airorder.js');
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${file}`,
  RATE_LIMIT_PER_SECOND: '0',
  LOG_LEVEL: 'warn',
  PORT: String(PORT),
  HOST: '127.0.0.1',
};
const token = execFileSync(process.execPath, [bin, 'token', 'issue', '--agency-id', BENCH_AGENCY], { env })
  .toString()
  .trim();
const trace = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-pages-')), 'pwrite.strace');
const traced = spawn('strace', ['-f', '-y', '-e', 'trace=pwrite64', '-o', trace, process.execPath, bin, 'serve'], {
  env,
  stdio: 'ignore',
});
for (;;) {
  try {
    if ((await fetch(`http://127.0.0.1:${PORT}/healthz`)).ok) break;
  } catch {
    /* not listening yet */
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const [route, root] = OPERATIONS[pool];
let next = Number(start);
const result = await autocannon({
  url: `http://127.0.0.1:${PORT}`,
  connections: 50,
  duration: Number(seconds),
  requests: [
    {
      method: 'POST',
      path: route,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      setupRequest: (request) => {
        const index = (next++ * 7919) % ORDERS;
        return {
          ...request,
          body: JSON.stringify({
            [root]: { Query: { OrderID: orderId(index), GdsBookingReference: [reference(pool, index)] } },
          }),
        };
      },
    },
  ],
});
// The service (strace's child) stops on SIGTERM as under a supervisor; strace ends with it.
const service = execFileSync('pgrep', ['-P', String(traced.pid)])
  .toString()
  .trim()
  .split('\n')[0]!;
process.kill(Number(service), 'SIGTERM');
await new Promise((resolve) => traced.on('exit', resolve));
const pages = { log: 0, copiedBack: 0 };
for (const line of fs.readFileSync(trace, 'utf8').split('\n')) {
  const write = /pwrite64\(\d+<([^>]*)>, .*?, (\d+), \d+\) = \d+/.exec(line);
  if (!write || Number(write[2]) !== 4096) continue;
  if (write[1]!.endsWith('-wal')) pages.log += 1;
  else if (write[1] === path.resolve(file)) pages.copiedBack += 1;
}
const requests = result['2xx'];
console.log(
  JSON.stringify({
    operation: pool,
    requests,
    logPagesPerRequest: Number((pages.log / requests).toFixed(2)),
    copiedBackPerRequest: Number((pages.copiedBack / requests).toFixed(2)),
    next,
  }),
);
