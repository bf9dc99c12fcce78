import type { StoredEvent } from './event-types.js';

/** An event as AirOrderEventList lists it, in the interface's PascalCase. */
export function feedItem(event: StoredEvent) {
  return { EventID: event.eventId, Type: event.type, Timestamp: event.occurredAt, Data: event.data };
}

/**
 * An event as a webhook delivers it: the body Standard Webhooks describes (`type`, `timestamp`,
 * `data`); its id travels in the `webhook-id` header.
 */
export function webhookPayload(event: StoredEvent) {
  return { type: event.type, timestamp: event.occurredAt, data: event.data };
}
