import type { Agency } from '../store/repositories/agencies-repository.js';
import type { OperationWire } from './operations.js';
import type { WireFailure } from './result-items.js';

export const DEFAULT_REFERENCE_VERSION = '1.0';

function senderOf(agency: Agency | null) {
  return {
    Name: agency?.name ?? '',
    IATA_Number: agency?.iataNumber ?? '',
    AgencyID: agency?.agencyId ?? '',
    Contacts: { Contact: agency?.email ? [{ EmailContact: agency.email }] : [] },
  };
}

export interface EnvelopeParts {
  operation: OperationWire;
  serviceName: string;
  referenceVersion: string | null;
  requestId: string;
  agency: Agency | null;
  items: object[];
  /** Fields of the operation beyond the common envelope (AirOrderRetrieve's Order), before the items. */
  extra?: Record<string, unknown>;
  /** One per distinct failure; empty when every item succeeded. */
  failures: WireFailure[];
}

/** The operation's response envelope: the same shape on every outcome (docs/contract.md §4). */
export function buildEnvelope(parts: EnvelopeParts) {
  const outcome =
    parts.failures.length === 0
      ? { Success: {} }
      : { Errors: distinct(parts.failures).map((failure) => ({ Code: failure.code, Message: failure.message })) };
  return {
    [parts.operation.responseRoot]: {
      Document: { Name: parts.serviceName, ReferenceVersion: parts.referenceVersion ?? DEFAULT_REFERENCE_VERSION },
      Party: { Sender: { TravelAgencySender: senderOf(parts.agency) } },
      ShoppingResponseId: parts.requestId,
      ...parts.extra,
      [parts.operation.resultKey]: parts.items,
      ...outcome,
    },
  };
}

function distinct(failures: WireFailure[]): WireFailure[] {
  const seen = new Set<string>();
  return failures.filter((failure) => {
    const key = `${failure.code}\u0000${failure.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
