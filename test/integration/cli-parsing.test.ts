/**
 * commander's parsing of every command: the help texts, the options each takes, and the refusals of
 * bad flags, without running a command. In process (test/helpers/in-process-cli.ts); test/cli/* run
 * the built program as an operator does.
 */
import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, test } from 'node:test';
import type { Command } from 'commander';
import { buildCli } from '../../src/cli/main.js';
import { refused, allCommands, parseOnly, withEnv, useInProcessCli } from '../helpers/in-process-cli.js';

useInProcessCli();

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
