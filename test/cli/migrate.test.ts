import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';

const sandbox = new CliSandbox();
after(() => sandbox.cleanup());

const INITIAL_TABLES = ['access_tokens', 'agencies', 'airline_changes', 'bookings', 'orders', 'refunds'];
const SECOND_TABLES = [
  'access_tokens',
  'agencies',
  'airline_changes',
  'audit_events',
  'bookings',
  'idempotency_keys',
  'orders',
  'refunds',
];
const THIRD_TABLES = [
  'access_tokens',
  'agencies',
  'airline_changes',
  'audit_events',
  'background_leases',
  'bookings',
  'events',
  'idempotency_keys',
  'orders',
  'refunds',
  'webhook_deliveries',
  'webhook_endpoints',
];
const FOURTH_TABLES = [...THIRD_TABLES, 'auth_state'].sort();
const FIFTH_TABLES = [
  ...FOURTH_TABLES,
  'operator_actions',
  'operator_login_failures',
  'operator_sessions',
  'operators',
].sort();
const EIGHTH_TABLES = [...FIFTH_TABLES, 'console_imports', 'request_counts'].sort();
const NINTH_TABLES = [
  ...EIGHTH_TABLES.filter((name) => name !== 'operator_login_failures'),
  'operator_sign_in_attempts',
].sort();
const TENTH_TABLES = [...NINTH_TABLES, 'token_last_use'].sort();
const RECORD_VIEWS = ['airline_changes', 'bookings', 'orders', 'refunds'];
const ELEVENTH_TABLES = [
  ...TENTH_TABLES.filter((name) => !RECORD_VIEWS.includes(name)),
  'airline_change_timers',
  'change_tallies',
  'order_records',
].sort();
const TWELFTH_TABLES = [
  ...ELEVENTH_TABLES.filter((name) => name !== 'audit_events'),
  'audit_events_before_012',
  'audit_log',
].sort();
const THIRTEENTH_TABLES = [
  ...TWELFTH_TABLES.filter((name) => name !== 'events'),
  'event_log',
  'events_before_013',
].sort();
const FOURTEENTH_TABLES = [...THIRTEENTH_TABLES, 'refund_quotes'].sort();
const APP_TABLES = [...FOURTEENTH_TABLES, 'kept_response_counts'].sort();
const MIGRATIONS = [
  '001-initial-schema',
  '002-idempotency-and-audit',
  '003-events-webhooks-deadlines',
  '004-order-versions-auth-state',
  '005-operator-console',
  '006-console-progress-and-counts',
  '007-one-index-for-pending-changes',
  '008-room-for-updates-in-place',
  '009-sign-in-attempt-counts',
  '010-token-last-use',
  '011-order-records',
  '012-audit-log',
  '013-event-log',
  '014-refund-quotes',
  '015-kept-response-counts',
];

function views(): string[] {
  return sandbox
    .query<{ name: string }>("select name from sqlite_master where type = 'view' order by name")
    .map((row) => row.name);
}

function appTables(): string[] {
  return sandbox
    .query<{ name: string }>(
      "select name from sqlite_master where type = 'table' and name not like 'kysely_%' and name not like 'sqlite_%' order by name",
    )
    .map((row) => row.name);
}

test('migrate creates the schema, rollback removes it, and migrate runs again cleanly', async () => {
  const first = await sandbox.run(['migrate']);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stdout, MIGRATIONS.map((name) => `Up ${name}\n`).join(''));
  assert.deepEqual(appTables(), APP_TABLES);

  const again = await sandbox.run(['migrate']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, 'nothing to do\n');
  assert.deepEqual(appTables(), APP_TABLES);

  const auditColumns = () =>
    sandbox
      .query<{ name: string }>("select name from pragma_table_info('audit_events') order by cid")
      .map((row) => row.name);
  assert.deepEqual(auditColumns().slice(-2), ['operator_email', 'reason']);
  assert.deepEqual(
    views(),
    [...RECORD_VIEWS, 'audit_events', 'events'].sort(),
    'the former tables are views of the order records, the audit log and the event log',
  );
  const changeIndexes = () =>
    sandbox
      .query<{ name: string }>(
        "select name from sqlite_master where type = 'index' and tbl_name = 'airline_changes' and sql is not null order by name",
      )
      .map((row) => row.name);
  const plan = (query: string) =>
    sandbox
      .query<{ detail: string }>(`explain query plan ${query}`)
      .map((row) => row.detail)
      .join(' | ');
  assert.match(
    plan("select change_id from airline_change_timers where due_at <= '2027-01-01' order by due_at limit 10"),
    /airline_change_timers_due_idx/,
  );
  assert.match(
    plan("select order_id, version, json(record) from order_records where order_id = 'X'"),
    /USING INDEX sqlite_autoindex_order_records_1|PRIMARY KEY/,
  );

  // An agency's oldest kept response, and its expired ones, are found through an index, never a scan of the table.
  assert.match(
    plan("select min(expires_at) from idempotency_keys where agency_id = 'AG1' and expires_at > '2026-11-25'"),
    /SEARCH idempotency_keys USING (COVERING )?INDEX/,
  );
  const rollbackCounts = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackCounts.code, 0, rollbackCounts.stderr);
  assert.equal(rollbackCounts.stdout, 'Down 015-kept-response-counts\n');
  assert.deepEqual(appTables(), FOURTEENTH_TABLES);

  const rollbackQuotes = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackQuotes.code, 0, rollbackQuotes.stderr);
  assert.equal(rollbackQuotes.stdout, 'Down 014-refund-quotes\n');
  assert.deepEqual(appTables(), THIRTEENTH_TABLES);

  // A row of the event log, the feed's and the ids' indexes on it.
  assert.match(
    plan("select entries from event_log where first_id = 'evt_0'"),
    /USING INDEX sqlite_autoindex_event_log_1/,
  );
  assert.match(
    plan("select entries from event_log where agency_id = 'AG1' and tx >= 0 order by tx, position limit 10"),
    /event_log_feed_idx/,
  );
  const eventIndexes = () =>
    sandbox
      .query<{ name: string }>(
        "select name from sqlite_master where type = 'index' and tbl_name like 'events%' order by name",
      )
      .map((row) => row.name);
  assert.deepEqual(
    eventIndexes(),
    ['events_agency_feed_idx', 'sqlite_autoindex_events_before_013_1'],
    'the events of before keep their indexes',
  );

  const rollbackThirteenth = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackThirteenth.code, 0, rollbackThirteenth.stderr);
  assert.equal(rollbackThirteenth.stdout, 'Down 013-event-log\n');
  assert.deepEqual(appTables(), TWELFTH_TABLES);
  assert.deepEqual(views(), [...RECORD_VIEWS, 'audit_events'].sort());
  assert.deepEqual(
    eventIndexes(),
    ['events_agency_feed_idx', 'sqlite_autoindex_events_1'],
    'events is the table of before again, with its indexes',
  );

  const rollbackTwelfth = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackTwelfth.code, 0, rollbackTwelfth.stderr);
  assert.equal(rollbackTwelfth.stdout, 'Down 012-audit-log\n');
  assert.deepEqual(appTables(), ELEVENTH_TABLES);
  assert.deepEqual(views(), RECORD_VIEWS);

  const rollbackEleventh = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackEleventh.code, 0, rollbackEleventh.stderr);
  assert.equal(rollbackEleventh.stdout, 'Down 011-order-records\n');
  assert.deepEqual(appTables(), TENTH_TABLES);
  assert.deepEqual(views(), [], 'the former tables are tables again');
  assert.deepEqual(changeIndexes(), ['airline_changes_booking_idx', 'airline_changes_pending_idx']);
  assert.match(plan("select count(*) from airline_changes where status = 'PENDING'"), /airline_changes_pending_idx/);
  assert.match(
    plan(
      "select change_id from airline_changes where status = 'PENDING' and action_deadline <= '2027-01-01' order by action_deadline limit 10",
    ),
    /airline_changes_pending_idx/,
  );
  const rollbackTenth = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackTenth.code, 0, rollbackTenth.stderr);
  assert.equal(rollbackTenth.stdout, 'Down 010-token-last-use\n');
  assert.deepEqual(appTables(), NINTH_TABLES);
  const rollbackNinth = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackNinth.code, 0, rollbackNinth.stderr);
  assert.equal(rollbackNinth.stdout, 'Down 009-sign-in-attempt-counts\n');
  assert.deepEqual(appTables(), EIGHTH_TABLES);
  const rollbackEighth = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackEighth.code, 0, rollbackEighth.stderr);
  assert.equal(rollbackEighth.stdout, 'Down 008-room-for-updates-in-place\n');
  const rollbackSeventh = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackSeventh.code, 0, rollbackSeventh.stderr);
  assert.equal(rollbackSeventh.stdout, 'Down 007-one-index-for-pending-changes\n');
  assert.deepEqual(changeIndexes(), [
    'airline_changes_booking_idx',
    'airline_changes_deadline_idx',
    'airline_changes_status_idx',
  ]);
  assert.deepEqual(appTables(), EIGHTH_TABLES);

  const rollbackSixth = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackSixth.code, 0, rollbackSixth.stderr);
  assert.equal(rollbackSixth.stdout, 'Down 006-console-progress-and-counts\n');
  assert.deepEqual(appTables(), FIFTH_TABLES);

  const rollbackFifth = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackFifth.code, 0, rollbackFifth.stderr);
  assert.equal(rollbackFifth.stdout, 'Down 005-operator-console\n');
  assert.deepEqual(appTables(), FOURTH_TABLES);
  assert.deepEqual(
    auditColumns().slice(-2),
    ['operation', 'occurred_at'],
    'the operator columns of the audit trail are gone',
  );

  const rollbackFourth = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackFourth.code, 0, rollbackFourth.stderr);
  assert.equal(rollbackFourth.stdout, 'Down 004-order-versions-auth-state\n');
  assert.deepEqual(appTables(), THIRD_TABLES);
  assert.ok(
    !sandbox
      .query<{ name: string }>("select name from pragma_table_info('orders')")
      .some((row) => row.name === 'version'),
    'the version column is gone',
  );
  assert.deepEqual(
    sandbox.query("select name from sqlite_master where type = 'trigger'"),
    [],
    'the auth triggers are gone',
  );

  const rollbackThird = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackThird.code, 0, rollbackThird.stderr);
  assert.equal(rollbackThird.stdout, 'Down 003-events-webhooks-deadlines\n');
  assert.deepEqual(appTables(), SECOND_TABLES);
  assert.deepEqual(
    sandbox
      .query<{ name: string }>("select name from pragma_table_info('airline_changes') order by cid")
      .map((row) => row.name)
      .slice(-3),
    ['status', 'created_at', 'resolved_at'],
    'the deadline columns are gone',
  );
  const rollback = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollback.code, 0, rollback.stderr);
  assert.equal(rollback.stdout, 'Down 002-idempotency-and-audit\n');
  assert.deepEqual(appTables(), INITIAL_TABLES);
  const rollbackFirst = await sandbox.run(['migrate', '--rollback']);
  assert.equal(rollbackFirst.stdout, 'Down 001-initial-schema\n');
  assert.deepEqual(appTables(), []);
  assert.deepEqual(sandbox.query('select name from kysely_migration'), []);

  const rerun = await sandbox.run(['migrate']);
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.equal(rerun.stdout, MIGRATIONS.map((name) => `Up ${name}\n`).join(''));
  assert.deepEqual(appTables(), APP_TABLES);
  assert.deepEqual(
    sandbox.query('select name from kysely_migration order by name'),
    MIGRATIONS.map((name) => ({ name })),
  );

  // The re-created schema is usable.
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  assert.deepEqual(sandbox.query('select agency_id, name from agencies'), [{ agency_id: 'AG1', name: 'Agency One' }]);
});

test('rollback with nothing applied is not an error and changes nothing', async () => {
  for (let index = 0; index < MIGRATIONS.length; index += 1) await sandbox.ok(['migrate', '--rollback']);
  assert.deepEqual(appTables(), []);
  const nothing = await sandbox.run(['migrate', '--rollback']);
  assert.equal(nothing.code, 0, nothing.stderr);
  assert.equal(nothing.stdout, 'nothing to do\n');
  await sandbox.ok(['migrate']);
  assert.deepEqual(appTables(), APP_TABLES);
});
