import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { asNdjson, CliSandbox } from '../helpers/cli.js';
import { change, segment, simpleOrder } from '../helpers/documents.js';
import { scaled } from '../helpers/time-scale.js';

/**
 * `serve` applies passed deadlines by itself, within 5 s: here with real time, a deadline two
 * seconds ahead, and the service as an operator runs it. The rules themselves are tested on a
 * controlled clock in test/integration/deadlines.test.ts.
 */
const sandbox = new CliSandbox();
after(() => sandbox.cleanup());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('serve cancels and refunds a booking whose CANCEL deadline passes, and accepts one whose ACCEPT deadline passes, within 5 s', async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok([
    'orders',
    'import',
    sandbox.write(
      'orders.ndjson',
      asNdjson([
        simpleOrder('SDL-1', 'AG1', 'SDL001', '2201234580001'),
        simpleOrder('SDL-2', 'AG1', 'SDL002', '2201234580002'),
      ]),
    ),
  ]);
  const server = await sandbox.serve();
  const deadline = new Date(Date.now() + 2_000).toISOString();
  await sandbox.ok([
    'changes',
    'import',
    sandbox.write(
      'changes.ndjson',
      asNdjson([
        { ...change('SDLC-1', 'SDL-1', 'SDL001', ['S1'], [], 'FLIGHT_CANCELLATION'), actionDeadline: deadline },
        { ...change('SDLC-2', 'SDL-2', 'SDL002', ['S1'], [segment('S1B', 1, 14)]), actionDeadline: deadline },
      ]),
    ),
  ]);
  const states = () =>
    sandbox.query<{ order_id: string; status: string }>(
      'select order_id, status from airline_changes where order_id like ? order by order_id',
      'SDL-%',
    );
  const limit = Date.parse(deadline) + scaled(5_000);
  while (states().some((row) => row.status === 'PENDING') && Date.now() < limit) await sleep(100);
  assert.deepEqual(states(), [
    { order_id: 'SDL-1', status: 'CANCELED' },
    { order_id: 'SDL-2', status: 'ACCEPTED' },
  ]);
  assert.ok(Date.now() >= Date.parse(deadline), 'not before the deadline');

  assert.deepEqual(sandbox.query("select ticket_number, amount_minor from refunds where order_id = 'SDL-1'"), [
    { ticket_number: '2201234580001', amount_minor: 57050 },
  ]);
  const audit = sandbox.query<{ actor: string; operation: string }>(
    "select distinct actor, operation from audit_events where order_id in ('SDL-1', 'SDL-2') and operation = 'deadline'",
  );
  assert.deepEqual(audit, [{ actor: 'system', operation: 'deadline' }]);
  const types = sandbox
    .query<{ type: string }>("select type from events where agency_id = 'AG1' order by position")
    .map((row) => row.type);
  assert.deepEqual(
    types.filter((type) => type === 'booking.refunded'),
    ['booking.refunded'],
  );
  assert.equal(types.filter((type) => type === 'airline_change.resolved').length, 2);
  server.child.kill('SIGTERM');
  assert.equal((await server.exited).code, 0);
});
