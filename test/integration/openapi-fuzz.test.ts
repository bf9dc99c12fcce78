/**
 * The service against its own OpenAPI document (docs/contract.md §3, §4): requests generated from the
 * request schemas of the served document (test/helpers/openapi-fuzz.ts), each field at each bound the
 * document allows and each constraint broken once, body and headers. Every request the document
 * allows must get past validation (a business answer such as 404 ORDER_NOT_FOUND or 403
 * SENDER_MISMATCH is fine), every other one 400 INVALID_REQUEST naming the field, all of them in the
 * operation's envelope and none with a 5xx. Deterministic: the seed is printed, and
 * OPENAPI_FUZZ_SEED=<seed> replays a run. Runs on the store named by TEST_STORE.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { bearer, change, segment, simpleOrder } from '../helpers/documents.js';
import { constraintSites, OpenApiFuzzer, type OperationCases, type RequestCase } from '../helpers/openapi-fuzz.js';
import {
  servedOpenApiDocument,
  startTestService,
  type HttpResponse,
  type TestService,
} from '../helpers/test-service.js';
import { scaled } from '../helpers/time-scale.js';

const SEED = Number(process.env.OPENAPI_FUZZ_SEED ?? 20_260_101);
const REPLAY = `seed ${SEED} (replay with OPENAPI_FUZZ_SEED=${SEED})`;
/** A field whose valid values must name stored data: the document gives its form only. */
const EVENT_CURSOR = 'OrderEventListRQ.Query.After';

let service: TestService;
let token: string;
let document: any;
let storedValues: Record<string, unknown>;
let generated: OperationCases[];
/** The operations on an order act on a real one, so that valid requests reach them, not only the lookup. */
const ORDER_REQUEST_ROOTS = [
  'OrderCancelRQ',
  'OrderInvoluntaryAcceptRQ',
  'OrderInvoluntaryCancelRQ',
  'OrderRetrieveRQ',
];
const baselineValues = Object.fromEntries(
  ORDER_REQUEST_ROOTS.flatMap((root) => [
    [`${root}.Query.OrderID`, 'FUZZ-ORDER-1'],
    [`${root}.Query.GdsBookingReference`, ['FUZ001']],
  ]),
);

/** The id of an event of the agency, once the feed lists it. */
async function anEventId(): Promise<string> {
  const give = Date.now() + scaled(15_000);
  for (;;) {
    const response = await service.post(
      '/AirOrderEventList',
      { OrderEventListRQ: { Query: { Limit: 1 } } },
      bearer(token),
    );
    const eventId = response.body?.OrderEventListRS?.Events?.[0]?.EventID;
    if (eventId) return eventId;
    assert.ok(Date.now() < give, `no event listed after 15 s: ${response.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

before(async () => {
  service = await startTestService();
  token = await service.tokenFor('FUZZ1');
  await service.importOrders([simpleOrder('FUZZ-ORDER-1', 'FUZZ1', 'FUZ001')]);
  await service.importChanges([change('FUZZ-CHANGE-1', 'FUZZ-ORDER-1', 'FUZ001', ['S1'], [segment('S1B', 1, 14)])]);
  storedValues = { [EVENT_CURSOR]: await anEventId() };
  document = await servedOpenApiDocument(service);
  generated = fuzzer(SEED).operations();
});
after(() => service.close());

const fuzzer = (seed: number) =>
  new OpenApiFuzzer(document, { seed, storedValues, baselineValues, randomRequests: 10 });
const bodySchemaOf = (path: string) =>
  fuzzer(SEED).resolve(document.paths[path].post.requestBody.content['application/json'].schema);

/** What is wrong with the answer to a case, or null. */
function problemWith(
  candidate: RequestCase,
  response: HttpResponse,
  requestRoot: string,
  responseRoot: string,
): string | null {
  if (response.status >= 500) return `answered ${response.status}`;
  if (
    typeof response.body !== 'object' ||
    response.body === null ||
    Object.keys(response.body).join() !== responseRoot
  ) {
    return `answered ${response.status} outside the ${responseRoot} envelope`;
  }
  const error = response.body[responseRoot].Errors?.[0];
  if (candidate.expect === 'valid')
    return response.status === 400 ? `refused a request the document allows (${error?.Code}: ${error?.Message})` : null;
  if (response.status !== 400 || error?.Code !== 'INVALID_REQUEST')
    return `answered ${response.status} ${error?.Code ?? 'without Errors'} to a request the document refuses`;
  const field = candidate.path || requestRoot;
  return error.Message.includes(field) ? null : `the message does not name ${field}: ${error.Message}`;
}

describe('the generator', () => {
  test('it owes the document a broken case for every constraint and makes one', () => {
    assert.ok(generated.length >= 5, 'every operation with a JSON body');
    for (const { path, cases } of generated) {
      const sites = constraintSites(bodySchemaOf(path));
      const made = new Set(
        cases
          .filter((candidate) => candidate.expect === 'broken')
          .map((candidate) => `${candidate.path} ${candidate.kind}`),
      );
      const missing = sites.filter((site) => !made.has(`${site.path} ${site.kind}`));
      assert.deepEqual(missing, [], `${path}: constraints of the document without a broken case`);
      // Each kind of constraint the document uses is there: a schema change is picked up by the walk.
      const kinds = new Set(sites.map((site) => site.kind));
      for (const kind of ['type', 'required', 'additionalProperties', 'pattern'])
        assert.ok(kinds.has(kind), `${path} uses ${kind}`);
    }
    const kinds = new Set(
      generated.flatMap(({ path }) => constraintSites(bodySchemaOf(path)).map((site) => site.kind)),
    );
    // The walk is not vacuous: the kinds the document uses today are found (more may come).
    for (const kind of [
      'additionalProperties',
      'exclusiveMaximum',
      'format',
      'maxItems',
      'maxLength',
      'maximum',
      'minItems',
      'minLength',
      'minimum',
      'pattern',
      'required',
      'type',
    ]) {
      assert.ok(kinds.has(kind), `the document's request schemas use ${kind}`);
    }
  });

  test('it sends each field at its bounds: the valid values include both ends of every length and number', () => {
    const cancel = generated.find((operation) => operation.path === '/AirOrderCancel')!;
    const valid = cancel.cases.filter((candidate) => candidate.expect === 'valid');
    const labels = (path: string) =>
      valid.filter((candidate) => candidate.path === path).map((candidate) => candidate.label);
    assert.ok(labels('OrderCancelRQ.Query.OrderID').includes('the longest string of the pattern'));
    assert.ok(labels('OrderCancelRQ.Document.Name').includes('200 characters'));
    assert.ok(labels('OrderCancelRQ.Query.GdsBookingReference').includes('20 items'));
    assert.ok(labels('OrderCancelRQ.Document.ReferenceVersion').includes('999999999.9999999, the highest allowed'));
    assert.ok(labels('Idempotency-Key').includes('255 characters'));
  });

  test('a keyword it has no rule for makes it throw, naming the keyword', () => {
    const schema = { type: 'object', properties: { Count: { type: 'integer', multipleOf: 5 } } };
    const fuzzing = new OpenApiFuzzer(
      { paths: { '/X': { post: { requestBody: { content: { 'application/json': { schema } } } } } } },
      { seed: SEED },
    );
    assert.throws(() => fuzzing.operations(), /no rule for multipleOf/);
  });

  test('one seed, one set of requests', (t) => {
    t.diagnostic(REPLAY);
    assert.deepEqual(fuzzer(SEED).operations(), generated);
    assert.notDeepEqual(fuzzer(SEED + 1).operations(), generated);
  });
});

describe('the service against its OpenAPI document', () => {
  for (const path of [
    '/AirOrderCancel',
    '/AirOrderInvoluntaryAccept',
    '/AirOrderInvoluntaryCancel',
    '/AirOrderRetrieve',
    '/AirOrderEventList',
  ]) {
    test(`${path}: what the document allows is accepted, everything else 400 naming the field, never a 5xx`, async (t) => {
      t.diagnostic(REPLAY);
      const operation = generated.find((candidate) => candidate.path === path);
      assert.ok(operation, `${path} is in the document`);
      const post = document.paths[path].post;
      const requestRoot = bodySchemaOf(path).required[0];
      const responseRoot = fuzzer(SEED).resolve(post.responses['200'].content['application/json'].schema).required[0];
      const problems: string[] = [];
      const statuses = new Map<number, number>();
      for (const candidate of operation.cases) {
        // Always as JSON text: the helper sends a string body as it is, and a JSON string is a body too.
        const response = await service.post(path, JSON.stringify(candidate.body), {
          ...bearer(token),
          ...candidate.headers,
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const problem = problemWith(candidate, response, requestRoot, responseRoot);
        if (problem)
          problems.push(
            `${candidate.expect} ${candidate.kind} at ${candidate.path || 'the body'} (${candidate.label}): ${problem}\n    ${JSON.stringify(candidate.headers)} ${JSON.stringify(candidate.body).slice(0, 300)}`,
          );
      }
      t.diagnostic(
        `${operation.cases.length} requests: ${operation.cases.filter((candidate) => candidate.expect === 'valid').length} valid, ${operation.cases.filter((candidate) => candidate.expect === 'broken').length} broken`,
      );
      t.diagnostic(`statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`);
      assert.deepEqual(
        problems,
        [],
        `${problems.length} of ${operation.cases.length} requests answered wrongly; ${REPLAY}`,
      );
      assert.deepEqual(
        service.logs.filter((line) => Number(line.level) >= 50),
        [],
        'no error-level log line',
      );
      // Valid requests went past validation into the operation, not only to the order lookup.
      assert.ok((statuses.get(200) ?? 0) > 0, 'some valid requests are processed (200)');
    });
  }
});
