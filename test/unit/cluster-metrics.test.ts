/**
 * The whole service's figures with `serve --workers N` (src/metrics/cluster-metrics.ts), in this
 * process: the primary's side answers scrapes that stand-in workers (event emitters with a registry
 * each) send it through `cluster`'s events, and the worker's side talks to a stand-in primary through
 * `process`'s. What is summed and what taken once, what outlives a worker, and every wait's limit.
 */
import assert from 'node:assert/strict';
import cluster, { type Worker } from 'node:cluster';
import { EventEmitter } from 'node:events';
import { before, beforeEach, test, type TestContext } from 'node:test';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { aggregateWorkerMetrics, scrapeFor } from '../../src/metrics/cluster-metrics.js';

interface Sent {
  type: string;
  id: number;
  text?: string;
  error?: string;
  metrics?: unknown;
}

/** A worker as the primary sees it, with its own registry: requests (a counter), pending (taken once), heap (summed). */
class StandInWorker extends EventEmitter {
  readonly registry = new Registry();
  readonly requests: Counter;
  readonly pending: Gauge;
  readonly heap: Gauge;
  readonly latency: Histogram;
  /** A counter that adds up as the largest: not a sum, so it does not outlive its worker. */
  readonly highest: Counter;
  readonly sent: Sent[] = [];
  connected = true;
  dead = false;
  /** How it answers the primary's request for its registry. */
  answering: 'at once' | 'never' | 'wrong id first' | 'with an error' | 'unaddable' = 'at once';

  /** Its metrics' names begin with `series`: the primary keeps the reports of every test's workers. */
  constructor(
    readonly id: number,
    series: string,
  ) {
    super();
    this.requests = new Counter({ name: `${series}_requests_total`, help: 'Requests.', registers: [this.registry] });
    this.pending = new Gauge({
      name: `${series}_pending`,
      help: 'Pending.',
      aggregator: 'max',
      registers: [this.registry],
    });
    this.heap = new Gauge({ name: `${series}_heap_bytes`, help: 'Heap.', registers: [this.registry] });
    this.latency = new Histogram({
      name: `${series}_seconds`,
      help: 'Latency.',
      buckets: [1],
      registers: [this.registry],
    });
    this.highest = new Counter({
      name: `${series}_highest_total`,
      help: 'Highest.',
      aggregator: 'max',
      registers: [this.registry],
    });
  }

  isConnected(): boolean {
    return this.connected;
  }
  isDead(): boolean {
    return this.dead;
  }
  send(message: Sent): boolean {
    this.sent.push(message);
    if (message.type !== 'airorder:metrics:collect') return true;
    const id = message.id;
    const mode = this.answering;
    void this.registry.getMetricsAsJSON().then((metrics) => {
      if (mode === 'never') return;
      if (mode === 'with an error') {
        this.emit('message', { type: 'airorder:metrics:collected', id, error: 'registry unreadable' });
        return;
      }
      if (mode === 'unaddable') {
        const odd = structuredClone(metrics).map((metric) => ({
          ...metric,
          name: `${metric.name}_odd`,
          aggregator: 'bogus',
        }));
        this.emit('message', { type: 'airorder:metrics:collected', id, metrics: odd });
        return;
      }
      this.emit('message', null);
      if (mode === 'wrong id first')
        this.emit('message', { type: 'airorder:metrics:collected', id: id + 1000, metrics: [] });
      this.emit('message', { type: 'airorder:metrics:scrape', id, metrics: [] });
      // A copy, as the IPC channel makes: prom-client's JSON holds its live values.
      this.emit('message', { type: 'airorder:metrics:collected', id, metrics: structuredClone(metrics) });
    });
    return true;
  }
}

/** The workers the primary sees in `cluster.workers`, for the length of a test. */
function workers(t: TestContext, ...list: StandInWorker[]): void {
  const all = cluster.workers as Record<string, unknown>;
  for (const worker of list) all[worker.id] = worker;
  t.after(() => {
    for (const worker of list) delete all[worker.id];
  });
}

let nextScrapeId = 1;

/** A scrape asked of the primary by `asker`: the text it is answered (or the error). */
async function scrapeThrough(asker: StandInWorker): Promise<Sent> {
  const id = nextScrapeId++;
  const already = asker.sent.length;
  cluster.emit('message', asker as unknown as Worker, { type: 'airorder:metrics:scrape', id });
  for (let i = 0; i < 1000 && !asker.sent.slice(already).some((m) => m.type === 'airorder:metrics:scraped'); i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  const reply = asker.sent.slice(already).find((m) => m.type === 'airorder:metrics:scraped');
  assert.ok(reply, 'the primary did not answer');
  assert.equal(reply.id, id);
  return reply;
}

/** The names of this test's series begin with this. */
let series = 't0';

function valueIn(text: string, name: string): number | undefined {
  const own = ['requests_total', 'pending', 'heap_bytes', 'seconds_count', 'highest_total'];
  const full = own.includes(name) ? `${series}_${name}` : name;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${full} `));
  return line === undefined ? undefined : Number(line.slice(full.length + 1));
}

let workerIds = 100;
function standIn(requests: number, pending: number, heap: number): StandInWorker {
  const worker = new StandInWorker(workerIds++, series);
  worker.requests.inc(requests);
  worker.latency.observe(0.5);
  worker.highest.inc(requests);
  worker.pending.set(pending);
  worker.heap.set(heap);
  return worker;
}

before(() => aggregateWorkerMetrics());
beforeEach(() => {
  series = `t${workerIds}`;
});

test("a worker's scrape is answered with every worker's figures: counters summed, a max gauge taken once", async (t) => {
  const one = standIn(2, 4, 100);
  const two = standIn(3, 4, 50);
  workers(t, one, two);
  const reply = await scrapeThrough(one);
  assert.equal(reply.error, undefined);
  assert.equal(valueIn(reply.text!, 'requests_total'), 5);
  assert.equal(valueIn(reply.text!, 'pending'), 4);
  assert.equal(valueIn(reply.text!, 'heap_bytes'), 150);
  // Each was asked for its registry once, under an id of its own.
  const asked = [one, two].map((worker) => worker.sent.filter((m) => m.type === 'airorder:metrics:collect'));
  assert.deepEqual(
    asked.map((list) => list.length),
    [1, 1],
  );
  assert.notEqual(asked[0]![0]!.id, asked[1]![0]!.id);
  // Every wait took its listener away.
  assert.deepEqual(
    [one, two].map((worker) => worker.listenerCount('message')),
    [0, 0],
  );
});

test('a place of cluster.workers left empty is no worker', async (t) => {
  const one = standIn(6, 0, 0);
  workers(t, one);
  const all = cluster.workers as Record<string, unknown>;
  all[99_999] = undefined;
  t.after(() => delete all[99_999]);
  const reply = await scrapeThrough(one);
  assert.equal(reply.error, undefined);
  assert.equal(valueIn(reply.text!, 'requests_total'), 6);
});

test('figures that cannot be added up answer the scrape with why', async (t) => {
  const one = standIn(1, 0, 0);
  const odd = standIn(1, 0, 0);
  odd.answering = 'unaddable';
  workers(t, one, odd);
  const reply = await scrapeThrough(one);
  assert.equal(reply.text, undefined);
  assert.match(reply.error ?? '', /'bogus' is not a defined aggregator/);
  // Gone, its figures go with it (none of them is a sum that lasts), and scrapes work again.
  odd.connected = false;
  cluster.emit('exit', odd as unknown as Worker, 0, null);
  delete (cluster.workers as Record<string, unknown>)[odd.id];
  assert.equal(valueIn((await scrapeThrough(one)).text!, 'requests_total'), 1);
});

test('other messages from a worker are not scrapes', async (t) => {
  const one = standIn(1, 0, 0);
  workers(t, one);
  cluster.emit('message', one as unknown as Worker, { type: 'airorder:metrics:collected', id: 1 });
  cluster.emit('message', one as unknown as Worker, null);
  cluster.emit('message', one as unknown as Worker, 'text');
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(one.sent, []);
});

test('an answer under another id, or of another type, is not taken for the one awaited', async (t) => {
  const one = standIn(7, 0, 0);
  one.answering = 'wrong id first';
  workers(t, one);
  const reply = await scrapeThrough(one);
  assert.equal(valueIn(reply.text!, 'requests_total'), 7);
});

test('a worker not connected is not asked, and a scrape from one is not answered', async (t) => {
  const one = standIn(1, 0, 0);
  const gone = standIn(100, 0, 0);
  gone.connected = false;
  workers(t, one, gone);
  const reply = await scrapeThrough(one);
  assert.equal(valueIn(reply.text!, 'requests_total'), 1);
  assert.deepEqual(gone.sent, []);
  cluster.emit('message', gone as unknown as Worker, { type: 'airorder:metrics:scrape', id: nextScrapeId++ });
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(gone.sent, []);
});

test('a worker that answers with an error, or not within 3 s, counts with its last report', async (t) => {
  const one = standIn(1, 0, 0);
  const slow = standIn(10, 0, 0);
  workers(t, one, slow);
  assert.equal(valueIn((await scrapeThrough(one)).text!, 'requests_total'), 11);
  slow.requests.inc(5);
  slow.answering = 'with an error';
  assert.equal(valueIn((await scrapeThrough(one)).text!, 'requests_total'), 11);
  slow.answering = 'never';
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const id = nextScrapeId++;
  cluster.emit('message', one as unknown as Worker, { type: 'airorder:metrics:scrape', id });
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(
    one.sent.filter((m) => m.id === id && m.type === 'airorder:metrics:scraped').length,
    0,
    'answered before the slow worker was given up',
  );
  t.mock.timers.tick(2999);
  for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(
    one.sent.filter((m) => m.id === id && m.type === 'airorder:metrics:scraped').length,
    0,
    'gave up the slow worker early',
  );
  t.mock.timers.tick(1);
  for (
    let i = 0;
    i < 200 && one.sent.filter((m) => m.id === id && m.type === 'airorder:metrics:scraped').length === 0;
    i++
  ) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  const reply = one.sent.find((m) => m.id === id && m.type === 'airorder:metrics:scraped');
  assert.ok(reply);
  assert.equal(valueIn(reply.text!, 'requests_total'), 11);
});

test("a worker's answer that comes after it died is not kept", async (t) => {
  const one = standIn(1, 0, 0);
  const dying = standIn(10, 0, 0);
  workers(t, one, dying);
  const original = dying.send.bind(dying);
  dying.send = (message) => {
    dying.dead = true;
    return original(message);
  };
  assert.equal(valueIn((await scrapeThrough(one)).text!, 'requests_total'), 1);
});

test('the counters of a worker that exits stay in the sum; its gauges go', async (t) => {
  const one = standIn(1, 2, 100);
  const leaving = standIn(10, 9, 1000);
  workers(t, one, leaving);
  let text = (await scrapeThrough(one)).text!;
  assert.equal(valueIn(text, 'requests_total'), 11);
  assert.equal(valueIn(text, 'pending'), 9);
  assert.equal(valueIn(text, 'heap_bytes'), 1100);
  assert.equal(valueIn(text, 'seconds_count'), 2);
  assert.equal(valueIn(text, 'highest_total'), 10);
  leaving.connected = false;
  leaving.dead = true;
  cluster.emit('exit', leaving as unknown as Worker, 0, null);
  delete (cluster.workers as Record<string, unknown>)[leaving.id];
  // Twice: the retired reports, folded into one, count once.
  for (let round = 0; round < 3; round++) {
    text = (await scrapeThrough(one)).text!;
    assert.equal(valueIn(text, 'requests_total'), 11, `round ${round}`);
    assert.equal(valueIn(text, 'pending'), 2);
    assert.equal(valueIn(text, 'heap_bytes'), 100);
    assert.equal(valueIn(text, 'seconds_count'), 2, 'a histogram outlives its worker');
    assert.equal(valueIn(text, 'highest_total'), 1, 'a counter that is not summed does not');
  }
  // A worker that exits without a report leaves nothing behind.
  const silent = standIn(50, 0, 0);
  cluster.emit('exit', silent as unknown as Worker, 0, null);
  assert.equal(valueIn((await scrapeThrough(one)).text!, 'requests_total'), 11);
  // The replacement's counters are added to what its predecessors counted, and more exits pile up once each.
  const next = standIn(4, 0, 0);
  workers(t, next);
  assert.equal(valueIn((await scrapeThrough(one)).text!, 'requests_total'), 15);
  next.connected = false;
  cluster.emit('exit', next as unknown as Worker, 0, null);
  delete (cluster.workers as Record<string, unknown>)[next.id];
  for (let round = 0; round < 3; round++) {
    assert.equal(
      valueIn((await scrapeThrough(one)).text!, 'requests_total'),
      15,
      `after the second exit, round ${round}`,
    );
  }
});

test("outside the cluster a scrape is this process's own registry", async () => {
  const registry = new Registry();
  new Counter({ name: 'own_total', help: 'Own.', registers: [registry] }).inc(3);
  const scrape = scrapeFor(registry);
  assert.equal(valueIn(await scrape(), 'own_total'), 3);
});

test("in a worker: a scrape asks the primary, and the primary's request for the registry is answered", async (t) => {
  const registry = new Registry();
  new Counter({ name: 'worker_total', help: 'Worker.', registers: [registry] }).inc(2);
  let failingRead = false;
  new Gauge({
    name: 'worker_unreadable',
    help: 'Fails to read when told.',
    registers: [registry],
    collect() {
      if (failingRead) throw new Error('unreadable');
    },
  });
  const sent: Sent[] = [];
  const hadSend = Object.hasOwn(process, 'send');
  // Node's cluster tells a worker by this property, read as scrapeFor is called.
  const role = cluster as { isWorker: boolean };
  const wasWorker = role.isWorker;
  role.isWorker = true;
  t.after(() => {
    role.isWorker = wasWorker;
  });
  process.send = ((message: Sent) => {
    sent.push(message);
    return true;
  }) as typeof process.send;
  t.after(() => {
    if (hadSend) return;
    delete process.send;
  });
  const listeners = process.listenerCount('message');
  const scrape = scrapeFor(registry);
  t.after(() => {
    for (const listener of process.listeners('message').slice(listeners)) process.off('message', listener);
  });
  // The primary asks for the registry: the worker answers with it, under the same id.
  process.emit('message', { type: 'airorder:metrics:collect', id: 77 }, undefined);
  process.emit('message', { type: 'something else', id: 78 }, undefined);
  process.emit('message', null, undefined);
  for (let i = 0; i < 20 && sent.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(sent.length, 1);
  assert.equal(sent[0]!.type, 'airorder:metrics:collected');
  assert.equal(sent[0]!.id, 77);
  assert.equal((sent[0]!.metrics as { name: string }[])[0]!.name, 'worker_total');
  // A registry that cannot be read is answered with why; without a channel to the primary, nothing is sent.
  failingRead = true;
  process.emit('message', { type: 'airorder:metrics:collect', id: 79 }, undefined);
  for (let i = 0; i < 20 && sent.length === 1; i++) await new Promise((resolve) => setImmediate(resolve));
  failingRead = false;
  assert.deepEqual(sent[1], { type: 'airorder:metrics:collected', id: 79, error: 'unreadable' });
  sent.splice(1);
  const channel = process.send;
  process.send = undefined;
  process.emit('message', { type: 'airorder:metrics:collect', id: 80 }, undefined);
  failingRead = true;
  process.emit('message', { type: 'airorder:metrics:collect', id: 81 }, undefined);
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  failingRead = false;
  process.send = channel;
  assert.equal(sent.length, 1);
  // A scrape asks the primary and answers what it answers.
  const scraped = scrape();
  assert.equal(sent[1]!.type, 'airorder:metrics:scrape');
  const id = sent[1]!.id;
  process.emit('message', { type: 'airorder:metrics:scraped', id: id + 1, text: 'not this one' }, undefined);
  process.emit('message', { type: 'airorder:metrics:scraped', id, text: 'worker_total 9\n' }, undefined);
  assert.equal(await scraped, 'worker_total 9\n');
  // The primary's error is the scrape's.
  const failing = scrape();
  process.emit('message', { type: 'airorder:metrics:scraped', id: sent[2]!.id, error: 'no workers' }, undefined);
  await assert.rejects(failing, { message: 'no workers' });
  // A primary that does not answer within 5 s fails the scrape.
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const unanswered = scrape();
  t.mock.timers.tick(4999);
  let settled = false;
  void unanswered.catch(() => (settled = true));
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(settled, false);
  t.mock.timers.tick(1);
  await assert.rejects(unanswered, { message: `no answer to airorder:metrics:scraped ${sent[3]!.id} within 5000 ms` });
  // A channel to the primary that is closed fails the scrape at once.
  process.send = (() => {
    throw new Error('channel closed');
  }) as typeof process.send;
  await assert.rejects(scrape(), { message: 'channel closed' });
  assert.equal(process.listenerCount('message'), listeners + 1, 'every wait took its listener away');
});
