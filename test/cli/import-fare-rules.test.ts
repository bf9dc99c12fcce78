import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { asJsonArray, CliSandbox } from '../helpers/cli.js';
import { booking, order, passenger, segment } from '../helpers/documents.js';

const sandbox = new CliSandbox();
let counter = 0;

before(async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
});
after(() => sandbox.cleanup());

function withTicket(orderId: string, currency: string, fields: object) {
  counter += 1;
  return order(orderId, 'AG1', currency, [
    booking(
      `F${String(counter).padStart(5, '0')}`,
      [segment('S1')],
      [
        passenger('P1', {
          ticketNumber: `24${String(counter).padStart(11, '0')}`,
          baseFare: '100.00',
          taxes: '30.00',
          coupons: [{ segmentId: 'S1' }],
          ...fields,
        }),
      ],
    ),
  ]);
}

const TICKET = 'bookings[0].passengers[0].ticket';

async function rejects(document: object, expected: string) {
  const result = await sandbox.run(['orders', 'import', '-'], { stdin: asJsonArray([document]) });
  assert.notEqual(result.code, 0, result.stdout);
  assert.equal(result.stderr.trimEnd(), `error: ${expected}`);
  const orderId = (document as { orderId: string }).orderId;
  assert.equal((await sandbox.run(['orders', 'show', orderId])).code === 0, false, 'nothing stored');
}

describe('orders import: issuedAt, taxBreakdown and fareRules', () => {
  test('each wrong field is named with its record and order', async () => {
    await rejects(
      withTicket('FR-1', 'EUR', { issuedAt: 'yesterday' }),
      `record 1 (order FR-1): ${TICKET}.issuedAt must be an ISO-8601 date-time with a time zone, such as 2026-12-01T10:00:00Z, got "yesterday"`,
    );
    await rejects(
      withTicket('FR-2', 'EUR', {
        taxBreakdown: [
          { code: 'DE', amount: '10.00' },
          { code: 'YQ', amount: '15.00' },
        ],
      }),
      `record 1 (order FR-2): ${TICKET}.taxBreakdown amounts add up to 25.00, not to the ticket's taxes 30.00`,
    );
    await rejects(
      withTicket('FR-3', 'EUR', { taxBreakdown: [{ code: 'yq', amount: '30.00' }] }),
      `record 1 (order FR-3): ${TICKET}.taxBreakdown[0].code must be a two-character tax code such as YQ or DE, got "yq"`,
    );
    await rejects(
      withTicket('FR-4', 'EUR', { taxBreakdown: [{ code: 'DE', amount: '30.00', refundable: 'yes' }] }),
      `record 1 (order FR-4): ${TICKET}.taxBreakdown[0].refundable must be true or false`,
    );
    await rejects(
      withTicket('FR-5', 'EUR', {
        taxBreakdown: [
          { code: 'DE', amount: '10.00' },
          { code: 'DE', amount: '20.00' },
        ],
      }),
      `record 1 (order FR-5): ${TICKET}.taxBreakdown[1] repeats the code DE`,
    );
    await rejects(
      withTicket('FR-6', 'EUR', { fareRules: { penalty: '10.00' } }),
      `record 1 (order FR-6): ${TICKET}.fareRules.refundable is required`,
    );
    await rejects(
      withTicket('FR-7', 'EUR', { fareRules: { refundable: true, penalty: '10.00', penaltyPercent: '10' } }),
      `record 1 (order FR-7): ${TICKET}.fareRules.penaltyPercent cannot be given with penalty: the penalty is an amount or a percentage`,
    );
    await rejects(
      withTicket('FR-8', 'EUR', { fareRules: { refundable: true, penaltyPercent: '100.5' } }),
      `record 1 (order FR-8): ${TICKET}.fareRules.penaltyPercent must be a percentage from 0 to 100 with at most two decimals, got "100.5"`,
    );
    await rejects(
      withTicket('FR-9', 'JPY', { baseFare: '100', taxes: '30', fareRules: { refundable: true, penalty: '10.5' } }),
      `record 1 (order FR-9): ${TICKET}.fareRules.penalty must be a non-negative decimal with at most the decimals of JPY, got "10.5"`,
    );
  });

  test('stored and shown by orders show as imported', async () => {
    const fields = {
      issuedAt: '2026-11-20T10:00:00Z',
      taxBreakdown: [
        { code: 'DE', amount: '10.00' },
        { code: 'YQ', amount: '15.00', refundable: false },
        { code: 'YR', amount: '5.00', refundable: true },
      ],
      fareRules: { refundable: true, penaltyPercent: 12.5 },
    };
    await sandbox.ok(['orders', 'import', '-'], { stdin: asJsonArray([withTicket('FR-OK', 'EUR', fields)]) });
    const shown = JSON.parse((await sandbox.ok(['orders', 'show', 'FR-OK'])).stdout);
    const ticket = shown.bookings[0].passengers[0].ticket;
    assert.equal(ticket.issuedAt, '2026-11-20T10:00:00Z');
    assert.deepEqual(ticket.taxBreakdown, fields.taxBreakdown);
    assert.deepEqual(ticket.fareRules, { refundable: true, penaltyPercent: '12.5' });
  });
});
