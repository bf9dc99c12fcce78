import { sumMinor, type Minor } from './money.js';
import type { RefundBreakdown, Ticket } from './order.js';

/** Carrier surcharges: the airline's own charges, which a non-refundable fare keeps unless the carrier flags them refundable. */
const CARRIER_SURCHARGES: ReadonlySet<string> = new Set(['YQ', 'YR']);

/**
 * The taxes a refund gives back, code by code. With `everyTax` (a void, a refundable fare) all of
 * them; otherwise those flagged refundable and, without a flag, every code but YQ and YR. A ticket
 * without a breakdown has one tax, taken as refundable: it is given back whole and listed as no line.
 */
export function refundableTaxes(
  ticket: Ticket,
  everyTax: boolean,
): { taxes: Minor; taxLines: RefundBreakdown['taxLines'] } {
  if (!ticket.taxBreakdown) return { taxes: ticket.taxes, taxLines: [] };
  const taxLines = ticket.taxBreakdown.map((line) => ({
    code: line.code,
    amount: line.amount,
    refundable: everyTax || (line.refundable ?? !CARRIER_SURCHARGES.has(line.code)),
  }));
  return { taxes: sumMinor(taxLines.filter((line) => line.refundable).map((line) => line.amount)), taxLines };
}
