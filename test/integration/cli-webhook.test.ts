/**
 * `airorder webhook`: endpoints added, listed, tested and removed, and their deliveries. In process
 * (test/helpers/in-process-cli.ts); test/cli/* run the built program as an operator does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readRecords } from '../../src/documents/document-reader.js';
import { importOrders } from '../../src/service/order-import.js';
import { preparedHere } from '../../src/service/order-preparation.js';
import { importChanges } from '../../src/service/change-import.js';
import { runSql } from '../../src/store/raw-sql.js';
import { eventIdAt } from '../../src/store/sortable-id.js';
import { segment, change, simpleOrder } from '../helpers/documents.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { airorder, ok, refused, withEnv, withDatabase, useInProcessCli } from '../helpers/in-process-cli.js';

useInProcessCli();

describe('webhook', () => {
  const OPEN = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_TIMEOUT_MS: '5000' };
  let hook: Receiver;
  let endpointId: string;
  let hookUrl: string;
  before(async () => {
    hook = await startReceiver();
    hookUrl = `${hook.url}/airorder`;
    await ok(['agency', 'add', '--agency-id', 'HOOKAG', '--name', 'Hooks']);
    await ok(['agency', 'add', '--agency-id', 'HOOKAG2', '--name', 'Other hooks']);
  });
  after(() => hook.close());

  test('add prints the endpoint and its secret once, as text or JSON', async () => {
    const run = await withEnv(OPEN, () => airorder(['webhook', 'add', '--agency-id', 'HOOKAG', '--url', hookUrl]));
    assert.equal(run.stderr, '', 'no warning for a host that resolves');
    const text = run.stdout;
    const match =
      /^endpoint (we_[0-9a-f]{24}) added for agency HOOKAG: (\S+) \(\*\)\nsigning secret \(shown once\): (whsec_\S+)\n$/.exec(
        text,
      );
    assert.ok(match, text);
    assert.equal(match[2], hookUrl);
    endpointId = match[1]!;
    const json = JSON.parse(
      await withEnv(OPEN, () =>
        ok([
          '--json',
          'webhook',
          'add',
          '--agency-id',
          'HOOKAG2',
          '--url',
          hookUrl,
          '--events',
          'booking.canceled,booking.refunded',
        ]),
      ),
    );
    assert.deepEqual(Object.keys(json), ['id', 'url', 'events', 'secret']);
    assert.deepEqual([json.url, json.events], [hookUrl, ['booking.canceled', 'booking.refunded']]);
    assert.match(json.secret, /^whsec_/);
    assert.equal(
      await refused(['webhook', 'add', '--agency-id', 'HOOKAG', '--url', hookUrl]),
      'error: --url is refused: the URL must be https (plain http is allowed only with WEBHOOK_ALLOW_HTTP=true).\n',
    );
  });

  test('a host whose DNS is not live yet: a warning on standard error, and in the JSON', async () => {
    const url = 'https://hooks.in-process.example/airorder';
    const warning =
      /^the host hooks\.in-process\.example does not resolve yet \((ENOTFOUND|ENODATA|EAI_AGAIN)\): the endpoint is registered, and every delivery resolves it and checks its addresses again$/;
    const run = await airorder(['webhook', 'add', '--agency-id', 'HOOKAG2', '--url', url]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr.replace(/^warning: /, '').trimEnd(), warning);
    assert.match(run.stderr, /^warning: .*\n$/);
    assert.match(
      run.stdout,
      /^endpoint we_[0-9a-f]{24} added for agency HOOKAG2: https:\/\/hooks\.in-process\.example\/airorder \(\*\)\n/,
    );
    const json = JSON.parse(await ok(['--json', 'webhook', 'add', '--agency-id', 'HOOKAG2', '--url', url]));
    assert.match(json.warning, warning);
  });

  test('list: one line per endpoint with its status, never a secret; --json the same fields', async () => {
    const lines = (await ok(['webhook', 'list', '--agency-id', 'HOOKAG'])).split('\n');
    assert.deepEqual(lines, [`${endpointId}  HOOKAG  ENABLED  ${hookUrl}  *`, '']);
    const [shown] = JSON.parse(await ok(['--json', 'webhook', 'list', '--agency-id', 'HOOKAG']));
    assert.deepEqual(Object.keys(shown), ['id', 'agencyId', 'url', 'events', 'status', 'createdAt']);
    assert.deepEqual(
      [shown.id, shown.agencyId, shown.url, shown.events, shown.status],
      [endpointId, 'HOOKAG', hookUrl, ['*'], 'ENABLED'],
    );
    assert.equal((await ok(['webhook', 'list'])).split('\n').length, 4 + 1);
    assert.equal(await ok(['webhook', 'list', '--agency-id', 'NOHOOKS']), 'no webhook endpoints\n');
    assert.equal(await ok(['--json', 'webhook', 'list', '--agency-id', 'NOHOOKS']), '[]\n');
  });

  test('disable and enable: the status, with the reason while disabled', async () => {
    assert.equal(await ok(['webhook', 'disable', endpointId]), `endpoint ${endpointId} disabled\n`);
    assert.equal(
      await ok(['webhook', 'list', '--agency-id', 'HOOKAG']),
      `${endpointId}  HOOKAG  DISABLED (disabled by the operator)  ${hookUrl}  *\n`,
    );
    const [shown] = JSON.parse(await ok(['--json', 'webhook', 'list', '--agency-id', 'HOOKAG']));
    assert.equal(shown.statusReason, 'disabled by the operator');
    assert.deepEqual(JSON.parse(await ok(['--json', 'webhook', 'enable', endpointId])), {
      id: endpointId,
      status: 'ENABLED',
    });
    assert.deepEqual(JSON.parse(await ok(['--json', 'webhook', 'disable', endpointId])), {
      id: endpointId,
      status: 'DISABLED',
    });
    assert.equal(await ok(['webhook', 'enable', endpointId]), `endpoint ${endpointId} enabled\n`);
    assert.equal(
      await refused(['webhook', 'enable', 'we_missing']),
      'error: No webhook endpoint we_missing; see: airorder webhook list\n',
    );
  });

  test("test: the receiver's status and time; a failing receiver, one line saying why", async () => {
    hook.script([200, 503]);
    const answer = await withEnv(OPEN, () => ok(['webhook', 'test', endpointId]));
    assert.match(answer, /^HTTP 200 in \d+ ms \(ping evt_[0-9a-f]{28}\)\n$/);
    const delivered = hook.received.at(-1)!;
    const ping = JSON.parse(delivered.body);
    assert.equal(ping.type, 'ping');
    assert.equal(
      `ping ${delivered.headers['webhook-id']}`,
      /\((ping evt_[0-9a-f]{28})\)/.exec(answer)![1],
      'the event the line names',
    );
    assert.deepEqual(ping.data, { EndpointID: endpointId, AgencyID: 'HOOKAG' });
    const failing = await withEnv(OPEN, () => refused(['webhook', 'test', endpointId]));
    assert.match(
      failing,
      new RegExp(`^error: ping evt_[0-9a-f]{28} to ${endpointId} was not delivered: HTTP 503 \\(\\d+ ms\\)\\n$`),
    );
    hook.script([200]);
    const json = JSON.parse(await withEnv(OPEN, () => ok(['--json', 'webhook', 'test', endpointId])));
    assert.deepEqual(Object.keys(json), ['id', 'eventId', 'status', 'ms']);
    assert.deepEqual([json.id, json.status], [endpointId, 200]);
  });

  test('deliveries of an event, each as it stands, filtered; redelivering it to every enabled endpoint for it, or to one', async () => {
    assert.equal(await ok(['webhook', 'deliveries', '--endpoint', endpointId]), 'no deliveries\n');
    // A second endpoint of the agency, for two event types: both named, joined by a comma.
    const second = await withEnv(OPEN, () =>
      airorder([
        'webhook',
        'add',
        '--agency-id',
        'HOOKAG',
        '--url',
        `${hook.url}/second`,
        '--events',
        'airline_change.detected,booking.canceled',
      ]),
    );
    assert.equal(second.stderr, '', 'no warning for a host that resolves');
    const secondId =
      /^endpoint (we_[0-9a-f]{24}) added for agency HOOKAG: \S+ \(airline_change\.detected,booking\.canceled\)\n/.exec(
        second.stdout,
      )?.[1];
    assert.ok(secondId, second.stdout);
    assert.equal(
      await ok(['webhook', 'list', '--agency-id', 'HOOKAG']),
      `${endpointId}  HOOKAG  ENABLED  ${hookUrl}  *\n` +
        `${secondId}  HOOKAG  ENABLED  ${hook.url}/second  airline_change.detected,booking.canceled\n`,
    );

    const now = () => new Date().toISOString();
    await withDatabase(async (store) => {
      for (const [agencyId, orderId, reference] of [
        ['HOOKAG', 'HOOK-ORD', 'HOOKRF'],
        ['HOOKAG2', 'HOOK-ORD2', 'HOOKR2'],
      ] as const) {
        const orders = readRecords(JSON.stringify([simpleOrder(orderId, agencyId, reference)]));
        await importOrders(store, now, preparedHere(orders, now()), false);
        const changes = [change(`${orderId}-CHG`, orderId, reference, ['S1'], [segment('S2', 2)])];
        await importChanges(store, now, readRecords(JSON.stringify(changes)));
      }
    });
    const listed = JSON.parse(await ok(['--json', 'webhook', 'deliveries', '--endpoint', endpointId]));
    assert.equal(listed.length, 1, JSON.stringify(listed));
    const [delivery] = listed;
    const eventId: string = delivery.eventId;
    assert.deepEqual([delivery.endpointId, delivery.status, delivery.attempts], [endpointId, 'PENDING', 0]);
    assert.equal(
      await ok(['webhook', 'deliveries', '--endpoint', endpointId]),
      `${eventId}  ${endpointId}  PENDING  attempts 0  next ${delivery.nextAttemptAt}\n`,
    );
    const ofAgency = (await ok(['webhook', 'deliveries', '--agency-id', 'HOOKAG'])).split('\n');
    assert.deepEqual(
      ofAgency.map((line) => line.split('  ').slice(0, 3).join(' ')).sort(),
      ['', `${eventId} ${endpointId} PENDING`, `${eventId} ${secondId} PENDING`].sort(),
    );
    assert.ok((await ok(['webhook', 'deliveries'])).split('\n').length > ofAgency.length, 'other agencies have theirs');
    assert.equal(await ok(['webhook', 'deliveries', '--failed']), 'no deliveries\n');
    assert.equal((await ok(['webhook', 'deliveries', '--agency-id', 'HOOKAG', '--limit', '1'])).split('\n').length, 2);

    // Attempts recorded as the dispatcher records them: a receiver's 503, then a failure for good with no answer.
    const attempt = (record: { status: 'PENDING' | 'FAILED'; lastStatus: number | null; lastError: string | null }) =>
      withDatabase((store) =>
        store.write(async (tx) => {
          const at = now();
          const claimed = await tx.claimDeliveries(endpointId, 'in-process', at, '2999-01-01T00:00:00.000Z', 10);
          assert.deepEqual(
            claimed.map((one) => one.eventId),
            [eventId],
          );
          // Leased to the first claimer until its attempt is recorded: another process gets nothing.
          assert.deepEqual(await tx.claimDeliveries(endpointId, 'another', at, '2999-01-01T00:00:00.000Z', 10), []);
          await tx.recordAttempt(eventId, endpointId, 'in-process', { ...record, nextAttemptAt: at, at });
        }),
      );
    await attempt({ status: 'PENDING', lastStatus: 503, lastError: 'HTTP 503' });
    const retrying = JSON.parse(await ok(['--json', 'webhook', 'deliveries', '--endpoint', endpointId]))[0];
    assert.equal(
      await ok(['webhook', 'deliveries', '--endpoint', endpointId]),
      `${eventId}  ${endpointId}  PENDING  attempts 1  last HTTP 503  HTTP 503  next ${retrying.nextAttemptAt}\n`,
    );
    await attempt({ status: 'FAILED', lastStatus: null, lastError: 'connect ECONNREFUSED' });
    const failed = `${eventId}  ${endpointId}  FAILED  attempts 2  connect ECONNREFUSED\n`;
    assert.equal(await ok(['webhook', 'deliveries', '--endpoint', endpointId]), failed);
    assert.equal(await ok(['webhook', 'deliveries', '--failed']), failed);

    assert.equal(
      await ok(['webhook', 'redeliver', eventId]),
      `event ${eventId} queued for ${endpointId}, ${secondId}\n`,
    );
    assert.deepEqual(JSON.parse(await ok(['--json', 'webhook', 'redeliver', eventId, '--endpoint', endpointId])), {
      eventId,
      endpoints: [endpointId],
    });
    assert.equal(
      await ok(['webhook', 'redeliver', eventId, '--endpoint', secondId!]),
      `event ${eventId} queued for ${secondId}\n`,
    );
    assert.equal(
      await refused(['webhook', 'redeliver', 'evt_missing']),
      'error: No event evt_missing (events are kept 30 days).\n',
    );
  });

  test('an event written before the log (migration 013) is found by its id: redelivered, and claimed with its type and data', async () => {
    const at = new Date(Date.now() - 60_000).toISOString();
    const legacyId = `${eventIdAt(Date.parse(at))}00000001abcdef09`;
    const data = { OrderID: 'BEFORE-LOG', GdsBookingReference: 'BFR013' };
    await withDatabase((store) =>
      store.transaction((tx) =>
        runSql(
          tx,
          'insert into events_before_013 (event_id, agency_id, type, occurred_at, data) values (?, ?, ?, ?, ?)',
          [legacyId, 'HOOKAG', 'booking.canceled', at, JSON.stringify(data)],
        ),
      ),
    );
    assert.equal(
      await ok(['webhook', 'redeliver', legacyId, '--endpoint', endpointId]),
      `event ${legacyId} queued for ${endpointId}\n`,
    );
    const claimed = await withDatabase((store) =>
      store.write((tx) =>
        tx.claimDeliveries(endpointId, 'in-process', new Date().toISOString(), '2999-01-01T00:00:00.000Z', 100),
      ),
    );
    assert.deepEqual(
      claimed
        .filter((delivery) => delivery.eventId === legacyId)
        .map(({ eventType, occurredAt, data: claimedData }) => ({ eventType, occurredAt, data: claimedData })),
      [{ eventType: 'booking.canceled', occurredAt: at, data }],
    );
  });

  test('deliveries --limit: 1 to 99999, refused otherwise', async () => {
    for (const limit of ['0', '100000', '-1', '1.5', 'x', '01'])
      assert.equal(
        await refused(['webhook', 'deliveries', '--limit', limit]),
        'error: --limit must be a whole number from 1 to 99999.\n',
        limit,
      );
    assert.equal((await airorder(['webhook', 'deliveries', '--limit', '99999'])).code, 0);
  });

  test('rotate-secret: a new secret, the previous one signing for 24 hours more; remove', async () => {
    const rotated = await ok(['webhook', 'rotate-secret', endpointId]);
    const match = /^new signing secret \(shown once\): (whsec_\S+)\nthe previous one also signs until (\S+Z)\n$/.exec(
      rotated,
    );
    assert.ok(match, rotated);
    const overlap = Date.parse(match[2]!) - Date.now();
    assert.ok(overlap > 23 * 3_600_000 && overlap <= 24 * 3_600_000, match[2]);
    const json = JSON.parse(await ok(['--json', 'webhook', 'rotate-secret', endpointId]));
    assert.deepEqual(Object.keys(json), ['id', 'secret', 'previousSecretUntil']);
    assert.notEqual(json.secret, match[1]);
    assert.equal(await ok(['webhook', 'remove', endpointId]), `endpoint ${endpointId} removed\n`);
    assert.equal(
      await refused(['webhook', 'remove', endpointId]),
      `error: No webhook endpoint ${endpointId}; see: airorder webhook list\n`,
    );
    const other = JSON.parse(await ok(['--json', 'webhook', 'list', '--agency-id', 'HOOKAG2']))[0].id;
    assert.deepEqual(JSON.parse(await ok(['--json', 'webhook', 'remove', other])), { id: other, removed: true });
  });
});
