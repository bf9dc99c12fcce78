/**
 * The operator CLI run in this process (runCli of src/cli/main.ts, with the commands of
 * token-command.ts, webhook-command.ts and operator-command.ts) on the store this run is about:
 * the exact lines each command prints, each refusal's one line and exit code, and the parse errors
 * and help of commander, without starting a process per command. test/cli/* run the built program
 * as an operator does; this file pins the texts quickly.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { after, before, describe, mock, test } from 'node:test';
import type { Command } from 'commander';
import { buildCli, runCli } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { readRecords } from '../../src/documents/document-reader.js';
import { addAgency, issueToken } from '../../src/service/agency-admin.js';
import { migrateDown, migrateToLatest } from '../../src/store/migrator.js';
import { importOrders } from '../../src/service/order-import.js';
import { preparedHere } from '../../src/service/order-preparation.js';
import { openStore } from '../../src/store/open-store.js';
import { verifyPassword } from '../../src/console/password-hash.js';
import { importChanges } from '../../src/service/change-import.js';
import { order, segment, passenger, booking, change, simpleOrder } from '../helpers/documents.js';
import { setStoredBookingMember } from '../helpers/stored-records.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

let dir: string;
let database: TestDatabase;
before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-cli-in-process-'));
  database = await createTestDatabase(dir);
  // Node warns once that mock timers are experimental, on standard error a moment later: now, not
  // within a command whose standard error a test reads.
  mock.timers.enable({ apis: ['Date'] });
  mock.timers.reset();
  await new Promise((resolve) => setImmediate(resolve));
  await ok(['migrate']);
});
after(async () => {
  await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A stream that keeps what is written to it, for process.stdout or process.stderr. */
function sink(into: string[]): NodeJS.WriteStream {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      into.push(chunk.toString('utf8'));
      done();
    },
  });
  return Object.assign(stream, { isTTY: false }) as unknown as NodeJS.WriteStream;
}

/** Replaces process[name] (stdin, stdout, stderr) for the time of `work`. */
async function swapped<T>(
  replacements: Partial<Record<'stdin' | 'stdout' | 'stderr', unknown>>,
  work: () => Promise<T>,
) {
  const originals = Object.keys(replacements).map(
    (name) => [name, Object.getOwnPropertyDescriptor(process, name)!] as const,
  );
  for (const [name, value] of Object.entries(replacements))
    Object.defineProperty(process, name, { configurable: true, get: () => value });
  try {
    return await work();
  } finally {
    for (const [name, descriptor] of originals) Object.defineProperty(process, name, descriptor);
  }
}

/** `airorder --database-url URL ARGS…` as runCli runs it, with `stdin` on standard input; `tty`: standard error is a terminal. */
async function airorder(args: string[], stdin = '', { url = database.url, tty = false } = {}): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const exitCodeBefore = process.exitCode;
  process.exitCode = undefined;
  const errors = Object.assign(sink(stderr), { isTTY: tty });
  try {
    await swapped({ stdout: sink(stdout), stderr: errors, stdin: Readable.from([Buffer.from(stdin)]) }, () =>
      runCli(['node', 'airorder', '--database-url', url, ...args]),
    );
    return { code: Number(process.exitCode ?? 0), stdout: stdout.join(''), stderr: stderr.join('') };
  } finally {
    process.exitCode = exitCodeBefore;
  }
}

/** A run that must succeed: its standard output. */
async function ok(args: string[], stdin = ''): Promise<string> {
  const run = await airorder(args, stdin);
  assert.equal(run.code, 0, run.stderr);
  return run.stdout;
}

/** A run that must fail with one line on standard error: that line. */
async function refused(args: string[], stdin = ''): Promise<string> {
  const run = await airorder(args, stdin);
  assert.equal(run.code, 1, `expected a failure of ${args.join(' ')}; stdout: ${run.stdout}`);
  assert.equal(run.stdout, '');
  return run.stderr;
}

/** Every command of `program`, its own included. */
function allCommands(program: Command): Command[] {
  return [program, ...program.commands.flatMap(allCommands)];
}

/** Parses ARGS with commander only (no command's action runs): what it would print and the error it would exit with (no process exit). */
async function parseOnly(args: string[]): Promise<{ error: string; out: string; code: number; exitCode: string }> {
  const program = buildCli();
  let out = '';
  let error = '';
  for (const command of allCommands(program)) {
    command.exitOverride().configureOutput({ writeOut: (text) => (out += text), writeErr: (text) => (error += text) });
    // Nothing is run: arguments taken that should have been refused end the test at once, not after a demo of 10,000,000 orders.
    if (command.commands.length === 0) command.action(() => {});
  }
  try {
    await program.parseAsync(['node', 'airorder', ...args]);
  } catch (thrown) {
    const commanderError = thrown as { exitCode: number; code: string };
    return { error, out, code: commanderError.exitCode, exitCode: commanderError.code };
  }
  return { error, out, code: 0, exitCode: '' };
}

describe('migrate', () => {
  test('nothing left to apply: said so; with --json, an empty list', async () => {
    assert.equal(await ok(['migrate']), 'nothing to do\n');
    assert.equal(await ok(['--json', 'migrate']), '{\n  "applied": []\n}\n');
  });

  test('--rollback names the migration it rolled back; migrating again applies it again', async () => {
    const rolledBack = await ok(['migrate', '--rollback']);
    assert.match(rolledBack, /^Down \d{3}-[a-z0-9-]+\n$/);
    const name = rolledBack.slice('Down '.length, -1);
    assert.equal(await ok(['migrate']), `Up ${name}\n`);
    assert.deepEqual(JSON.parse(await ok(['--json', 'migrate', '--rollback'])), { applied: [`Down ${name}`] });
    assert.deepEqual(JSON.parse(await ok(['--json', 'migrate'])), { applied: [`Up ${name}`] });
    const before = (await ok(['migrate', '--rollback'])).slice('Down '.length, -1);
    await ok(['migrate', '--rollback']);
    assert.match(await ok(['migrate']), new RegExp(`^Up \\d{3}-[a-z0-9-]+\\nUp ${before}\\n$`));
  });

  test("an upgrade that copies orders: the bar on a terminal, ended before migrate's own lines", async (t) => {
    const former = await createTestDatabase(fs.mkdtempSync(path.join(dir, 'former-')));
    t.after(() => former.drop());
    await withDatabase(async (store) => {
      await migrateToLatest(store);
      const now = () => '2026-11-27T08:00:00.000Z';
      await addAgency(store, now, { agencyId: 'AG1', name: 'One', iataNumber: null, email: null });
      const orders = readRecords(JSON.stringify([simpleOrder('ORD-1', 'AG1', 'REF001')]));
      await importOrders(store, now, preparedHere(orders, now()), false);
      while (!(await migrateDown(store)).some((name) => name.includes('011'))) {
        // down to the schema before orders were kept as records, one migration at a time
      }
    }, former.url);
    const run = await airorder(['migrate'], '', { url: former.url, tty: true });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(
      run.stderr.endsWith(`[${'#'.repeat(24)}] 100% upgrade: orders copied into records: 1 of 1, ETA 0s\u001b[K\n`),
      JSON.stringify(run.stderr),
    );
    assert.match(run.stdout, /^Up 011-/);
  });
});

describe('agency add', () => {
  test('adds an agency and says so; with --json, as an object', async () => {
    assert.equal(await ok(['agency', 'add', '--agency-id', 'CLI1', '--name', 'One']), 'agency CLI1 added\n');
    assert.equal(
      await ok([
        '--json',
        'agency',
        'add',
        '--agency-id',
        'CLI2',
        '--name',
        'Two',
        '--iata',
        '1234567',
        '--email',
        'ops.desk@agency-two.example',
      ]),
      '{\n  "agencyId": "CLI2",\n  "added": true\n}\n',
    );
    const store = openStore(loadConfig({}, { DATABASE_URL: database.url }));
    try {
      const one = await store.read.findAgency('CLI1');
      const two = await store.read.findAgency('CLI2');
      assert.deepEqual([one?.name, one?.iataNumber, one?.email], ['One', null, null]);
      assert.deepEqual([two?.name, two?.iataNumber, two?.email], ['Two', '1234567', 'ops.desk@agency-two.example']);
      await ok(['agency', 'add', '--agency-id', 'CLI3', '--name', 'Three', '--email', 'a@b.cd']);
    } finally {
      await store.close();
    }
  });

  test('an agency id of 1 and of 64 characters; an agency that exists already is refused', async () => {
    await ok(['agency', 'add', '--agency-id', 'X', '--name', 'n']);
    await ok(['agency', 'add', '--agency-id', `Y${' '.repeat(62)}Y`, '--name', 'n']);
    assert.equal(
      await refused(['agency', 'add', '--agency-id', 'X', '--name', 'n']),
      'error: Agency X exists already.\n',
    );
  });

  test('the bounds of each field, each refused with its own line', async () => {
    const id = 'error: --agency-id must be 1 to 64 characters without surrounding spaces.\n';
    for (const agencyId of ['', ' A', 'A ', 'Z'.repeat(65)])
      assert.equal(
        await refused(['agency', 'add', '--agency-id', agencyId, '--name', 'n']),
        id,
        JSON.stringify(agencyId),
      );
    const name = 'error: --name must be 1 to 200 characters.\n';
    assert.equal(await refused(['agency', 'add', '--agency-id', 'N1', '--name', '']), name);
    assert.equal(await refused(['agency', 'add', '--agency-id', 'N1', '--name', 'n'.repeat(201)]), name);
    await ok(['agency', 'add', '--agency-id', 'N1', '--name', 'n'.repeat(200)]);
    const iata = 'error: --iata must be 7 or 8 digits.\n';
    for (const number of ['123456', '123456789', '1234567a', 'a1234567', ''])
      assert.equal(
        await refused(['agency', 'add', '--agency-id', 'I1', '--name', 'n', '--iata', number]),
        iata,
        number,
      );
    await ok(['agency', 'add', '--agency-id', 'I8', '--name', 'n', '--iata', '12345678']);
    const email = 'error: --email must be an e-mail address.\n';
    for (const address of ['a@b', 'a b@c.d', '@b.cd', 'a@.cd', 'a@b.', 'ab.cd', 'x a@b.cd', 'a@b.cd x'])
      assert.equal(
        await refused(['agency', 'add', '--agency-id', 'E1', '--name', 'n', '--email', address]),
        email,
        address,
      );
  });
});

const HELP: [string[], string][] = [
  [
    [],
    "Usage: airorder [options] [command] Air order servicing: the agency API and the operator's tools. Options: --database-url <url> sqlite:PATH or postgres://user:password@host:port/database (env: DATABASE_URL) --json print results as JSON (commands that print JSON anyway are unchanged) --verbose on an unexpected failure, print where it happened (the stack trace) as well -h, --help display help for command Commands: serve [options] run the service (applies pending migrations first) migrate [options] apply pending migrations agency manage agencies token manage access tokens orders load and inspect orders changes record airline-initiated changes audit [options] print the audit trail of an order: every state change, who made it, when, and what was refunded webhook signed webhook endpoints of agencies, and their deliveries (docs/webhooks.md) operator manage the operators who sign in to the console demo [options] create a demo agency, a token and realistic orders; prints a JSON summary with the token help [command] display help for command",
  ],
  [
    ['serve'],
    'Usage: airorder serve [options] run the service (applies pending migrations first) Options: --port <port> port to listen on (default 8080) (env: PORT) --host <host> address to listen on (default 127.0.0.1) (env: HOST) --workers <n> processes sharing the port: a number, or auto for one per core (default 1) (env: WORKERS) --demo [orders] load demo data first (default 50 orders) and print a token with ready-to-paste curl calls -h, --help display help for command',
  ],
  [
    ['migrate'],
    'Usage: airorder migrate [options] apply pending migrations Options: --rollback roll back the most recent migration instead -h, --help display help for command',
  ],
  [
    ['agency'],
    'Usage: airorder agency [options] [command] manage agencies Options: -h, --help display help for command Commands: add [options] register an agency help [command] display help for command',
  ],
  [
    ['agency', 'add'],
    "Usage: airorder agency add [options] register an agency Options: --agency-id <id> the agency identifier, 1 to 64 characters --name <name> the agency's name --iata <number> IATA number, 7 or 8 digits --email <address> contact e-mail address -h, --help display help for command",
  ],
  [
    ['token'],
    "Usage: airorder token [options] [command] manage access tokens Options: -h, --help display help for command Commands: issue [options] issue a token for an agency; prints the token alone on stdout (it is shown only once) list [options] list an agency's tokens, oldest first: id, status, creation, expiry, last use (to within 5 minutes) and revocation; never a secret revoke [options] [tokenId] revoke a token at once, named by its id (tok_…), or by the token itself read from standard input with --token-stdin help [command] display help for command",
  ],
  [
    ['token', 'issue'],
    'Usage: airorder token issue [options] issue a token for an agency; prints the token alone on stdout (it is shown only once) Options: --agency-id <id> the agency the token acts for --expires-in <duration> lifetime such as 30s, 15m, 12h or 90d (default: no expiry) -h, --help display help for command',
  ],
  [
    ['token', 'list'],
    "Usage: airorder token list [options] list an agency's tokens, oldest first: id, status, creation, expiry, last use (to within 5 minutes) and revocation; never a secret Options: --agency-id <id> the agency whose tokens to list -h, --help display help for command",
  ],
  [
    ['token', 'revoke'],
    "Usage: airorder token revoke [options] [tokenId] revoke a token at once, named by its id (tok_…), or by the token itself read from standard input with --token-stdin Arguments: tokenId the token's id, as token issue --json and token list print it Options: --token-stdin read the token itself from standard input rather than naming its id -h, --help display help for command",
  ],
  [
    ['orders'],
    'Usage: airorder orders [options] [command] load and inspect orders Options: -h, --help display help for command Commands: import [options] <file> import order documents: a JSON array, one object, or NDJSON; all or nothing show <orderId> print an order as JSON with its current statuses, airline changes and refunds help [command] display help for command',
  ],
  [
    ['orders', 'import'],
    'Usage: airorder orders import [options] <file> import order documents: a JSON array, one object, or NDJSON; all or nothing Arguments: file a file, or - for standard input Options: --upsert replace orders whose orderId exists already -h, --help display help for command',
  ],
  [
    ['orders', 'show'],
    'Usage: airorder orders show [options] <orderId> print an order as JSON with its current statuses, airline changes and refunds Arguments: orderId the order identifier Options: -h, --help display help for command',
  ],
  [
    ['changes'],
    'Usage: airorder changes [options] [command] record airline-initiated changes Options: -h, --help display help for command Commands: import <file> import airline-change documents: a JSON array, one object, or NDJSON; all or nothing help [command] display help for command',
  ],
  [
    ['changes', 'import'],
    'Usage: airorder changes import [options] <file> import airline-change documents: a JSON array, one object, or NDJSON; all or nothing Arguments: file a file, or - for standard input Options: -h, --help display help for command',
  ],
  [
    ['audit'],
    'Usage: airorder audit [options] print the audit trail of an order: every state change, who made it, when, and what was refunded Options: --order <orderId> the order identifier -h, --help display help for command',
  ],
  [
    ['webhook'],
    'Usage: airorder webhook [options] [command] signed webhook endpoints of agencies, and their deliveries (docs/webhooks.md) Options: -h, --help display help for command Commands: add [options] register an endpoint; prints its signing secret, shown only this once list [options] list endpoints enable <id> send deliveries to the endpoint again (those due wait for it) disable <id> stop sending deliveries to the endpoint; they wait for it remove <id> remove the endpoint and its deliveries rotate-secret <id> issue a new signing secret; the old one keeps signing beside it for 24 hours deliveries [options] list deliveries, newest first redeliver [options] <eventId> queue an event again, due now: for one endpoint, or every enabled endpoint of its agency that subscribes to it test <id> send a ping event to the endpoint now and print what the receiver answered help [command] display help for command',
  ],
  [
    ['webhook', 'add'],
    'Usage: airorder webhook add [options] register an endpoint; prints its signing secret, shown only this once Options: --agency-id <id> the agency whose events it receives --url <url> an https URL on a public address (a host that does not resolve yet is accepted with a warning) --events <types> event types separated by commas (default: all) -h, --help display help for command',
  ],
  [
    ['webhook', 'list'],
    "Usage: airorder webhook list [options] list endpoints Options: --agency-id <id> only this agency's -h, --help display help for command",
  ],
  [
    ['webhook', 'enable'],
    'Usage: airorder webhook enable [options] <id> send deliveries to the endpoint again (those due wait for it) Arguments: id the endpoint id Options: -h, --help display help for command',
  ],
  [
    ['webhook', 'disable'],
    'Usage: airorder webhook disable [options] <id> stop sending deliveries to the endpoint; they wait for it Arguments: id the endpoint id Options: -h, --help display help for command',
  ],
  [
    ['webhook', 'remove'],
    'Usage: airorder webhook remove [options] <id> remove the endpoint and its deliveries Arguments: id the endpoint id Options: -h, --help display help for command',
  ],
  [
    ['webhook', 'rotate-secret'],
    'Usage: airorder webhook rotate-secret [options] <id> issue a new signing secret; the old one keeps signing beside it for 24 hours Arguments: id the endpoint id Options: -h, --help display help for command',
  ],
  [
    ['webhook', 'deliveries'],
    "Usage: airorder webhook deliveries [options] list deliveries, newest first Options: --agency-id <id> only this agency's --endpoint <id> only this endpoint's --failed only those that failed for good --limit <n> at most this many (default 100) -h, --help display help for command",
  ],
  [
    ['webhook', 'redeliver'],
    "Usage: airorder webhook redeliver [options] <eventId> queue an event again, due now: for one endpoint, or every enabled endpoint of its agency that subscribes to it Arguments: eventId the event id (evt_…) Options: --endpoint <id> only this endpoint (of the event's agency) -h, --help display help for command",
  ],
  [
    ['webhook', 'test'],
    'Usage: airorder webhook test [options] <id> send a ping event to the endpoint now and print what the receiver answered Arguments: id the endpoint id Options: -h, --help display help for command',
  ],
  [
    ['operator'],
    "Usage: airorder operator [options] [command] manage the operators who sign in to the console Options: -h, --help display help for command Commands: add [options] create an operator; the password (at least 12 characters) is read from standard input list list operators: email, name, and whether they are disabled actions [options] print what operators did in the console, newest first: sign-in and sign-out, agencies, tokens, redeliveries, imports, actions on orders disable <email> disable an operator: their sessions end and they can no longer sign in password [options] <email> set an operator's password, read from standard input; their sessions end help [command] display help for command",
  ],
  [
    ['operator', 'add'],
    "Usage: airorder operator add [options] create an operator; the password (at least 12 characters) is read from standard input Options: --email <address> the e-mail address the operator signs in with --name <name> the operator's name --password-stdin read the password from standard input -h, --help display help for command",
  ],
  [
    ['operator', 'list'],
    'Usage: airorder operator list [options] list operators: email, name, and whether they are disabled Options: -h, --help display help for command',
  ],
  [
    ['operator', 'actions'],
    'Usage: airorder operator actions [options] print what operators did in the console, newest first: sign-in and sign-out, agencies, tokens, redeliveries, imports, actions on orders Options: --email <address> only this operator\'s actions --limit <n> at most this many (1 to 10000) (default: "100") -h, --help display help for command',
  ],
  [
    ['operator', 'disable'],
    "Usage: airorder operator disable [options] <email> disable an operator: their sessions end and they can no longer sign in Arguments: email the operator's e-mail address Options: -h, --help display help for command",
  ],
  [
    ['operator', 'password'],
    "Usage: airorder operator password [options] <email> set an operator's password, read from standard input; their sessions end Arguments: email the operator's e-mail address Options: --password-stdin read the password from standard input -h, --help display help for command",
  ],
  [
    ['demo'],
    'Usage: airorder demo [options] create a demo agency, a token and realistic orders; prints a JSON summary with the token Options: --orders <n> how many orders (default: 50) -h, --help display help for command',
  ],
];

/** The options commander hands to the command ARGS name (its action replaced), or the error it exits with. */
async function optionsOf(args: string[]): Promise<Record<string, unknown> | string> {
  const program = buildCli();
  let seen: Record<string, unknown> = {};
  let error = '';
  for (const command of allCommands(program)) {
    command.exitOverride().configureOutput({ writeErr: (text) => (error += text) });
    if (command.commands.length === 0)
      command.action((...received: unknown[]) => {
        seen = (received.at(-1) as Command).opts();
      });
  }
  try {
    await program.parseAsync(['node', 'airorder', ...args]);
  } catch {
    return error;
  }
  return seen;
}

describe("commander's parsing", () => {
  test('the help of every command, word for word', () => {
    const program = buildCli();
    assert.equal(program.name(), 'airorder');
    const byPath = new Map(
      allCommands(program).map((command) => {
        const path: string[] = [];
        for (let at: Command | null = command; at?.parent; at = at.parent) path.unshift(at.name());
        return [path.join(' '), command.helpInformation().replace(/\s+/g, ' ').trim()] as const;
      }),
    );
    assert.deepEqual(
      [...byPath.keys()],
      HELP.map(([path]) => path.join(' ')),
    );
    for (const [path, text] of HELP) assert.equal(byPath.get(path.join(' ')), text, path.join(' '));
  });

  test('serve: --demo with or without a count, --workers as a number or auto, each also from the environment', async () => {
    assert.deepEqual(await optionsOf(['serve']), {});
    assert.deepEqual(await optionsOf(['serve', '--demo']), { demo: true });
    assert.deepEqual(await optionsOf(['serve', '--demo', '12']), { demo: 12 });
    assert.deepEqual(await optionsOf(['serve', '--demo', '9999999']), { demo: 9_999_999 });
    assert.deepEqual(await optionsOf(['serve', '--workers', '3', '--port', '9000', '--host', '::1']), {
      workers: 3,
      port: '9000',
      host: '::1',
    });
    assert.deepEqual(await optionsOf(['serve', '--workers', '999']), { workers: 999 });
    assert.deepEqual(await optionsOf(['serve', '--workers', 'auto']), { workers: os.availableParallelism() });
    await withEnv({ WORKERS: '4', PORT: '9001', HOST: '0.0.0.0' }, async () =>
      assert.deepEqual(await optionsOf(['serve']), { workers: 4, port: '9001', host: '0.0.0.0' }),
    );
    await withEnv({ WORKERS: '1000' }, async () =>
      assert.equal(
        await optionsOf(['serve']),
        "error: option '--workers <n>' value '1000' from env 'WORKERS' is invalid. must be a number from 1 to 999, or auto.\n(run airorder --help for usage)\n",
      ),
    );
  });

  test('demo --orders, token issue --expires-in, webhook deliveries --limit: parsed into numbers', async () => {
    assert.deepEqual(await optionsOf(['demo']), { orders: 50 });
    assert.deepEqual(await optionsOf(['demo', '--orders', '1']), { orders: 1 });
    assert.deepEqual(await optionsOf(['demo', '--orders', '12']), { orders: 12 });
    assert.deepEqual(await optionsOf(['token', 'issue', '--agency-id', 'A', '--expires-in', '90d']), {
      agencyId: 'A',
      expiresIn: 90 * 86_400_000,
    });
    assert.deepEqual(await optionsOf(['webhook', 'deliveries', '--limit', '99999', '--failed']), {
      limit: 99_999,
      failed: true,
    });
    assert.deepEqual(await optionsOf(['operator', 'actions']), { limit: '100' });
  });

  test("serve's own --port goes to the configuration with the rest, before anything starts", async () => {
    // PORT in the environment is refused too, so that a --port left out would be named in the error.
    await withEnv({ PORT: 'eighty' }, async () => {
      const line = await refused(['serve', '--port', '70000']);
      assert.match(line, /^error: PORT must be .*70000/);
      assert.doesNotMatch(line, /eighty/);
    });
  });

  test('a bad --workers, --demo or --orders: the option, the value and what it must be, then where help is', async () => {
    const hint = '(run airorder --help for usage)\n';
    const workers = "error: option '--workers <n>' argument '0' is invalid. must be a number from 1 to 999, or auto.\n";
    assert.deepEqual(await parseOnly(['serve', '--workers', '0']), {
      error: workers + hint,
      out: '',
      code: 1,
      exitCode: 'commander.invalidArgument',
    });
    for (const [args, option, value] of [
      [['serve', '--demo', '0'], '--demo [orders]', '0'],
      [['demo', '--orders', '10000000'], '--orders <n>', '10000000'],
      [['demo', '--orders', '01'], '--orders <n>', '01'],
      [['demo', '--orders', '1.5'], '--orders <n>', '1.5'],
    ] as const)
      assert.equal(
        (await parseOnly([...args])).error,
        `error: option '${option}' argument '${value}' is invalid. must be a whole number from 1 to 9999999.\n${hint}`,
      );
    assert.equal(
      (await parseOnly(['token', 'issue', '--agency-id', 'A', '--expires-in', 'soon'])).error,
      `error: option '--expires-in <duration>' argument 'soon' is invalid. must be a number and a unit, such as 30s, 15m, 12h or 90d.\n${hint}`,
    );
  });

  test('a missing required option or argument, and an unknown command, are commander errors with the hint', async () => {
    for (const [args, message] of [
      [['agency', 'add', '--name', 'n'], "error: required option '--agency-id <id>' not specified"],
      [['audit'], "error: required option '--order <orderId>' not specified"],
      [['orders', 'show'], "error: missing required argument 'orderId'"],
      [['token', 'list'], "error: required option '--agency-id <id>' not specified"],
      [['operator', 'add', '--email', 'a@b.cd'], "error: required option '--name <name>' not specified"],
      [['webhook', 'add', '--agency-id', 'A'], "error: required option '--url <url>' not specified"],
    ] as const) {
      const parsed = await parseOnly([...args]);
      assert.equal(parsed.error, `${message}\n(run airorder --help for usage)\n`, args.join(' '));
      assert.equal(parsed.code, 1);
    }
  });

  test('the help lists every command and the global options', async () => {
    // Commander wraps the descriptions at the terminal's width: compared with the spaces collapsed.
    const helpOf = async (args: string[]) => (await parseOnly(args)).out.replace(/\s+/g, ' ');
    const help = await parseOnly(['--help']);
    assert.equal(help.exitCode, 'commander.helpDisplayed');
    assert.equal(help.code, 0);
    const main = await helpOf(['--help']);
    for (const line of [
      "Usage: airorder [options] [command] Air order servicing: the agency API and the operator's tools. Options:",
      '--database-url <url> sqlite:PATH or postgres://user:password@host:port/database (env: DATABASE_URL)',
      '--json print results as JSON (commands that print JSON anyway are unchanged)',
      '--verbose on an unexpected failure, print where it happened (the stack trace) as well',
      'serve [options] run the service (applies pending migrations first)',
      'migrate [options] apply pending migrations',
      'agency manage agencies',
      'token manage access tokens',
      'orders load and inspect orders',
      'changes record airline-initiated changes',
      'audit [options] print the audit trail of an order: every state change, who made it, when, and what was refunded',
      'webhook signed webhook endpoints of agencies, and their deliveries (docs/webhooks.md)',
      'operator manage the operators who sign in to the console',
      'demo [options] create a demo agency, a token and realistic orders; prints a JSON summary with the token',
    ])
      assert.ok(main.includes(line), line);
    const serve = await helpOf(['serve', '--help']);
    for (const line of [
      '--port <port> port to listen on (default 8080) (env: PORT)',
      '--host <host> address to listen on (default 127.0.0.1) (env: HOST)',
      '--workers <n> processes sharing the port: a number, or auto for one per core (default 1) (env: WORKERS)',
      '--demo [orders] load demo data first (default 50 orders) and print a token with ready-to-paste curl calls',
    ])
      assert.ok(serve.includes(line), line);
    for (const [args, line] of [
      [['demo', '--help'], '--orders <n> how many orders (default: 50)'],
      [['migrate', '--help'], '--rollback roll back the most recent migration instead'],
      [['orders', 'import', '--help'], '--upsert replace orders whose orderId exists already'],
      [['orders', 'import', '--help'], 'import order documents: a JSON array, one object, or NDJSON; all or nothing'],
      [['orders', 'show', '--help'], 'print an order as JSON with its current statuses, airline changes and refunds'],
      [
        ['changes', 'import', '--help'],
        'import airline-change documents: a JSON array, one object, or NDJSON; all or nothing',
      ],
      [['agency', 'add', '--help'], '--agency-id <id> the agency identifier, 1 to 64 characters'],
      [['agency', 'add', '--help'], '--iata <number> IATA number, 7 or 8 digits'],
    ] as const)
      assert.ok((await helpOf([...args])).includes(line), line);
  });
});

describe('orders, changes, audit', () => {
  const file = (name: string, value: unknown) => {
    const where = path.join(dir, name);
    fs.writeFileSync(where, JSON.stringify(value));
    return where;
  };
  const first = order('CLI-ORD-1', 'ORDAG', 'EUR', [
    booking(
      'CLIREF',
      [segment('S1')],
      [
        passenger('P1', {
          ticketNumber: '2201234567890',
          baseFare: '450.00',
          taxes: '120.50',
          coupons: [{ segmentId: 'S1', status: 'OPEN', value: '570.50' }],
        }),
      ],
    ),
  ]);

  before(async () => {
    await ok(['agency', 'add', '--agency-id', 'ORDAG', '--name', 'Orders']);
    // Through the service: `orders import` prepares the orders on a worker thread, which loads the
    // built program (dist/), not the sources this process runs; test/cli/orders-import.test.ts runs it.
    const store = openStore(loadConfig({}, { DATABASE_URL: database.url }));
    try {
      await importOrders(
        store,
        () => new Date().toISOString(),
        preparedHere(readRecords(JSON.stringify([first])), new Date().toISOString()),
        false,
      );
    } finally {
      await store.close();
    }
  });

  test('orders show prints the order as its view; an unknown one is refused', async () => {
    const shown = JSON.parse(await ok(['orders', 'show', 'CLI-ORD-1']));
    assert.equal(shown.orderId, 'CLI-ORD-1');
    assert.equal(shown.agencyId, 'ORDAG');
    assert.equal(await refused(['orders', 'show', 'NO-SUCH']), 'error: No order NO-SUCH.\n');
  });

  test('changes import prints what it recorded; the audit trail shows the import', async () => {
    const recorded = JSON.parse(
      await ok([
        'changes',
        'import',
        file('changes.json', [change('CLI-CHG-1', 'CLI-ORD-1', 'CLIREF', ['S1'], [segment('S2', 2)])]),
      ]),
    );
    assert.equal(recorded.imported, 1);
    const trail = JSON.parse(await ok(['audit', '--order', 'CLI-ORD-1']));
    assert.ok(Array.isArray(trail) && trail.length >= 2, JSON.stringify(trail));
    assert.equal(await refused(['audit', '--order', 'NO-SUCH']), 'error: No audit events for order NO-SUCH.\n');
  });

  test('changes import from standard input', async () => {
    const recorded = JSON.parse(
      await ok(
        ['changes', 'import', '-'],
        JSON.stringify(change('CLI-CHG-2', 'CLI-ORD-1', 'CLIREF', ['S2'], [segment('S3', 3)])),
      ),
    );
    assert.equal(recorded.imported, 1);
  });

  test('changes import on a terminal: the bar of the bytes read, then the line ended', async () => {
    const changes = [change('CLI-CHG-3', 'CLI-ORD-1', 'CLIREF', ['S3'], [segment('S4', 4)])];
    const run = await airorder(['changes', 'import', file('changes-tty.json', changes)], '', { tty: true });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /\r\[#{24}\] 100% changes: 1 \(\d+\/s\), ETA 0s[^\n]*\n$/);
    assert.ok(run.stderr.endsWith('ETA 0s\u001b[K\n'), JSON.stringify(run.stderr));
    const fromStdin = await airorder(['changes', 'import', '-'], JSON.stringify([]), { tty: true });
    assert.equal(fromStdin.code, 0, fromStdin.stderr);
    assert.doesNotMatch(fromStdin.stderr, /%/);
  });

  test('a file that is not there: the system says which, in one line', async () => {
    const missing = path.join(dir, 'missing.json');
    assert.equal(
      await refused(['orders', 'import', missing]),
      `error: ENOENT: no such file or directory, stat '${missing}'\n`,
    );
    assert.match(
      await refused(['changes', 'import', missing]),
      /^error: ENOENT: no such file or directory, stat '.*missing\.json'\n$/,
    );
  });

  test('a bad record: the document error, in one line', async () => {
    const bad = await refused(['changes', 'import', file('bad.json', [{ changeId: 'X' }])]);
    assert.match(bad, /^error: [^\n]+\n$/);
    assert.doesNotMatch(bad, /unexpected/);
  });
});

describe('runCli', () => {
  test('a bad DATABASE_URL is a configuration error, in one line', async () => {
    const stderr: string[] = [];
    const before = process.exitCode;
    try {
      await swapped({ stderr: sink(stderr), stdout: sink([]) }, () =>
        runCli(['node', 'airorder', '--database-url', 'mysql://x', 'orders', 'show', 'X']),
      );
      assert.equal(process.exitCode, 1);
    } finally {
      process.exitCode = before;
    }
    assert.equal(
      stderr.join(''),
      'error: DATABASE_URL must be sqlite:PATH or postgres://user:password@host:port/database, got "mysql://x".\n',
    );
  });
});

describe('demo', () => {
  test('prints the summary: the demo agency, a token, the orders and the examples', async () => {
    const summary = JSON.parse(await ok(['demo', '--orders', '2']));
    assert.equal(summary.agencyId, 'DEMO01');
    assert.match(summary.token, /^aot_/);
    assert.equal(summary.orders, 2);
    assert.equal(summary.pendingChanges, 2);
  });
});

describe('token', () => {
  before(async () => {
    await ok(['agency', 'add', '--agency-id', 'TOKAG', '--name', 'Tokens']);
  });

  test('issue prints the token alone; --json the token, its id and expiry', async () => {
    assert.match(await ok(['token', 'issue', '--agency-id', 'TOKAG']), /^aot_[A-Za-z0-9_-]{20,}\n$/);
    const issued = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'TOKAG', '--expires-in', '90d']));
    assert.deepEqual(Object.keys(issued).sort(), ['expiresAt', 'token', 'tokenId']);
    assert.match(issued.tokenId, /^tok_[0-9a-f]{16}$/);
    const lifetime = Date.parse(issued.expiresAt) - Date.now();
    assert.ok(lifetime > 89 * 86_400_000 && lifetime <= 90 * 86_400_000, issued.expiresAt);
    assert.equal(
      await refused(['token', 'issue', '--agency-id', 'NOAG']),
      'error: No agency NOAG; create it first with: airorder agency add --agency-id NOAG --name NAME\n',
    );
  });

  test('list: a header and a line per token, oldest first, with its status; --json the same fields', async () => {
    await ok(['agency', 'add', '--agency-id', 'LISTAG', '--name', 'Listed']);
    const store = openStore(loadConfig({}, { DATABASE_URL: database.url }));
    let expired: string;
    let active: string;
    let lasting: string;
    const LASTING_MS = 100 * 365 * 86_400_000;
    const lastingUntil = new Date(Date.parse('2020-01-03T00:00:00.000Z') + LASTING_MS).toISOString();
    try {
      const past = () => '2020-01-01T00:00:00.000Z';
      expired = (await issueToken(store, past, 'LISTAG', 60_000)).tokenId;
      active = (await issueToken(store, () => '2020-01-02T00:00:00.000Z', 'LISTAG', null)).tokenId;
      // Expires in a hundred years: active until then.
      lasting = (await issueToken(store, () => '2020-01-03T00:00:00.000Z', 'LISTAG', LASTING_MS)).tokenId;
    } finally {
      await store.close();
    }
    const revoked = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'LISTAG'])).tokenId;
    assert.equal(await ok(['token', 'revoke', revoked]), `token ${revoked} revoked\n`);

    const lines = (await ok(['token', 'list', '--agency-id', 'LISTAG'])).split('\n');
    assert.equal(lines[0], 'TOKEN ID\tSTATUS\tCREATED\tEXPIRES\tLAST USED\tREVOKED');
    assert.equal(lines[1], `${expired}\texpired\t2020-01-01T00:00:00.000Z\t2020-01-01T00:01:00.000Z\tnever\t-`);
    assert.equal(lines[2], `${active}\tactive\t2020-01-02T00:00:00.000Z\tnever\tnever\t-`);
    assert.equal(lines[3], `${lasting}\tactive\t2020-01-03T00:00:00.000Z\t${lastingUntil}\tnever\t-`);
    assert.match(lines[4]!, new RegExp(`^${revoked}\\trevoked\\t\\S+Z\\tnever\\tnever\\t\\S+Z$`));
    assert.deepEqual(lines.slice(5), ['']);

    const json = JSON.parse(await ok(['--json', 'token', 'list', '--agency-id', 'LISTAG']));
    assert.deepEqual(json[0], {
      tokenId: expired,
      status: 'expired',
      createdAt: '2020-01-01T00:00:00.000Z',
      expiresAt: '2020-01-01T00:01:00.000Z',
      lastUsedAt: null,
      revokedAt: null,
    });
    assert.deepEqual(json[1].status, 'active');
    assert.deepEqual([json[2].tokenId, json[2].status], [lasting, 'active']);
    assert.deepEqual([json[3].tokenId, json[3].status, json.length], [revoked, 'revoked', 4]);
    assert.match(json[3].revokedAt, /Z$/);
    assert.equal(await refused(['token', 'list', '--agency-id', 'NOBODY']), 'error: No agency NOBODY.\n');
    await ok(['agency', 'add', '--agency-id', 'NOTOKENS', '--name', 'n']);
    assert.equal(
      await ok(['token', 'list', '--agency-id', 'NOTOKENS']),
      'TOKEN ID\tSTATUS\tCREATED\tEXPIRES\tLAST USED\tREVOKED\n',
    );
    assert.equal(await ok(['--json', 'token', 'list', '--agency-id', 'NOTOKENS']), '[]\n');
  });

  test('revoke by the token itself, as an argument or on standard input; --json says when', async () => {
    const byArgument = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'TOKAG']));
    assert.equal(await ok(['token', 'revoke', byArgument.token]), `token ${byArgument.tokenId} revoked\n`);
    const byStdin = JSON.parse(await ok(['--json', 'token', 'issue', '--agency-id', 'TOKAG']));
    const answer = JSON.parse(await ok(['--json', 'token', 'revoke', '--token-stdin'], `  ${byStdin.token}\n`));
    assert.deepEqual(Object.keys(answer), ['tokenId', 'revoked', 'revokedAt']);
    assert.equal(answer.tokenId, byStdin.tokenId);
    assert.equal(answer.revoked, true);
    assert.match(answer.revokedAt, /^\d{4}-\d\d-\d\dT.*Z$/);
  });

  test('a token is expired from the instant its expiry comes, not a millisecond later', async (t) => {
    await ok(['agency', 'add', '--agency-id', 'EDGEAG', '--name', 'Edge']);
    const issuedAt = '2026-11-27T08:00:00.000Z';
    await withDatabase((store) => issueToken(store, () => issuedAt, 'EDGEAG', 60_000));
    const status = async () => (await ok(['token', 'list', '--agency-id', 'EDGEAG'])).split('\n')[1]!.split('\t')[1];
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse(issuedAt) + 60_000 - 1 });
    assert.equal(await status(), 'active');
    t.mock.timers.tick(1);
    assert.equal(await status(), 'expired');
  });

  test('revoke: only tok_ and 16 hexadecimal digits is an id; anything else is taken for the token itself', async () => {
    assert.equal(await refused(['token', 'revoke', 'tok_0123456789abcdef']), 'error: No token tok_0123456789abcdef.\n');
    for (const notAnId of [
      'xtok_0123456789abcdef',
      'tok_0123456789abcdef0',
      'tok_0123456789abcde',
      'tok_0123456789ABCDEF',
    ])
      assert.equal(await refused(['token', 'revoke', notAnId]), 'error: No such token.\n', notAnId);
  });

  test('revoke refuses no token, two ways at once, and empty standard input, each with its line', async () => {
    assert.equal(
      await refused(['token', 'revoke']),
      'error: Name the token: airorder token revoke TOKEN_ID (tok_…, as token list prints it), or the token itself on standard input with --token-stdin.\n',
    );
    assert.equal(
      await refused(['token', 'revoke', 'tok_0123456789abcdef', '--token-stdin'], 'aot_x'),
      'error: Name the token once: a token id, or --token-stdin with the token on standard input, not both.\n',
    );
    assert.equal(
      await refused(['token', 'revoke', '--token-stdin'], ' \n'),
      'error: --token-stdin: standard input holds no token.\n',
    );
  });
});

/** Runs `work` with the environment's `settings` set, as the CLI's environment. */
async function withEnv<T>(settings: Record<string, string>, work: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(settings).map((name) => [name, process.env[name]]));
  Object.assign(process.env, settings);
  try {
    return await work();
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Opens the test database for what the CLI cannot say itself. */
async function withDatabase<T>(
  work: (store: ReturnType<typeof openStore>) => Promise<T>,
  url = database.url,
): Promise<T> {
  const store = openStore(loadConfig({}, { DATABASE_URL: url }));
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

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
    assert.deepEqual(JSON.parse(hook.received.at(-1)!.body).data, { EndpointID: endpointId, AgencyID: 'HOOKAG' });
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

describe('operator', () => {
  const PASSWORD = 'correct horse battery staple';
  const passwordOf = (email: string) =>
    withDatabase(async (store) => (await store.read.findOperator(email))!.passwordHash);

  test('add reads the password from standard input, without its line end; the address is kept in lower case', async () => {
    assert.equal(
      await ok(
        ['operator', 'add', '--email', ' Desk@Airline.Example ', '--name', 'Desk', '--password-stdin'],
        `${PASSWORD}\r\n`,
      ),
      'operator desk@airline.example added\n',
    );
    assert.ok(await verifyPassword(PASSWORD, await passwordOf('desk@airline.example')));
    assert.equal(
      await ok(
        ['--json', 'operator', 'add', '--email', ' Night@Airline.Example ', '--name', 'Night', '--password-stdin'],
        `${PASSWORD}\nsecond line \n\n`,
      ),
      '{"email":"night@airline.example","added":true}\n',
    );
    // Only one line end is the shell's: the rest is the password's.
    assert.ok(await verifyPassword(`${PASSWORD}\nsecond line \n`, await passwordOf('night@airline.example')));
  });

  test('a password must come on standard input', async () => {
    const line = 'error: --password-stdin is required: the password is read from standard input.\n';
    assert.equal(await refused(['operator', 'add', '--email', 'x@y.zz', '--name', 'X'], PASSWORD), line);
    assert.equal(await refused(['operator', 'password', 'desk@airline.example'], PASSWORD), line);
  });

  test('list: address, name and state, as text and JSON', async () => {
    assert.equal(
      await ok(['operator', 'list']),
      'desk@airline.example\tDesk\tactive\nnight@airline.example\tNight\tactive\n',
    );
    const [desk] = JSON.parse(await ok(['--json', 'operator', 'list']));
    assert.deepEqual(Object.keys(desk), ['email', 'name', 'disabledAt', 'createdAt']);
    assert.deepEqual([desk.email, desk.name, desk.disabledAt], ['desk@airline.example', 'Desk', null]);
  });

  test('password: changed from standard input; disable: shown as disabled since when', async () => {
    assert.equal(
      await ok(['operator', 'password', ' NIGHT@airline.example', '--password-stdin'], 'another long password\n'),
      'password of night@airline.example changed\n',
    );
    assert.ok(await verifyPassword('another long password', await passwordOf('night@airline.example')));
    assert.equal(
      await ok(['operator', 'disable', 'Night@Airline.Example ']),
      'operator night@airline.example disabled\n',
    );
    assert.match(
      await ok(['operator', 'list']),
      /^desk@airline\.example\tDesk\tactive\nnight@airline\.example\tNight\tdisabled \d{4}-\d\d-\d\dT\S+Z\n$/,
    );
  });

  test("actions: --limit from 1 to 10000, and only one operator's with --email", async () => {
    for (const limit of ['0', '10001', '1.5', 'x', '-1'])
      assert.equal(
        await refused(['operator', 'actions', '--limit', limit]),
        'error: --limit must be a whole number from 1 to 10000.\n',
        limit,
      );
    assert.equal(await ok(['operator', 'actions', '--limit', '10000']), '[]\n');
    // Acts as the console records them, two operators' at three moments.
    await withDatabase((store) =>
      store.write(async (tx) => {
        await tx.insertOperatorAction(
          { email: 'desk@airline.example', action: 'sign-in', target: '-', reason: null },
          '2026-11-27T08:00:00.000Z',
        );
        await tx.insertOperatorAction(
          { email: 'night@airline.example', action: 'sign-in', target: '-', reason: null },
          '2026-11-27T09:00:00.000Z',
        );
        await tx.insertOperatorAction(
          { email: 'desk@airline.example', action: 'cancel', target: 'ORD-1', reason: 'asked' },
          '2026-11-27T10:00:00.000Z',
        );
      }),
    );
    const shown = (args: string[]) =>
      ok(['operator', 'actions', ...args]).then((text) =>
        (JSON.parse(text) as { email: string; action: string; occurredAt: string }[]).map(
          ({ email, action, occurredAt }) => `${email} ${action} ${occurredAt}`,
        ),
      );
    assert.deepEqual(await shown([]), [
      'desk@airline.example cancel 2026-11-27T10:00:00.000Z',
      'night@airline.example sign-in 2026-11-27T09:00:00.000Z',
      'desk@airline.example sign-in 2026-11-27T08:00:00.000Z',
    ]);
    assert.deepEqual(await shown(['--limit', '1']), ['desk@airline.example cancel 2026-11-27T10:00:00.000Z']);
    assert.deepEqual(await shown(['--email', ' Desk@Airline.Example']), [
      'desk@airline.example cancel 2026-11-27T10:00:00.000Z',
      'desk@airline.example sign-in 2026-11-27T08:00:00.000Z',
    ]);
  });
});

describe('an unexpected failure', () => {
  before(async () => {
    await ok(['agency', 'add', '--agency-id', 'BROKEN', '--name', 'Broken']);
    await withDatabase(async (store) => {
      const now = () => new Date().toISOString();
      await importOrders(
        store,
        now,
        preparedHere(readRecords(JSON.stringify([simpleOrder('BROKEN-1', 'BROKEN', 'BRKREF')])), now()),
        false,
      );
      // What no import writes: a store written by hand.
      await setStoredBookingMember(store.db, 'BROKEN-1', 0, 'passengers', '"not a list"');
    });
  });

  test('one line, its first, saying to run again with --verbose', async () => {
    assert.equal(
      await refused(['orders', 'show', 'BROKEN-1']),
      'error: booking.passengers.map is not a function (unexpected: run again with --verbose to see where it happened)\n',
    );
  });

  test('with --verbose, where it happened', async () => {
    const run = await airorder(['--verbose', 'orders', 'show', 'BROKEN-1']);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.match(
      run.stderr,
      /^error: TypeError: booking\.passengers\.map is not a function\n {4}at .*order-view\.ts:\d+:\d+\)\n/,
    );
    assert.doesNotMatch(run.stderr, /unexpected/);
  });
});
