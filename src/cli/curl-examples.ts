import type { DemoSummary } from '../demo/demo-setup.js';

function curl(baseUrl: string, token: string, path: string, root: string, example: { orderId: string; gdsBookingReference: string }): string {
  const body = JSON.stringify({ [root]: { Query: { OrderID: example.orderId, GdsBookingReference: [example.gdsBookingReference] } } });
  return `curl -s ${baseUrl}${path} -H 'Authorization: Bearer ${token}' -H 'Content-Type: application/json' -d '${body}'`;
}

/** Ready-to-paste calls of the three operations against demo bookings that suit each. */
export function curlExamples(baseUrl: string, demo: DemoSummary): string {
  const lines = [
    `API reference: ${baseUrl}/docs (OpenAPI document: ${baseUrl}/openapi.json)`, '',
    `Token for agency ${demo.agencyId} (shown once): ${demo.token}`, '',
  ];
  const { cancel, involuntaryAccept, involuntaryCancel } = demo.examples;
  if (cancel) lines.push('# Cancel a booking', curl(baseUrl, demo.token, '/AirOrderCancel', 'OrderCancelRQ', cancel), '');
  if (involuntaryAccept) lines.push('# Accept an airline schedule change', curl(baseUrl, demo.token, '/AirOrderInvoluntaryAccept', 'OrderInvoluntaryAcceptRQ', involuntaryAccept), '');
  if (involuntaryCancel) lines.push('# Cancel because of an airline change, with refunds', curl(baseUrl, demo.token, '/AirOrderInvoluntaryCancel', 'OrderInvoluntaryCancelRQ', involuntaryCancel), '');
  const feed = JSON.stringify({ OrderEventListRQ: { Query: { Limit: 20 } } });
  lines.push('# What happened: the agency\'s events, oldest first (then send NextAfter as Query.After)',
    `curl -s ${baseUrl}/AirOrderEventList -H 'Authorization: Bearer ${demo.token}' -H 'Content-Type: application/json' -d '${feed}'`, '');
  return lines.join('\n');
}
