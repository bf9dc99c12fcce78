/**
 * The examples of README.md and docs/*.md run as written (docs/testing.md, "The docs' examples"):
 * each document's command blocks in order, in a fresh directory, with `airorder` the built program
 * (run `npm run build` first), against the services its blocks start, on a port of their own
 * (`PORT`, which the documents read). Every answer printed below a command block must match what
 * the block printed, ids, tokens and times aside. docs/operations.md gets a throwaway PostgreSQL
 * server of its own, named to its blocks by PGHOST, PGPORT and PGUSER.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { startPostgresCluster, type PostgresCluster } from '../../scripts/postgres-cluster.js';
import { freePort } from '../helpers/cli.js';
import { answerDifference, PROJECT_ROOT, readBlocks, runDocument } from '../helpers/doc-examples.js';

const documents = [
  'README.md',
  ...fs
    .readdirSync(path.join(PROJECT_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

const clusters: PostgresCluster[] = [];
after(async () => {
  await Promise.all(clusters.map((cluster) => cluster.stop()));
});

/** psql's directory, when it is not on PATH already. */
function withPsql(pathVariable: string): string {
  const onPath = pathVariable.split(':').some((dir) => dir && fs.existsSync(path.join(dir, 'psql')));
  return onPath || !fs.existsSync('/usr/lib/postgresql/15/bin/psql')
    ? pathVariable
    : `/usr/lib/postgresql/15/bin:${pathVariable}`;
}

async function documentEnv(text: string): Promise<Record<string, string>> {
  const env: Record<string, string> = { PORT: String(await freePort()) };
  if (/\$PGHOST\b|\$\{PGHOST/.test(text)) {
    const cluster = await startPostgresCluster({ superuser: 'postgres' });
    clusters.push(cluster);
    Object.assign(env, {
      PGHOST: '127.0.0.1',
      PGPORT: String(cluster.port),
      PGUSER: 'postgres',
      PATH: withPsql(process.env.PATH ?? ''),
    });
  }
  return env;
}

// Two documents at a time: most of the time goes to starting the program, and little to the CPU.
describe('the examples of README.md and docs/*.md', { concurrency: 2 }, () => {
  for (const document of documents) {
    test(`the examples of ${document} run as written and answer what it shows`, async () => {
      const text = fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8');
      const run = await runDocument(document, text, { env: await documentEnv(text) });
      assert.deepEqual(run.problems, []);
    });
  }
});

test('a copy of docs/console.md with one printed answer changed fails, naming that block', async () => {
  const text = fs.readFileSync(path.join(PROJECT_ROOT, 'docs/console.md'), 'utf8');
  const command = readBlocks(text).find((block) => block.role === 'command' && block.answer)!;
  const answer = command.answer!;
  const [first, ...rest] = answer.text.split('\n');
  const changed = first!.replace('added', 'created');
  assert.notEqual(changed, first);
  const body = text.split('\n');
  // The answer's first line is the line after its opening fence.
  assert.equal(body[answer.line], first);
  body[answer.line] = changed;
  const run = await runDocument('docs/console.md', body.join('\n'), { env: { PORT: String(await freePort()) } });
  assert.equal(run.problems.length, 1, run.problems.join('\n'));
  assert.equal(
    run.problems[0],
    `docs/console.md, block ${command.index} (line ${command.line}): the answer below it (line ${answer.line}) differs: ` +
      `line 1: expected ${JSON.stringify(changed)}, got ${JSON.stringify(first)}`,
  );
  assert.equal(rest.length > 0, true);
});

test('the marked illustrations are few, and each says why', () => {
  const marked = documents.flatMap((document) =>
    readBlocks(fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8'))
      .filter((block) => block.role === 'not-run')
      .map((block) => `${document}:${block.line} ${block.reason}`),
  );
  const all = documents.flatMap((document) => readBlocks(fs.readFileSync(path.join(PROJECT_ROOT, document), 'utf8')));
  for (const line of marked) assert.match(line, /:\d+ \S.{10,}/);
  assert.ok(
    marked.length * 5 <= all.length,
    `${marked.length} of ${all.length} blocks are marked not run:\n${marked.join('\n')}`,
  );
});

// The test of the test: a copy of a document with one thing changed must fail, naming the block.

const SAMPLE = [
  '# Sample',
  '',
  '`order-ids.txt`:',
  '',
  '```text',
  'ORD-1',
  'ORD-2',
  '```',
  '',
  'Counting them:',
  '',
  '```sh',
  'export COUNT=$(wc -l < order-ids.txt)',
  'echo "{\\"Count\\":$COUNT,\\"At\\":\\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\\"}"',
  '```',
  '',
  '```json',
  '{"Count":2,"At":"2026-11-20T08:00:00Z"}',
  '```',
  '',
  'The variable lives on:',
  '',
  '```sh',
  'echo "count $COUNT"',
  '```',
  '',
  '```text',
  'count 2',
  '```',
  '',
].join('\n');

test('the sample document passes: files written, variables kept between blocks, times masked', async () => {
  const run = await runDocument('sample.md', SAMPLE);
  assert.deepEqual(run.problems, []);
  assert.equal(run.ran.length, 2);
  assert.deepEqual(
    run.blocks.map((block) => block.role),
    ['file', 'command', 'answer', 'command', 'answer'],
  );
});

test('a changed answer fails, naming the block and its line', async () => {
  const run = await runDocument('sample.md', SAMPLE.replace('{"Count":2,', '{"Count":3,'));
  assert.equal(run.problems.length, 1);
  assert.match(
    run.problems[0]!,
    /^sample\.md, block 2 \(line 12\): the answer below it \(line 17\) differs: \$\.Count: expected 3, got 2$/,
  );
  const text = await runDocument('sample.md', SAMPLE.replace('count 2', 'count 3'));
  assert.match(text.problems.join('\n'), /block 4 \(line 23\).*line 1: expected "count 3", got "count 2"/);
});

test('a command that fails fails its block, and an answer without its command is reported', async () => {
  const failing = await runDocument('sample.md', SAMPLE.replace('echo "count $COUNT"', 'echo "count $COUNT"\nfalse'));
  assert.match(
    failing.problems.join('\n'),
    /block 4 \(line 23\): a command failed \(exit status and command: 1\tfalse\)/,
  );
  const orphan = await runDocument(
    'sample.md',
    SAMPLE.replace('Counting them:\n\n```sh\n', 'Counting them:\n\n```bash\n'),
  );
  assert.match(orphan.problems.join('\n'), /block 2 \(line 12\): a `bash` block that is neither/);
  const missingFile = await runDocument('sample.md', SAMPLE.replace('`order-ids.txt`:', 'The ids:'));
  assert.match(missingFile.problems.join('\n'), /block 1 \(line 5\): a `text` block that is neither/);
});

test('a marked block is not run, and a block that must fail must print its error', async () => {
  const marked = SAMPLE.replace('Counting them:', '*Not run by the tests: it shows what the sample would do.*');
  const run = await runDocument('sample.md', marked);
  assert.equal(run.blocks[1]!.role, 'not-run');
  const failing = '```sh\nls no-such-file\n```\n\n```text\nerror: nothing\n```\n';
  assert.match(
    (await runDocument('x.md', failing)).problems.join('\n'),
    /line 1: expected "error: nothing", got "ls: /,
  );
  const succeeding = '```sh\necho "error: nothing"\n```\n\n```text\nerror: nothing\n```\n';
  assert.match(
    (await runDocument('x.md', succeeding)).problems.join('\n'),
    /its answer is an error, but every command succeeded/,
  );
});

test('JSON answers: members and elements may be elided with …, ids and tokens are masked, values are not', () => {
  const answer = (text: string) => ({ index: 1, line: 1, lang: 'json', text, role: 'answer' as const });
  assert.equal(answerDifference(answer('{"A":{…},"B":[1,…],…}'), '{"A":{"x":1},"B":[1,2,3],"C":true}'), null);
  assert.equal(
    answerDifference(
      answer('{"Token":"aot_kV981m_PtebZoVtxinsLYqnIX2PU8c9aC7tuyej3VIE","ID":"evt_01a205d0aee000000018dace7170"}'),
      '{"Token":"aot_AD25PwzhUpHwp0ogpBQcNrW27a9xQr8cJ2I7k-BWeCc","ID":"evt_0193a4c2e1f0000000015c1e9a7b"}',
    ),
    null,
  );
  assert.match(answerDifference(answer('{"A":1}'), '{"A":1,"B":2}')!, /not in the answer: B/);
  assert.match(
    answerDifference(answer('{"A":"ORD-1001"}'), '{"A":"ORD-1002"}')!,
    /expected "ORD-1001", got "ORD-1002"/,
  );
  assert.match(answerDifference(answer('[1,2]'), '[1,2,3]')!, /expected 2 elements, got 3/);
  assert.match(answerDifference(answer('{"A":1}'), 'not json')!, /printed no JSON/);
});

test('what a document started in the background is stopped when it ends, also after a failing block', async () => {
  const run = await runDocument('x.md', '```sh\nsleep 300 &\necho $!\nfalse\n```\n');
  assert.match(run.problems.join('\n'), /a command failed/);
  const pid = Number(run.ran[0]!.printed.trim().split('\n')[0]);
  assert.ok(pid > 0);
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
});
