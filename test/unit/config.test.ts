/**
 * The configuration (src/config.ts) as a pure reader of an environment: every default, each range at
 * its bounds and one past them, malformed values, and the exact text of each refusal, which is what an
 * operator reads when `airorder` does not start.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import {
  ConfigError,
  DEFAULTS,
  LOG_LEVELS,
  loadConfig,
  sqlitePath,
  withoutPassword,
  type Env,
} from '../../src/config.js';

/** The ConfigError `env` is refused with; fails when it loads. */
function refusal(env: Env, overrides: Parameters<typeof loadConfig>[1] = {}): string {
  try {
    loadConfig(env, overrides);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `not a ConfigError: ${String(error)}`);
    return error.message;
  }
  assert.fail(`${JSON.stringify(env)} was accepted`);
}

test('with nothing set, every setting takes its default', () => {
  assert.deepEqual(loadConfig({}), {
    databaseUrl: 'sqlite:./data/airorder.db',
    port: 8080,
    host: '127.0.0.1',
    durability: 'process',
    sqliteWalLimitBytes: 1024 * 1024 * 1024,
    logLevel: 'info',
    serviceName: 'airorder',
    bodyLimitBytes: 65536,
    shutdownGraceMs: 10_000,
    databasePoolSize: 10,
    databaseConnectTimeoutMs: 2000,
    databaseStatementTimeoutMs: 5000,
    databasePoolMin: 2,
    databasePoolQueue: 500,
    databaseStartWaitMs: 60_000,
    rateLimitPerSecond: 50,
    rateLimitBurst: 100,
    keptResponsesPerAgency: 50_000,
    requestTimeoutMs: 15_000,
    receiveTimeoutMs: 30_000,
    maxConnections: 10_000,
    maxConnectionsPerAddress: 256,
    headersTimeoutMs: 10_000,
    keepAliveTimeoutMs: 72_000,
    deadlineWarningMs: 24 * 3_600_000,
    voidWindowMs: 24 * 3_600_000,
    refundQuoteTtlMs: 15 * 60_000,
    webhookRetrySchedule: [5000, 60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000, 86_400_000],
    webhookAllowHttp: false,
    webhookAllowPrivateNetworks: false,
    webhookTimeoutMs: 10_000,
    consoleEnabled: true,
    launchedByNpm: false,
    metricsAllow: [],
    metricsToken: null,
  });
});

test('the configuration and its lists are frozen', () => {
  const config = loadConfig({ METRICS_ALLOW: '10.0.0.0/8' });
  assert.ok(Object.isFrozen(config));
  assert.ok(Object.isFrozen(config.webhookRetrySchedule));
  assert.ok(Object.isFrozen(config.metricsAllow));
  assert.ok(Object.isFrozen(config.metricsAllow[0]));
  assert.ok(Object.isFrozen(loadConfig({}).metricsAllow));
});

test('an override wins over the environment, the environment over the default', () => {
  assert.equal(loadConfig({ PORT: '9000' }).port, 9000);
  assert.equal(loadConfig({ PORT: '9000' }, { PORT: '9100' }).port, 9100);
  assert.equal(loadConfig({}, { PORT: '9200' }).port, 9200);
  assert.equal(loadConfig({ PORT: '9000' }, { HOST: '0.0.0.0' }).port, 9000);
  assert.equal(loadConfig({ PORT: '9000' }, { HOST: '0.0.0.0' }).host, '0.0.0.0');
  // An empty value is a value: it is checked, not replaced by the default.
  assert.equal(refusal({ PORT: '' }), 'PORT must be a whole number from 0 to 65535, got "".');
  assert.equal(refusal({ PORT: '1' }, { PORT: '' }), 'PORT must be a whole number from 0 to 65535, got "".');
});

test('launchedByNpm follows npm_execpath in the environment', () => {
  assert.equal(loadConfig({ npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js' }).launchedByNpm, true);
  assert.equal(loadConfig({ npm_execpath: '' }).launchedByNpm, false);
  assert.equal(loadConfig({}).launchedByNpm, false);
});

test('DATABASE_URL: a sqlite: path or a postgres:// or postgresql:// URL', () => {
  assert.equal(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/x.db' }).databaseUrl, 'sqlite:/var/lib/x.db');
  assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).databaseUrl, 'sqlite::memory:');
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://u:p@h:5432/d' }).databaseUrl, 'postgres://u:p@h:5432/d');
  assert.equal(loadConfig({ DATABASE_URL: 'postgresql://h/d' }).databaseUrl, 'postgresql://h/d');
  const refused = (url: string) =>
    `DATABASE_URL must be sqlite:PATH or postgres://user:password@host:port/database, got "${url}".`;
  for (const url of ['', 'mysql://h/d', 'postgres:/h/d', 'postgresq://h/d', 'postgresqlx://h/d', 'xpostgres://h/d']) {
    assert.equal(refusal({ DATABASE_URL: url }), refused(url), url);
  }
  assert.equal(refusal({ DATABASE_URL: 'x.db' }), refused('x.db'));
  assert.equal(refusal({ DATABASE_URL: 'data/sqlite:' }), refused('data/sqlite:'));
  assert.equal(refusal({ DATABASE_URL: 'SQLITE:x.db' }), refused('SQLITE:x.db'));
  // The password is never echoed.
  assert.equal(refusal({ DATABASE_URL: 'mysql://root:s3cret@db:3306/x' }), refused('mysql://root:***@db:3306/x'));
  assert.equal(refusal({ DATABASE_URL: ' postgres://root:s3cret@db/x' }), refused(' postgres://root:***@db/x'));
  assert.equal(refusal({ DATABASE_URL: 'sqlite:' }), 'DATABASE_URL must name a file after sqlite:, got "sqlite:".');
});

test('DURABILITY: process or power', () => {
  assert.equal(loadConfig({ DURABILITY: 'power' }).durability, 'power');
  assert.equal(loadConfig({ DURABILITY: 'process' }).durability, 'process');
  for (const value of ['', 'Power', 'disk']) {
    assert.equal(refusal({ DURABILITY: value }), `DURABILITY must be "process" or "power", got "${value}".`);
  }
});

test("LOG_LEVEL: one of pino's levels", () => {
  assert.deepEqual([...LOG_LEVELS], ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
  for (const level of LOG_LEVELS) assert.equal(loadConfig({ LOG_LEVEL: level }).logLevel, level);
  for (const value of ['', 'INFO', 'verbose']) {
    assert.equal(
      refusal({ LOG_LEVEL: value }),
      `LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "${value}".`,
    );
  }
});

test('CONSOLE: on or off', () => {
  assert.equal(loadConfig({ CONSOLE: 'off' }).consoleEnabled, false);
  assert.equal(loadConfig({ CONSOLE: 'on' }).consoleEnabled, true);
  for (const value of ['', 'true', 'OFF']) {
    assert.equal(refusal({ CONSOLE: value }), `CONSOLE must be "on" or "off", got "${value}".`);
  }
});

/** Each whole-number setting: its variable, the Config field it fills, its range. */
const WHOLE_NUMBERS: readonly [keyof typeof DEFAULTS, string, number, number][] = [
  ['PORT', 'port', 0, 65535],
  ['SHUTDOWN_GRACE_MS', 'shutdownGraceMs', 0, 600_000],
  ['DATABASE_POOL_SIZE', 'databasePoolSize', 1, 1000],
  ['DATABASE_CONNECT_TIMEOUT_MS', 'databaseConnectTimeoutMs', 100, 600_000],
  ['DATABASE_STATEMENT_TIMEOUT_MS', 'databaseStatementTimeoutMs', 100, 600_000],
  ['DATABASE_POOL_QUEUE', 'databasePoolQueue', 0, 100_000],
  ['DATABASE_START_WAIT_MS', 'databaseStartWaitMs', 0, 3_600_000],
  ['RATE_LIMIT_PER_SECOND', 'rateLimitPerSecond', 0, 1_000_000],
  ['RATE_LIMIT_BURST', 'rateLimitBurst', 0, 1_000_000],
  ['KEPT_RESPONSES_PER_AGENCY', 'keptResponsesPerAgency', 1, 10_000_000],
  ['REQUEST_TIMEOUT_MS', 'requestTimeoutMs', 100, 600_000],
  ['RECEIVE_TIMEOUT_MS', 'receiveTimeoutMs', 1000, 600_000],
  ['MAX_CONNECTIONS', 'maxConnections', 1, 1_000_000],
  ['MAX_CONNECTIONS_PER_ADDRESS', 'maxConnectionsPerAddress', 0, 1_000_000],
  ['HEADERS_TIMEOUT_MS', 'headersTimeoutMs', 1000, 600_000],
  ['KEEP_ALIVE_TIMEOUT_MS', 'keepAliveTimeoutMs', 1000, 600_000],
  ['WEBHOOK_TIMEOUT_MS', 'webhookTimeoutMs', 100, 600_000],
];

for (const [name, field, min, max] of WHOLE_NUMBERS) {
  test(`${name}: a whole number from ${min} to ${max}`, () => {
    const read = (value: string) => (loadConfig({ [name]: value }) as unknown as Record<string, unknown>)[field];
    assert.equal(read(String(min)), min);
    assert.equal(read(String(max)), max);
    const refused = (value: string) => `${name} must be a whole number from ${min} to ${max}, got "${value}".`;
    const wrong = [String(max + 1), '-1', '1.5', '1e3', ' 100', '100 ', '0x10', '12a', 'a12', '', 'ten'];
    if (min > 0) wrong.push(String(min - 1));
    for (const value of wrong) assert.equal(refusal({ [name]: value }), refused(value), value);
  });
}

test('SQLITE_WAL_LIMIT_MB: from 1 to 1048576 MiB, held in bytes', () => {
  assert.equal(loadConfig({ SQLITE_WAL_LIMIT_MB: '1' }).sqliteWalLimitBytes, 1_048_576);
  assert.equal(loadConfig({ SQLITE_WAL_LIMIT_MB: '3' }).sqliteWalLimitBytes, 3 * 1_048_576);
  assert.equal(loadConfig({ SQLITE_WAL_LIMIT_MB: '1048576' }).sqliteWalLimitBytes, 1_048_576 * 1_048_576);
  for (const value of ['0', '1048577', '-1', '']) {
    assert.equal(
      refusal({ SQLITE_WAL_LIMIT_MB: value }),
      `SQLITE_WAL_LIMIT_MB must be a whole number from 1 to 1048576, got "${value}".`,
    );
  }
});

test('DATABASE_POOL_MIN: from 0 to 1000, never more than the pool', () => {
  assert.equal(loadConfig({ DATABASE_POOL_MIN: '0' }).databasePoolMin, 0);
  assert.equal(loadConfig({ DATABASE_POOL_MIN: '3', DATABASE_POOL_SIZE: '10' }).databasePoolMin, 3);
  assert.equal(loadConfig({ DATABASE_POOL_MIN: '20', DATABASE_POOL_SIZE: '5' }).databasePoolMin, 5);
  assert.equal(loadConfig({ DATABASE_POOL_MIN: '1000', DATABASE_POOL_SIZE: '1000' }).databasePoolMin, 1000);
  for (const value of ['1001', '-1', '']) {
    assert.equal(
      refusal({ DATABASE_POOL_MIN: value }),
      `DATABASE_POOL_MIN must be a whole number from 0 to 1000, got "${value}".`,
    );
  }
  assert.equal(
    refusal({ DATABASE_POOL_MIN: '1', DATABASE_POOL_SIZE: '0' }),
    'DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got "0".',
  );
});

test('DEADLINE_WARNING, VOID_WINDOW, REFUND_QUOTE_TTL: a number and a unit', () => {
  const config = loadConfig({ DEADLINE_WARNING: '90d', VOID_WINDOW: '30s', REFUND_QUOTE_TTL: '2h' });
  assert.equal(config.deadlineWarningMs, 90 * 86_400_000);
  assert.equal(config.voidWindowMs, 30_000);
  assert.equal(config.refundQuoteTtlMs, 7_200_000);
  for (const name of ['DEADLINE_WARNING', 'VOID_WINDOW', 'REFUND_QUOTE_TTL'] as const) {
    for (const value of ['', '15', '0s', '15 minutes']) {
      assert.equal(
        refusal({ [name]: value }),
        `${name} must be a number and a unit, such as 30s, 15m, 12h or 90d, got "${value}".`,
      );
    }
  }
});

test('WEBHOOK_RETRY_SCHEDULE: 1 to 30 delays separated by commas', () => {
  assert.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1s' }).webhookRetrySchedule, [1000]);
  assert.deepEqual(
    loadConfig({ WEBHOOK_RETRY_SCHEDULE: '1s, 2m ,3h' }).webhookRetrySchedule,
    [1000, 120_000, 10_800_000],
  );
  const thirty = Array.from({ length: 30 }, (_, index) => `${index + 1}s`);
  assert.deepEqual(
    loadConfig({ WEBHOOK_RETRY_SCHEDULE: thirty.join(',') }).webhookRetrySchedule,
    thirty.map((_, index) => (index + 1) * 1000),
  );
  assert.equal(
    refusal({ WEBHOOK_RETRY_SCHEDULE: [...thirty, '31s'].join(',') }),
    'WEBHOOK_RETRY_SCHEDULE may list at most 30 delays, got 31.',
  );
  for (const value of ['', '5s,', '5s,,1m', '5s;1m', '5s,1x']) {
    assert.equal(
      refusal({ WEBHOOK_RETRY_SCHEDULE: value }),
      `WEBHOOK_RETRY_SCHEDULE must be delays separated by commas, such as 5s,1m,5m, got "${value}".`,
    );
  }
});

test('WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE_NETWORKS: true or false', () => {
  const on = loadConfig({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  assert.equal(on.webhookAllowHttp, true);
  assert.equal(on.webhookAllowPrivateNetworks, true);
  const off = loadConfig({ WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
  assert.equal(off.webhookAllowHttp, false);
  assert.equal(off.webhookAllowPrivateNetworks, false);
  assert.equal(loadConfig({ WEBHOOK_ALLOW_HTTP: 'true' }).webhookAllowPrivateNetworks, false);
  assert.equal(loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }).webhookAllowHttp, false);
  for (const name of ['WEBHOOK_ALLOW_HTTP', 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'] as const) {
    for (const value of ['', 'TRUE', 'yes', '1']) {
      assert.equal(refusal({ [name]: value }), `${name} must be true or false, got "${value}".`);
    }
  }
});

test('METRICS_ALLOW: addresses or CIDR ranges separated by commas, blanks around them ignored', () => {
  assert.deepEqual(loadConfig({ METRICS_ALLOW: '   ' }).metricsAllow, []);
  assert.deepEqual(loadConfig({ METRICS_ALLOW: ' 10.0.0.0/8 , fd00::7' }).metricsAllow, [
    { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
    { address: 'fd00::7', prefix: 128, family: 'ipv6' },
  ]);
  const refused = (entry: string) =>
    `METRICS_ALLOW must list addresses or CIDR ranges separated by commas, such as 10.0.0.0/8,fd00::/8; "${entry}" is neither.`;
  assert.equal(refusal({ METRICS_ALLOW: '10.0.0.1, example.com ' }), refused('example.com'));
  assert.equal(refusal({ METRICS_ALLOW: '10.0.0.1,' }), refused(''));
  assert.equal(refusal({ METRICS_ALLOW: '10.0.0.0/33' }), refused('10.0.0.0/33'));
});

test('METRICS_TOKEN: none, or 16 to 256 printable characters, never echoed', () => {
  assert.equal(loadConfig({ METRICS_TOKEN: '' }).metricsToken, null);
  for (const token of ['a'.repeat(16), 'b'.repeat(256), `!${'x'.repeat(14)}~`]) {
    assert.equal(loadConfig({ METRICS_TOKEN: token }).metricsToken, token);
  }
  const refused =
    'METRICS_TOKEN must be 16 to 256 printable characters without spaces (e.g. openssl rand -hex 32); the value given is not.';
  for (const token of ['a'.repeat(15), 'b'.repeat(257), `${'c'.repeat(8)} ${'c'.repeat(8)}`, `${'d'.repeat(16)}\x7f`]) {
    assert.equal(refusal({ METRICS_TOKEN: token }), refused);
  }
  assert.equal(refusal({ METRICS_TOKEN: `\t${'e'.repeat(16)}` }), refused);
  assert.equal(refusal({ METRICS_TOKEN: `${'é'.repeat(16)}` }), refused);
});

test('withoutPassword hides the password of a URL, up to its last @', () => {
  assert.equal(withoutPassword('postgres://user:secret@host:5432/db'), 'postgres://user:***@host:5432/db');
  assert.equal(withoutPassword('postgresql://u:p@h/d'), 'postgresql://u:***@h/d');
  assert.equal(withoutPassword('POSTGRES://Admin:secret@host/db'), 'POSTGRES://Admin:***@host/db');
  assert.equal(withoutPassword('pg+ssl.v-2://user:secret@host/db'), 'pg+ssl.v-2://user:***@host/db');
  assert.equal(withoutPassword('postgres://:secret@host/db'), 'postgres://:***@host/db');
  assert.equal(withoutPassword('postgres://user:se@c/r?e#t@host/db?x=1'), 'postgres://user:***@host/db?x=1');
  assert.equal(withoutPassword('postgres://user:@host/db'), 'postgres://user:***@host/db');
  // A URL with something before it (a blank copied with it, a stray character) is still a URL with a password.
  assert.equal(withoutPassword(' postgres://user:secret@host/db'), ' postgres://user:***@host/db');
  assert.equal(withoutPassword('1pg://user:secret@host/db'), '1pg://user:***@host/db');
  assert.equal(withoutPassword('DATABASE_URL=postgres://u:secret@h/d'), 'DATABASE_URL=postgres://u:***@h/d');
  // Nothing to hide: no password, no user, no URL.
  assert.equal(withoutPassword('postgres://user@host/db'), 'postgres://user@host/db');
  assert.equal(withoutPassword('postgres://host:5432/db'), 'postgres://host:5432/db');
  assert.equal(withoutPassword('sqlite:./data/a@b.db'), 'sqlite:./data/a@b.db');
  assert.equal(withoutPassword('postgres:/user:secret@host/db'), 'postgres:/user:secret@host/db');
  assert.equal(withoutPassword('postgres://us/er:secret@host/db'), 'postgres://us/er:secret@host/db');
  assert.equal(withoutPassword('postgres://us?er:secret@host/db'), 'postgres://us?er:secret@host/db');
  assert.equal(withoutPassword('postgres://us#er:secret@host/db'), 'postgres://us#er:secret@host/db');
  assert.equal(withoutPassword('postgres://u@s:secret@host/db'), 'postgres://u@s:secret@host/db');
});

test('sqlitePath: the path after sqlite:, resolved against the working directory; :memory: as it is', () => {
  assert.equal(sqlitePath('sqlite::memory:'), ':memory:');
  assert.equal(sqlitePath('sqlite:/var/lib/airorder.db'), '/var/lib/airorder.db');
  assert.equal(sqlitePath('sqlite:./data/airorder.db'), path.join(process.cwd(), 'data', 'airorder.db'));
  assert.equal(sqlitePath('sqlite:data/x.db'), path.join(process.cwd(), 'data', 'x.db'));
});
