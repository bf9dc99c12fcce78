import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';

const sandbox = new CliSandbox();
after(() => sandbox.cleanup());

/**
 * Runs `airorder ARGS…`, which must stop at once: exit 1, nothing on stdout, and one `error: …`
 * line on stderr (not a stack trace). Returns that line.
 */
async function stops(args: string[], env: Record<string, string> = {}): Promise<string> {
  const result = await sandbox.run(args, { env, timeoutMs: 15_000 });
  assert.equal(result.code, 1, `expected exit 1, got ${result.code}: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line of error, not a stack trace:\n${result.stderr}`);
  assert.match(lines[0]!, /^error: /);
  return lines[0]!;
}

describe('a bad setting stops every command with one line naming it', () => {
  test('LOG_LEVEL outside the levels README lists: serve and any other command, before anything runs', async () => {
    const expected = 'error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "bogus".';
    // PORT 0: were the level not checked, serve would get as far as listening before the logger refused it.
    assert.equal(await stops(['serve'], { LOG_LEVEL: 'bogus', PORT: '0' }), expected);
    assert.equal(await stops(['migrate'], { LOG_LEVEL: 'bogus' }), expected);
    assert.equal(
      await stops(['orders', 'show', 'ORD-1'], { LOG_LEVEL: 'INFO' }),
      'error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "INFO".',
    );
  });

  test('the deadline and webhook settings: a bad value is one line naming it', async () => {
    assert.equal(
      await stops(['serve'], { DEADLINE_WARNING: '1 day', PORT: '0' }),
      'error: DEADLINE_WARNING must be a number and a unit, such as 30s, 15m, 12h or 90d, got "1 day".',
    );
    assert.equal(
      await stops(['migrate'], { WEBHOOK_RETRY_SCHEDULE: '5s,,1m' }),
      'error: WEBHOOK_RETRY_SCHEDULE must be delays separated by commas, such as 5s,1m,5m, got "5s,,1m".',
    );
    assert.equal(
      await stops(['migrate'], { WEBHOOK_ALLOW_HTTP: 'yes' }),
      'error: WEBHOOK_ALLOW_HTTP must be true or false, got "yes".',
    );
    assert.equal(
      await stops(['migrate'], { WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1' }),
      'error: WEBHOOK_ALLOW_PRIVATE_NETWORKS must be true or false, got "1".',
    );
    assert.equal(
      await stops(['migrate'], { WEBHOOK_TIMEOUT_MS: '10s' }),
      'error: WEBHOOK_TIMEOUT_MS must be a whole number from 100 to 600000, got "10s".',
    );
    assert.equal(
      await stops(['migrate'], { SQLITE_WAL_LIMIT_MB: '0' }),
      'error: SQLITE_WAL_LIMIT_MB must be a whole number from 1 to 1048576, got "0".',
    );
  });

  test('KEPT_RESPONSES_PER_AGENCY: at least one kept response, whole numbers only', async () => {
    for (const value of ['0', '-5', '50k', '10000001'])
      assert.equal(
        await stops(['migrate'], { KEPT_RESPONSES_PER_AGENCY: value }),
        `error: KEPT_RESPONSES_PER_AGENCY must be a whole number from 1 to 10000000, got "${value}".`,
      );
  });

  test('METRICS_ALLOW: an entry that is not an address or a CIDR range stops the command, naming the entry', async () => {
    const listing = 'must list addresses or CIDR ranges separated by commas, such as 10.0.0.0/8,fd00::/8';
    for (const [value, entry] of [
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['192.168.1.0/24,fd00::/129', 'fd00::/129'],
      ['10.0.0.0/8, localhost', 'localhost'],
      ['10.0.0.256', '10.0.0.256'],
      ['10.0.0.0/8/8', '10.0.0.0/8/8'],
      ['10.0.0.0/', '10.0.0.0/'],
      ['fe80::1%eth0', 'fe80::1%eth0'],
      ['10.0.0.0/8,,::1', ''],
      ['10.0.0.0/-1', '10.0.0.0/-1'],
    ] as const) {
      assert.equal(
        await stops(['serve'], { METRICS_ALLOW: value, PORT: '0' }),
        `error: METRICS_ALLOW ${listing}; "${entry}" is neither.`,
      );
    }
    assert.equal(
      await stops(['migrate'], { METRICS_ALLOW: '2001:db8::/200' }),
      `error: METRICS_ALLOW ${listing}; "2001:db8::/200" is neither.`,
    );
  });

  test('METRICS_ALLOW and METRICS_TOKEN that are well formed are accepted, IPv4 and IPv6 alike', async () => {
    const result = await sandbox.run(['migrate'], {
      env: { METRICS_ALLOW: ' 10.0.0.0/8 , 192.0.2.7, ::1, fd00::/8, 2001:db8::1/128 ', METRICS_TOKEN: 'a'.repeat(32) },
    });
    assert.equal(result.code, 0, result.stderr);
  });

  test('METRICS_TOKEN too short or with spaces stops the command, and the message never repeats it', async () => {
    for (const value of ['short-secret', 'sixteen chars ok!', `x${'\t'}${'y'.repeat(20)}`]) {
      const line = await stops(['serve'], { METRICS_TOKEN: value, PORT: '0' });
      assert.equal(
        line,
        'error: METRICS_TOKEN must be 16 to 256 printable characters without spaces (e.g. openssl rand -hex 32); the value given is not.',
      );
      assert.equal(line.includes(value), false);
    }
  });

  test('every level README lists is accepted', async () => {
    for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) {
      const result = await sandbox.run(['migrate'], { env: { LOG_LEVEL: level } });
      assert.equal(result.code, 0, `LOG_LEVEL=${level}: ${result.stderr}`);
    }
  });
});

describe('a DATABASE_URL that cannot be used stops the command with one line naming it, the path and why', () => {
  test('an SQLite path that is a directory', async () => {
    const dir = path.join(sandbox.dir, 'a-folder');
    fs.mkdirSync(dir);
    for (const args of [['migrate'], ['orders', 'show', 'ORD-1'], ['serve']]) {
      assert.equal(
        await stops(args, { DATABASE_URL: `sqlite:${dir}`, PORT: '0' }),
        `error: DATABASE_URL "sqlite:${dir}" cannot be used: ${dir} is a directory, not a database file.`,
      );
    }
  });

  test('an empty SQLite path, which would otherwise mean the working directory', async () => {
    assert.equal(
      await stops(['migrate'], { DATABASE_URL: 'sqlite:' }),
      'error: DATABASE_URL must name a file after sqlite:, got "sqlite:".',
    );
  });

  test('an SQLite path that is a file but not a database, which is left as it was', async () => {
    const file = sandbox.write('notes.txt', 'these are not the orders you are looking for\n');
    assert.equal(
      await stops(['migrate'], { DATABASE_URL: 'sqlite:notes.txt' }),
      `error: DATABASE_URL "sqlite:notes.txt" cannot be used: ${file}: file is not a database.`,
    );
    assert.equal(fs.readFileSync(file, 'utf8'), 'these are not the orders you are looking for\n');
  });

  test('an SQLite path under a file, where no folder can be made', async () => {
    const file = sandbox.write('plain-file', '');
    const line = await stops(['migrate'], { DATABASE_URL: 'sqlite:plain-file/x.db' });
    assert.ok(line.startsWith(`error: DATABASE_URL "sqlite:plain-file/x.db" cannot be used: ${file}/x.db: E`), line);
  });

  test('a malformed PostgreSQL URL, without its password', async () => {
    for (const url of [
      'postgres://airorder:s3cret@db.internal:notaport/airorder',
      'postgresql://airorder:s3cret@db.internal:99999/airorder',
    ]) {
      const line = await stops(['migrate'], { DATABASE_URL: url });
      assert.equal(
        line,
        `error: DATABASE_URL "${url.replace(':s3cret@', ':***@')}" cannot be used: ` +
          'it is not a valid URL (the form is postgres://user:password@host:port/database).',
      );
      assert.ok(!line.includes('s3cret'), line);
    }
  });

  test('a URL of neither kind is shown without its password too', async () => {
    assert.equal(
      await stops(['migrate'], { DATABASE_URL: 'postgress://airorder:s3cret@db.internal/airorder' }),
      'error: DATABASE_URL must be sqlite:PATH or postgres://user:password@host:port/database, got "postgress://airorder:***@db.internal/airorder".',
    );
  });
});
