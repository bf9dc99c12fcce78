/**
 * docs/postman, run as an agency would: the real `airorder serve --demo` on a free loopback port,
 * the `npx newman run …` line it prints read from its output, and the collection run with Newman's
 * Node API with exactly those values. Every request must run, every assertion pass, and as many
 * assertions run as the collection's test scripts hold (more than one per request); the same run
 * with a booking the demo does not have must fail, so the scripts do check the answers.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { CliSandbox, PROJECT_ROOT, type ServeProcess } from '../helpers/cli.js';
import { scaled } from '../helpers/time-scale.js';

interface NewmanSummary {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    executions: {
      item: { name: string };
      response?: { code: number };
      assertions?: { assertion: string; error?: { message: string } }[];
    }[];
    failures: { error: { test?: string; message: string }; source?: { name?: string } }[];
  };
}
interface NewmanOptions {
  collection: unknown;
  environment: unknown;
  envVar: { key: string; value: string }[];
  reporters: string[];
  timeoutRequest: number;
}
// Newman ships no types; this is the part of its documented Node API the test uses.
const newman = createRequire(import.meta.url)('newman') as {
  run(options: NewmanOptions, callback: (error: Error | null, summary: NewmanSummary) => void): void;
};

interface CollectionItem {
  name: string;
  item?: CollectionItem[];
  event?: { listen: string; script: { exec: string[] } }[];
}

let box: CliSandbox;
let server: ServeProcess;
let printed: { collection: string; environment: string; variables: Map<string, string> };

function requestsOf(items: CollectionItem[]): CollectionItem[] {
  return items.flatMap((item) => (item.item ? requestsOf(item.item) : [item]));
}

/** The pm.test calls of a request's test script: one assertion each in Newman's summary. */
function testsOf(item: CollectionItem): number {
  const script = (item.event ?? [])
    .filter((event) => event.listen === 'test')
    .flatMap((event) => event.script.exec)
    .join('\n');
  return script.match(/\bpm\.test\(/g)?.length ?? 0;
}

/** Reads `npx newman run COLLECTION -e ENVIRONMENT --env-var name=value …` as serve printed it. */
function readNewmanLine(stderr: string): typeof printed {
  const line = stderr.split('\n').find((candidate) => candidate.startsWith('npx newman run '));
  assert.ok(line, `serve --demo prints a newman line:\n${stderr}`);
  const words = line.split(' ');
  const collection = words[3]!;
  assert.equal(words[4], '-e', line);
  const environment = words[5]!;
  const variables = new Map<string, string>();
  for (let index = 6; index < words.length; index += 2) {
    assert.equal(words[index], '--env-var', line);
    const [name, ...value] = words[index + 1]!.split('=');
    variables.set(name!, value.join('='));
  }
  return { collection, environment, variables };
}

function runNewman(variables: Map<string, string>): Promise<NewmanSummary> {
  const read = (file: string) => JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8')) as unknown;
  return new Promise((resolve, reject) => {
    newman.run(
      {
        collection: read(printed.collection),
        environment: read(printed.environment),
        envVar: [...variables].map(([key, value]) => ({ key, value })),
        reporters: [],
        timeoutRequest: scaled(15_000),
      },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    );
  });
}

const failuresOf = (summary: NewmanSummary) =>
  summary.run.failures
    .map((failure) => `${failure.source?.name ?? '?'}: ${failure.error.test ?? ''} ${failure.error.message}`)
    .join('\n');

before(async () => {
  box = new CliSandbox();
  server = await box.serve(['--demo', '5'], { waitForStderr: 'npx newman run' });
  printed = readNewmanLine(server.stderr());
});
after(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await box?.cleanup();
});

test('serve --demo prints the shipped collection and environment with a value for every variable of the environment', () => {
  assert.equal(printed.collection, 'docs/postman/airorder.postman_collection.json');
  assert.equal(printed.environment, 'docs/postman/airorder.postman_environment.json');
  const environment = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, printed.environment), 'utf8')) as {
    values: { key: string }[];
  };
  assert.deepEqual([...printed.variables.keys()].sort(), environment.values.map((value) => value.key).sort());
  assert.equal(printed.variables.get('baseUrl'), server.baseUrl);
  assert.match(printed.variables.get('token') ?? '', /^aot_/);
  for (const [name, value] of printed.variables) assert.ok(value.length > 0, `${name} has a value`);
});

test('newman runs every request of the collection against serve --demo with the printed values, and every assertion passes', async () => {
  const collection = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, printed.collection), 'utf8')) as {
    item: CollectionItem[];
  };
  const requests = requestsOf(collection.item);
  assert.deepEqual(requests.map((item) => item.name.split(' ')[0]).sort(), [
    'AirOrderCancel',
    'AirOrderEventList',
    'AirOrderInvoluntaryAccept',
    'AirOrderInvoluntaryCancel',
    'AirOrderRefund',
    'AirOrderRefundQuote',
    'AirOrderRetrieve',
  ]);
  for (const item of requests) assert.ok(testsOf(item) > 1, `${item.name} has more than one test`);
  const expected = requests.reduce((sum, item) => sum + testsOf(item), 0);

  const summary = await runNewman(printed.variables);
  assert.equal(summary.run.stats.requests.total, requests.length);
  assert.equal(summary.run.stats.requests.failed, 0, failuresOf(summary));
  assert.deepEqual(summary.run.failures, [], failuresOf(summary));
  assert.equal(summary.run.stats.assertions.failed, 0, failuresOf(summary));
  assert.equal(summary.run.stats.assertions.total, expected, 'every test of every script ran');
  for (const execution of summary.run.executions) {
    assert.equal(execution.response?.code, 200, execution.item.name);
    assert.ok((execution.assertions ?? []).length > 1, `${execution.item.name}: more than one assertion`);
  }
});

test('the same run with bookings the demo does not have fails its assertions: the scripts check the answers', async () => {
  const variables = new Map(printed.variables);
  for (const name of variables.keys()) if (name.endsWith('OrderId')) variables.set(name, 'NO-SUCH-ORDER');
  const summary = await runNewman(variables);
  assert.ok(summary.run.stats.assertions.failed >= 4, `assertions failed: ${summary.run.stats.assertions.failed}`);
  const failedRequests = new Set(summary.run.failures.map((failure) => failure.source?.name?.split(' ')[0]));
  assert.deepEqual([...failedRequests].sort(), [
    'AirOrderCancel',
    'AirOrderInvoluntaryAccept',
    'AirOrderInvoluntaryCancel',
    'AirOrderRefund',
    'AirOrderRefundQuote',
    'AirOrderRetrieve',
  ]);
});
