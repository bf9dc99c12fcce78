/**
 * What `serve --demo` prints (src/cli/curl-examples.ts, src/cli/postman-variables.ts): ready-to-paste
 * curl calls against the demo's bookings and the `newman run` line with the Postman environment's
 * variables, pinned line by line for a given demo summary, with and without each example.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { curlExamples } from '../../src/cli/curl-examples.js';
import { DEMO_VARIABLES, demoVariableValues } from '../../src/cli/postman-variables.js';
import type { DemoSummary } from '../../src/demo/demo-setup.js';

const BASE = 'http://127.0.0.1:8080';
const TOKEN = 'aot_test_token';

function demo(examples: Partial<DemoSummary['examples']> = {}): DemoSummary {
  return {
    agencyId: 'DEMO01',
    token: TOKEN,
    orders: 50,
    pendingChanges: 3,
    examples: {
      cancel: { orderId: 'ORD-CANCEL', gdsBookingReference: 'CANC01' },
      involuntaryAccept: { orderId: 'ORD-ACCEPT', gdsBookingReference: 'ACPT01' },
      involuntaryCancel: { orderId: 'ORD-REFUND', gdsBookingReference: 'RFND01' },
      voluntaryRefund: { orderId: 'ORD-VOLUNTARY', gdsBookingReference: 'VOLU01' },
      ...examples,
    },
  };
}

const call = (path: string, body: string) =>
  `curl -s ${BASE}${path} -H 'Authorization: Bearer ${TOKEN}' -H 'Content-Type: application/json' -d '${body}'`;
const query = (root: string, orderId: string, reference: string) =>
  `{"${root}":{"Query":{"OrderID":"${orderId}","GdsBookingReference":["${reference}"]}}}`;

const HEAD = [
  `API reference: ${BASE}/docs (OpenAPI document: ${BASE}/openapi.json)`,
  '',
  `Token for agency DEMO01 (shown once): ${TOKEN}`,
  '',
];
const FEED = [
  "# What happened: the agency's events, oldest first (then send NextAfter as Query.After)",
  call('/AirOrderEventList', '{"OrderEventListRQ":{"Query":{"Limit":20}}}'),
  '',
];
const NEWMAN_HEAD =
  "# Every operation with its tests, in Newman (Postman's runner); safe to repeat, like the calls above";
const NEWMAN =
  'npx newman run docs/postman/airorder.postman_collection.json -e docs/postman/airorder.postman_environment.json';

test('every example present: each operation called on the booking that suits it, then the feed and Newman', () => {
  assert.deepEqual(curlExamples(BASE, demo()).split('\n'), [
    ...HEAD,
    '# Cancel a booking',
    call('/AirOrderCancel', query('OrderCancelRQ', 'ORD-CANCEL', 'CANC01')),
    '',
    '# Accept an airline schedule change',
    call('/AirOrderInvoluntaryAccept', query('OrderInvoluntaryAcceptRQ', 'ORD-ACCEPT', 'ACPT01')),
    '',
    '# Cancel because of an airline change, with refunds',
    call('/AirOrderInvoluntaryCancel', query('OrderInvoluntaryCancelRQ', 'ORD-REFUND', 'RFND01')),
    '',
    '# Retrieve that booking as it stands: itinerary, tickets, airline changes, refunds',
    call('/AirOrderRetrieve', query('OrderRetrieveRQ', 'ORD-REFUND', 'RFND01')),
    '',
    "# Quote a voluntary refund of a booking's passengers by their fares' rules; confirm it with /AirOrderRefund and Query.QuoteID",
    call('/AirOrderRefundQuote', query('OrderRefundQuoteRQ', 'ORD-VOLUNTARY', 'VOLU01')),
    '',
    ...FEED,
    NEWMAN_HEAD,
    `${NEWMAN} --env-var baseUrl=${BASE} --env-var token=${TOKEN}` +
      ' --env-var cancelOrderId=ORD-CANCEL --env-var cancelReference=CANC01' +
      ' --env-var acceptOrderId=ORD-ACCEPT --env-var acceptReference=ACPT01' +
      ' --env-var refundOrderId=ORD-REFUND --env-var refundReference=RFND01' +
      ' --env-var voluntaryOrderId=ORD-VOLUNTARY --env-var voluntaryReference=VOLU01',
    '',
  ]);
});

test('no example at all: the reference, the token, the feed and Newman with the base URL and token only', () => {
  const none = demo({ cancel: null, involuntaryAccept: null, involuntaryCancel: null, voluntaryRefund: null });
  assert.deepEqual(curlExamples('http://localhost:9000', none).split('\n'), [
    'API reference: http://localhost:9000/docs (OpenAPI document: http://localhost:9000/openapi.json)',
    '',
    `Token for agency DEMO01 (shown once): ${TOKEN}`,
    '',
    "# What happened: the agency's events, oldest first (then send NextAfter as Query.After)",
    `curl -s http://localhost:9000/AirOrderEventList -H 'Authorization: Bearer ${TOKEN}' -H 'Content-Type: application/json' -d '{"OrderEventListRQ":{"Query":{"Limit":20}}}'`,
    '',
    NEWMAN_HEAD,
    `${NEWMAN} --env-var baseUrl=http://localhost:9000 --env-var token=${TOKEN}`,
    '',
  ]);
});

test('each example alone: its calls and its variables only', () => {
  const only = (key: keyof DemoSummary['examples']) =>
    demo({
      cancel: null,
      involuntaryAccept: null,
      involuntaryCancel: null,
      voluntaryRefund: null,
      [key]: demo().examples[key],
    });
  const comments = (text: string) => text.split('\n').filter((line) => line.startsWith('# '));
  const newman = (text: string) => text.split('\n').at(-2);

  const cancel = curlExamples(BASE, only('cancel'));
  assert.deepEqual(comments(cancel).slice(0, -2), ['# Cancel a booking']);
  assert.match(
    newman(cancel)!,
    /token=aot_test_token --env-var cancelOrderId=ORD-CANCEL --env-var cancelReference=CANC01$/,
  );

  const accept = curlExamples(BASE, only('involuntaryAccept'));
  assert.deepEqual(comments(accept).slice(0, -2), ['# Accept an airline schedule change']);
  assert.match(
    newman(accept)!,
    /token=aot_test_token --env-var acceptOrderId=ORD-ACCEPT --env-var acceptReference=ACPT01$/,
  );

  const refund = curlExamples(BASE, only('involuntaryCancel'));
  assert.deepEqual(comments(refund).slice(0, -2), [
    '# Cancel because of an airline change, with refunds',
    '# Retrieve that booking as it stands: itinerary, tickets, airline changes, refunds',
  ]);
  assert.match(
    newman(refund)!,
    /token=aot_test_token --env-var refundOrderId=ORD-REFUND --env-var refundReference=RFND01$/,
  );

  const voluntary = curlExamples(BASE, only('voluntaryRefund'));
  assert.deepEqual(comments(voluntary).slice(0, -2), [
    "# Quote a voluntary refund of a booking's passengers by their fares' rules; confirm it with /AirOrderRefund and Query.QuoteID",
  ]);
  assert.match(
    newman(voluntary)!,
    /token=aot_test_token --env-var voluntaryOrderId=ORD-VOLUNTARY --env-var voluntaryReference=VOLU01$/,
  );
});

test('the variables: one pair per operation, shared by the operations on the same booking', () => {
  assert.deepEqual(DEMO_VARIABLES, {
    AirOrderCancel: { orderId: 'cancelOrderId', reference: 'cancelReference', example: 'cancel' },
    AirOrderInvoluntaryAccept: { orderId: 'acceptOrderId', reference: 'acceptReference', example: 'involuntaryAccept' },
    AirOrderInvoluntaryCancel: { orderId: 'refundOrderId', reference: 'refundReference', example: 'involuntaryCancel' },
    AirOrderRefundQuote: { orderId: 'voluntaryOrderId', reference: 'voluntaryReference', example: 'voluntaryRefund' },
    AirOrderRefund: { orderId: 'voluntaryOrderId', reference: 'voluntaryReference', example: 'voluntaryRefund' },
    AirOrderRetrieve: { orderId: 'refundOrderId', reference: 'refundReference', example: 'involuntaryCancel' },
  });
  assert.deepEqual(
    [...demoVariableValues(demo())],
    [
      ['cancelOrderId', 'ORD-CANCEL'],
      ['cancelReference', 'CANC01'],
      ['acceptOrderId', 'ORD-ACCEPT'],
      ['acceptReference', 'ACPT01'],
      ['refundOrderId', 'ORD-REFUND'],
      ['refundReference', 'RFND01'],
      ['voluntaryOrderId', 'ORD-VOLUNTARY'],
      ['voluntaryReference', 'VOLU01'],
    ],
  );
});

test('the variables of a demo without a booking for some operations leave those out', () => {
  assert.deepEqual(
    [...demoVariableValues(demo({ cancel: null, involuntaryCancel: null }))],
    [
      ['acceptOrderId', 'ORD-ACCEPT'],
      ['acceptReference', 'ACPT01'],
      ['voluntaryOrderId', 'ORD-VOLUNTARY'],
      ['voluntaryReference', 'VOLU01'],
    ],
  );
  assert.deepEqual(
    [
      ...demoVariableValues(
        demo({ cancel: null, involuntaryAccept: null, involuntaryCancel: null, voluntaryRefund: null }),
      ),
    ],
    [],
  );
});
