import type { DemoSummary } from '../demo/demo-setup.js';
import { demoVariableValues } from './postman-variables.js';

function curl(
  baseUrl: string,
  token: string,
  path: string,
  root: string,
  example: { orderId: string; gdsBookingReference: string },
): string {
  const body = JSON.stringify({
    [root]: { Query: { OrderID: example.orderId, GdsBookingReference: [example.gdsBookingReference] } },
  });
  return `curl -s ${baseUrl}${path} -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' -d '${body}'`;
}

/** The collection of docs/postman run with Newman against this demo: every request has tests. */
function newmanLine(baseUrl: string, demo: DemoSummary): string {
  const variables = [['baseUrl', baseUrl], ['token', demo.token], ...demoVariableValues(demo)];
  return [
    'npx newman run docs/postman/airorder.postman_collection.json -e docs/postman/airorder.postman_environment.json',
    ...variables.map(([name, value]) => `--env-var ${name}=${value}`),
  ].join(' ');
}

/** Ready-to-paste calls of every operation against demo bookings that suit each, then the same with Newman. */
export function curlExamples(baseUrl: string, demo: DemoSummary): string {
  const lines = [
    `API reference: ${baseUrl}/docs (OpenAPI document: ${baseUrl}/openapi.json)`,
    '',
    `Token for agency ${demo.agencyId} (shown once): ${demo.token}`,
    '',
  ];
  const { cancel, involuntaryAccept, involuntaryCancel, voluntaryRefund } = demo.examples;
  if (cancel)
    lines.push('# Cancel a booking', curl(baseUrl, demo.token, '/AirOrderCancel', 'OrderCancelRQ', cancel), '');
  if (involuntaryAccept)
    lines.push(
      '# Accept an airline schedule change',
      curl(baseUrl, demo.token, '/AirOrderInvoluntaryAccept', 'OrderInvoluntaryAcceptRQ', involuntaryAccept),
      '',
    );
  if (involuntaryCancel) {
    lines.push(
      '# Cancel because of an airline change, with refunds',
      curl(baseUrl, demo.token, '/AirOrderInvoluntaryCancel', 'OrderInvoluntaryCancelRQ', involuntaryCancel),
      '',
    );
    lines.push(
      '# Retrieve that booking as it stands: itinerary, tickets, airline changes, refunds',
      curl(baseUrl, demo.token, '/AirOrderRetrieve', 'OrderRetrieveRQ', involuntaryCancel),
      '',
    );
  }
  if (voluntaryRefund) {
    lines.push(
      "# Quote a voluntary refund of a booking's passengers by their fares' rules; confirm it with /AirOrderRefund and Query.QuoteID",
      curl(baseUrl, demo.token, '/AirOrderRefundQuote', 'OrderRefundQuoteRQ', voluntaryRefund),
      '',
    );
  }
  const feed = JSON.stringify({ OrderEventListRQ: { Query: { Limit: 20 } } });
  lines.push(
    "# What happened: the agency's events, oldest first (then send NextAfter as Query.After)",
    `curl -s ${baseUrl}/AirOrderEventList -H 'Authorization: Bearer ${demo.token}' -H 'Content-Type: application/json' -d '${feed}'`,
    '',
  );
  lines.push(
    "# Every operation with its tests, in Newman (Postman's runner); safe to repeat, like the calls above",
    newmanLine(baseUrl, demo),
    '',
  );
  return lines.join('\n');
}
