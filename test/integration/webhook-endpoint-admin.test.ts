import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runSql } from '../../src/store/raw-sql.js';
import {
  addEndpoint,
  endpoints,
  redeliver,
  removeEndpoint,
  rotateSecret,
  setEnabled,
} from '../../src/service/webhook-endpoints.js';
import { change, segment, simpleOrder } from '../helpers/documents.js';
import { startTestService, type TestService } from '../helpers/test-service.js';

/**
 * The operator's webhook commands as the service carries them out (webhook-endpoints.ts), called in
 * process on a test service's store: what each refuses, word for word, and what it leaves stored.
 */
const OPEN = { allowHttp: true, allowPrivateNetworks: true };
const NOW = '2026-11-21T09:00:00.000Z';
const clock = () => NOW;
const URL_ = 'http://127.0.0.1:9/hook';
let service: TestService;

before(async () => {
  service = await startTestService();
  await service.addAgency('WEA1');
  await service.addAgency('WEA2');
});
after(() => service.close());

const add = (agencyId: string, events?: string) =>
  addEndpoint(service.store, clock, OPEN, { agencyId, url: URL_, ...(events === undefined ? {} : { events }) });

async function eventOf(agencyId: string, orderId: string): Promise<{ eventId: string; type: string }> {
  const reference = `${orderId.replace(/-/g, '')}R`.slice(0, 6);
  await service.importOrders([simpleOrder(orderId, agencyId, reference)]);
  await service.importChanges([change(`${orderId}-C`, orderId, reference, ['S1'], [segment('S2', 2)])]);
  const [row] = await runSql<{ event_id: string; type: string }>(
    service.store.reader,
    'select event_id, type from events where agency_id = ? and data like ? order by position desc',
    [agencyId, `%${orderId}%`],
  );
  return { eventId: row!.event_id, type: row!.type };
}

test('add: the endpoint as stored, enabled, with a fresh secret and no previous one, at the clock', async () => {
  const added = await add('WEA1');
  assert.match(added.endpointId, /^we_[0-9a-f]{24}$/);
  assert.match(added.secret, /^whsec_/);
  assert.deepEqual(
    { ...added, endpointId: null, secret: null },
    {
      endpointId: null,
      agencyId: 'WEA1',
      url: URL_,
      events: ['*'],
      status: 'ENABLED',
      statusReason: null,
      secret: null,
      previousSecret: null,
      previousSecretUntil: null,
      createdAt: NOW,
      warning: null,
    },
  );
  const stored = await service.store.read.findEndpoint(added.endpointId);
  assert.deepEqual(stored, (({ warning: _warning, ...rest }) => rest)(added));
});

test('--events: trimmed, blanks dropped, repeats kept once', async () => {
  const added = await add('WEA1', ' booking.canceled ,, booking.refunded,booking.canceled, ');
  assert.deepEqual(added.events, ['booking.canceled', 'booking.refunded']);
});

test('--events: an unknown type, or none at all, is refused with the known types and the text given', async () => {
  const known =
    'airline_change.detected, airline_change.deadline_approaching, airline_change.resolved, booking.canceled, booking.refunded';
  for (const text of ['booking.canceled,booking.lost', '', ' , '])
    await assert.rejects(add('WEA1', text), {
      message: `--events must list event types separated by commas (${known}), got ${JSON.stringify(text)}.`,
    });
});

test('add: a refused URL and an unknown agency, each in its own words; nothing stored', async () => {
  const before = (await endpoints(service.store, null)).length;
  await assert.rejects(
    addEndpoint(
      service.store,
      clock,
      { allowHttp: false, allowPrivateNetworks: true },
      { agencyId: 'WEA1', url: URL_ },
    ),
    { message: '--url is refused: the URL must be https (plain http is allowed only with WEBHOOK_ALLOW_HTTP=true).' },
  );
  await assert.rejects(add('NOWEA'), {
    message: 'No agency NOWEA; create it first with: airorder agency add --agency-id NOWEA --name NAME',
  });
  assert.equal((await endpoints(service.store, null)).length, before);
});

test('disable keeps the reason; enable clears it; an unknown endpoint is refused', async () => {
  const { endpointId } = await add('WEA2');
  await setEnabled(service.store, endpointId, false);
  let stored = await service.store.read.findEndpoint(endpointId);
  assert.deepEqual([stored!.status, stored!.statusReason], ['DISABLED', 'disabled by the operator']);
  await setEnabled(service.store, endpointId, true);
  stored = await service.store.read.findEndpoint(endpointId);
  assert.deepEqual([stored!.status, stored!.statusReason], ['ENABLED', null]);
  await assert.rejects(setEnabled(service.store, 'we_none', true), {
    message: 'No webhook endpoint we_none; see: airorder webhook list',
  });
});

test('rotate-secret: the old secret kept as the previous one, for 24 hours from the clock', async () => {
  const added = await add('WEA2');
  const rotated = await rotateSecret(service.store, clock, added.endpointId);
  assert.deepEqual(rotated.previousSecretUntil, '2026-11-22T09:00:00.000Z');
  const stored = await service.store.read.findEndpoint(added.endpointId);
  assert.deepEqual(
    [stored!.secret, stored!.previousSecret, stored!.previousSecretUntil],
    [rotated.secret, added.secret, '2026-11-22T09:00:00.000Z'],
  );
  assert.notEqual(rotated.secret, added.secret);
});

test('remove: gone from the list; removing it again is refused', async () => {
  const { endpointId } = await add('WEA2');
  await removeEndpoint(service.store, endpointId);
  assert.equal(await service.store.read.findEndpoint(endpointId), null);
  await assert.rejects(removeEndpoint(service.store, endpointId), {
    message: `No webhook endpoint ${endpointId}; see: airorder webhook list`,
  });
});

test('redeliver: every enabled endpoint subscribed to the type (or to all), not the disabled nor the others; recorded in the same write', async () => {
  await service.addAgency('WEA3');
  const all = await add('WEA3');
  const ofType = await add('WEA3', 'booking.refunded,airline_change.detected');
  const other = await add('WEA3', 'booking.refunded');
  const disabled = await add('WEA3', 'airline_change.detected');
  await setEnabled(service.store, disabled.endpointId, false);
  const event = await eventOf('WEA3', 'WE-RD1');
  assert.equal(event.type, 'airline_change.detected');
  let recorded = 0;
  const targets = await redeliver(service.store, clock, event.eventId, undefined, async (tx) => {
    assert.ok(tx);
    recorded += 1;
  });
  assert.deepEqual(targets.sort(), [all.endpointId, ofType.endpointId].sort());
  assert.equal(recorded, 1);
  const rows = await runSql<{ endpoint_id: string; next_attempt_at: string; attempts: number | string }>(
    service.store.reader,
    'select endpoint_id, next_attempt_at, attempts from webhook_deliveries where event_id = ? and next_attempt_at = ?',
    [event.eventId, NOW],
  );
  assert.deepEqual(rows.map((row) => row.endpoint_id).sort(), targets);
  assert.ok(!targets.includes(other.endpointId) && !targets.includes(disabled.endpointId));

  // One named endpoint: that one only, even if it does not subscribe to the type.
  assert.deepEqual(await redeliver(service.store, clock, event.eventId, other.endpointId), [other.endpointId]);
});

test("redeliver refuses an unknown event, another agency's endpoint, and an agency with no endpoint for the type", async () => {
  await service.addAgency('WEA4');
  const event = await eventOf('WEA4', 'WE-RD2');
  await assert.rejects(redeliver(service.store, clock, 'evt_none'), {
    message: 'No event evt_none (events are kept 30 days).',
  });
  const foreign = await add('WEA1');
  await assert.rejects(redeliver(service.store, clock, event.eventId, foreign.endpointId), {
    message: `Endpoint ${foreign.endpointId} belongs to agency WEA1, not to WEA4, whose event ${event.eventId} is.`,
  });
  await add('WEA4', 'booking.canceled');
  await assert.rejects(redeliver(service.store, clock, event.eventId), {
    message: 'Agency WEA4 has no enabled endpoint for airline_change.detected.',
  });
});
