import fs from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { ConfigError } from '../config.js';
import { isSystemError } from '../errors/system-error.js';
import { setUpDemo } from '../demo/demo-setup.js';
import { DocumentError } from '../documents/document-error.js';
import type { RawRecord } from '../documents/document-reader.js';
import { streamRecords } from '../documents/record-stream.js';
import type { Store } from '../store/store.js';
import { orderView } from '../documents/order-view.js';
import { AdminError, addAgency } from '../service/agency-admin.js';
import { importChanges } from '../service/change-import.js';
import { systemClock } from '../runtime/clock.js';
import { importOrders } from '../service/order-import.js';
import { preparedInThread } from '../service/order-preparation-thread.js';
import { migrateDown, migrateToLatest } from '../store/migrator.js';
import { openStore } from '../store/open-store.js';
import { DatabaseNotReached } from './wait-for-database.js';
import { parseWorkers } from './workers-option.js';
import { DEMO_ORDERS, serveRequest, type ServeFlags } from './serve-flags.js';
import { importProgress, upgradeProgress } from './progress.js';
import { configFrom, databaseReady, withStore, type GlobalOptions } from './with-store.js';
import { webhookCommands } from './webhook-command.js';
import { operatorCommands } from './operator-command.js';
import { tokenCommands } from './token-command.js';

const clock = systemClock;

function positiveInteger(text: string): number {
  if (!/^[1-9][0-9]{0,6}$/.test(text)) throw new InvalidArgumentError('must be a whole number from 1 to 9999999.');
  return Number(text);
}

function workers(text: string): number {
  const count = parseWorkers(text);
  if (count === null) throw new InvalidArgumentError('must be a number from 1 to 999, or auto.');
  return count;
}

/** What an import reads: its records, however prepared, and how far through the input it is. */
interface ImportSource<Records> {
  records: Records;
  bytesRead(): number;
}

/** FILE's records, read and parsed on this thread. */
function recordsHere(file: string): ImportSource<AsyncIterable<RawRecord>> {
  const stream = file === '-' ? process.stdin : fs.createReadStream(file);
  return { records: streamRecords(stream), bytesRead: () => (stream as Partial<fs.ReadStream>).bytesRead ?? 0 };
}

/** Streams FILE into an import, with a progress line on a terminal. */
async function importFile<Records, T>(
  options: GlobalOptions,
  file: string,
  what: string,
  open: (file: string) => ImportSource<Records>,
  run: (store: Store, records: Records, progress: (count: number) => void) => Promise<T>,
): Promise<T> {
  const progress = importProgress(file, what);
  try {
    return await withStore(options, (store) => {
      const source = open(file);
      return run(store, source.records, (count) => progress.report(count, source.bytesRead()));
    });
  } finally {
    progress.done();
  }
}

function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function buildCli(): Command {
  const program = new Command('airorder')
    .description("Air order servicing: the agency API and the operator's tools.")
    .addOption(
      new Option('--database-url <url>', 'sqlite:PATH or postgres://user:password@host:port/database').env(
        'DATABASE_URL',
      ),
    )
    .option('--json', 'print results as JSON (commands that print JSON anyway are unchanged)')
    .option('--verbose', 'on an unexpected failure, print where it happened (the stack trace) as well')
    .showHelpAfterError('(run airorder --help for usage)');
  const global = (): GlobalOptions => program.opts<GlobalOptions>();

  program
    .command('serve')
    .description('run the service (applies pending migrations first)')
    .addOption(new Option('--port <port>', 'port to listen on (default 8080)').env('PORT'))
    .addOption(new Option('--host <host>', 'address to listen on (default 127.0.0.1)').env('HOST'))
    .addOption(
      new Option('--workers <n>', 'processes sharing the port: a number, or auto for one per core (default 1)')
        .env('WORKERS')
        .argParser(workers),
    )
    // The count is optional: commander parses one given with the option, and leaves `true` without one.
    .option(
      '--demo [orders]',
      `load demo data first (default ${DEMO_ORDERS} orders) and print a token with ready-to-paste curl calls`,
      positiveInteger,
    )
    .action(async (flags: ServeFlags) => {
      const request = serveRequest(flags);
      const config = configFrom(global(), request.settings);
      // Loaded here, not at the top: the server and its libraries take most of the CLI's start-up
      // time, and every other command (imports, tokens, operators) does without them.
      const { serve } = await import('./serve.js');
      await serve(config, { workers: request.workers, demoOrders: request.demoOrders });
    });

  program
    .command('migrate')
    .description('apply pending migrations')
    .option('--rollback', 'roll back the most recent migration instead')
    .action(async (options: { rollback?: boolean }) => {
      const config = configFrom(global());
      // Rolling back needs a database that exists; migrating may start from an empty server.
      if (!options.rollback) await databaseReady(config);
      const store = openStore(config);
      const progress = upgradeProgress();
      try {
        const applied = options.rollback ? await migrateDown(store) : await migrateToLatest(store, progress.report);
        if (global().json) printJson({ applied });
        else process.stdout.write(applied.length ? `${applied.join('\n')}\n` : 'nothing to do\n');
      } finally {
        progress.done();
        await store.close();
      }
    });

  const agency = program.command('agency').description('manage agencies');
  agency
    .command('add')
    .description('register an agency')
    .requiredOption('--agency-id <id>', 'the agency identifier, 1 to 64 characters')
    .requiredOption('--name <name>', "the agency's name")
    .option('--iata <number>', 'IATA number, 7 or 8 digits')
    .option('--email <address>', 'contact e-mail address')
    .action(async (options: { agencyId: string; name: string; iata?: string; email?: string }) => {
      if (!/^[^\s](.{0,62}[^\s])?$/.test(options.agencyId))
        throw new AdminError('--agency-id must be 1 to 64 characters without surrounding spaces.');
      if (options.name.length < 1 || options.name.length > 200)
        throw new AdminError('--name must be 1 to 200 characters.');
      if (options.iata !== undefined && !/^[0-9]{7,8}$/.test(options.iata))
        throw new AdminError('--iata must be 7 or 8 digits.');
      if (options.email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(options.email))
        throw new AdminError('--email must be an e-mail address.');
      await withStore(global(), (store) =>
        addAgency(store, clock, {
          agencyId: options.agencyId,
          name: options.name,
          iataNumber: options.iata ?? null,
          email: options.email ?? null,
        }),
      );
      if (global().json) printJson({ agencyId: options.agencyId, added: true });
      else process.stdout.write(`agency ${options.agencyId} added\n`);
    });

  tokenCommands(program, global, clock);

  const orders = program.command('orders').description('load and inspect orders');
  orders
    .command('import')
    .description('import order documents: a JSON array, one object, or NDJSON; all or nothing')
    .argument('<file>', 'a file, or - for standard input')
    .option('--upsert', 'replace orders whose orderId exists already')
    .action(async (file: string, options: { upsert?: boolean }) => {
      printJson(
        await importFile(
          global(),
          file,
          'orders',
          (input) => preparedInThread(input, clock()),
          (store, batches, progress) => importOrders(store, clock, batches, options.upsert ?? false, progress),
        ),
      );
    });
  orders
    .command('show')
    .description('print an order as JSON with its current statuses, airline changes and refunds')
    .argument('<orderId>', 'the order identifier')
    .action(async (orderId: string) => {
      const order = await withStore(global(), (store) => store.read.loadOrder(orderId));
      if (!order) throw new AdminError(`No order ${orderId}.`);
      printJson(orderView(order));
    });

  program
    .command('changes')
    .description('record airline-initiated changes')
    .command('import')
    .description('import airline-change documents: a JSON array, one object, or NDJSON; all or nothing')
    .argument('<file>', 'a file, or - for standard input')
    .action(async (file: string) => {
      printJson(
        await importFile(global(), file, 'changes', recordsHere, (store, records, progress) =>
          importChanges(store, clock, records, progress),
        ),
      );
    });

  program
    .command('audit')
    .description('print the audit trail of an order: every state change, who made it, when, and what was refunded')
    .requiredOption('--order <orderId>', 'the order identifier')
    .action(async (options: { order: string }) => {
      const events = await withStore(global(), (store) => store.read.auditTrail(options.order));
      if (events.length === 0) throw new AdminError(`No audit events for order ${options.order}.`);
      printJson(events);
    });

  webhookCommands(program, global);
  operatorCommands(program, global);

  program
    .command('demo')
    .description('create a demo agency, a token and realistic orders; prints a JSON summary with the token')
    .option('--orders <n>', 'how many orders', positiveInteger, 50)
    .action(async (options: { orders: number }) => {
      printJson(await withStore(global(), (store) => setUpDemo(store, clock, options.orders)));
    });

  return program;
}

/**
 * Every failure prints one line. Known ones (a bad record, a bad flag, a missing file) say what to
 * fix; anything else is a bug or an unforeseen state, and `--verbose` adds its stack trace for a
 * bug report, which bad input must never need.
 */
export async function runCli(argv: string[]): Promise<void> {
  const program = buildCli();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (
      error instanceof DocumentError ||
      error instanceof AdminError ||
      error instanceof ConfigError ||
      error instanceof DatabaseNotReached
    ) {
      process.stderr.write(`error: ${error.message}\n`);
    } else if (isSystemError(error)) {
      // The system refused a file (missing, a directory, not readable): its message says which.
      process.stderr.write(`error: ${(error as Error).message}\n`);
    } else if (program.opts<GlobalOptions>().verbose) {
      process.stderr.write(`error: ${(error as Error | null)?.stack ?? String(error)}\n`);
    } else {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      process.stderr.write(`error: ${message} (unexpected: run again with --verbose to see where it happened)\n`);
    }
    process.exitCode = 1;
  }
}
