/**
 * What a console import costs the agency API while it runs: `airorder serve` (built: run `npm run
 * build` first) on a fresh store (TEST_STORE and TEST_POSTGRES_URL as for the tests; SQLite by
 * default), a signed-in operator uploads 95 MB JSON arrays, and an AirOrderRetrieve is sent every
 * 100 ms from the upload's start to the import's end. Printed per file: how the import ended, its
 * time, the requests' answers (all, late over 1 s, missing), the slowest and the 99th percentile,
 * and the growth of the service's peak resident memory.
 *
 *   node --import tsx bench/console-import-latency.ts [--mb 95] [--only small,unknown-agency,valid]
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { numberedOrder, peakResident, smallObject, writeJsonArray } from '../test/helpers/big-import-files.js';
import { CliSandbox } from '../test/helpers/cli.js';
import { ConsoleClient, csrfOf } from '../test/helpers/console-client.js';
import { bearer, simpleOrder } from '../test/helpers/documents.js';
import { latencyFigures, pollApi } from '../test/helpers/api-poller.js';
import { createTestDatabase } from '../test/helpers/test-database.js';

const { values } = parseArgs({
  options: { mb: { type: 'string', default: '95' }, only: { type: 'string', default: 'small,unknown-agency,valid' } },
});
const bytes = Number(values.mb) * 1_000_000;
const EMAIL = 'desk@airline.example';
const PASSWORD = 'twelve chars long';

const files: Record<string, (index: number) => string> = {
  small: smallObject,
  'unknown-agency': numberedOrder('NOAG', 'NOBODY'),
  valid: numberedOrder('BIG', 'AG1'),
};

const sandbox = new CliSandbox();
const database = await createTestDatabase(sandbox.dir);
try {
  sandbox.useDatabase(database.url);
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok(['operator', 'add', '--email', EMAIL, '--name', 'Dana Desk', '--password-stdin'], {
    stdin: PASSWORD,
  });
  const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  const probe = sandbox.write('probe.json', JSON.stringify([simpleOrder('PROBE-1', 'AG1', 'PROBE1')]));
  await sandbox.ok(['orders', 'import', probe]);
  const server = await sandbox.serve([], { env: { TMPDIR: sandbox.dir } });
  const browser = new ConsoleClient(server.baseUrl);
  await browser.signIn(EMAIL, PASSWORD);
  const retrieve = JSON.stringify({
    OrderRetrieveRQ: { Query: { OrderID: 'PROBE-1', GdsBookingReference: ['PROBE1'] } },
  });
  // Warm: the routes and the import's code paths run once before anything is measured.
  await pollApi(`${server.baseUrl}/AirOrderRetrieve`, { headers: bearer(token), body: retrieve }).stop();

  for (const name of values.only.split(',')) {
    const file = path.join(sandbox.dir, `${name}.json`);
    const written = await writeJsonArray(file, bytes, files[name]!);
    const before = peakResident(server.child.pid!);
    const started = performance.now();
    const poller = pollApi(`${server.baseUrl}/AirOrderRetrieve`, { headers: bearer(token), body: retrieve });
    const page = await browser.request('/console/imports');
    const form = new FormData();
    form.set('_csrf', csrfOf(page.text));
    form.set('kind', 'orders');
    form.set('file', await fs.openAsBlob(file, { type: 'application/json' }), `${name}.json`);
    const uploaded = await browser.request('/console/imports', { body: form });
    const uploadSeconds = (performance.now() - started) / 1000;
    const importPath = uploaded.headers.get('location');
    let progress: { status: string; recordsRead: number } = { status: 'running', recordsRead: 0 };
    while (importPath && progress.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 500));
      progress = JSON.parse((await browser.request(`${importPath}/progress`)).text);
    }
    const answers = await poller.stop();
    const seconds = (performance.now() - started) / 1000;
    const shown = importPath ? (await browser.request(importPath)).text : uploaded.text;
    const outcome = /error: [^<]*/.exec(shown)?.[0] ?? progress.status;
    fs.rmSync(file);
    console.log(
      JSON.stringify({
        file: name,
        mb: +(written.bytes / 1e6).toFixed(1),
        records: written.records,
        uploaded: uploaded.status,
        uploadSeconds: +uploadSeconds.toFixed(1),
        seconds: +seconds.toFixed(1),
        status: progress.status,
        recordsRead: progress.recordsRead,
        outcome: outcome.slice(0, 120),
        requests: answers.length,
        answered200: answers.filter((answer) => answer.status === 200).length,
        over1s: answers.filter((answer) => answer.ms > 1000).length,
        ...latencyFigures(answers),
        peakGrowthMB: +((peakResident(server.child.pid!) - before) / 1e6).toFixed(1),
      }),
    );
  }
  const errors = server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{') && (JSON.parse(line) as { level: number }).level >= 50);
  console.log(`error-level log lines: ${errors.length}`);
} finally {
  await sandbox.cleanup();
  await database.drop();
}
