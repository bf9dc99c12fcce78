/** What agencies are told, by webhook and by the event feed (docs/webhooks.md lists each with an example). */
export const EVENT_TYPES = [
  'airline_change.detected',
  'airline_change.deadline_approaching',
  'airline_change.resolved',
  'booking.canceled',
  'booking.refunded',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An event before it is stored: the agency it is for, its type and its data in the interface's PascalCase. */
export interface AgencyEvent {
  agencyId: string;
  type: EventType;
  data: Record<string, unknown>;
}

/** A stored event, as the feed and the webhooks send it. */
export interface StoredEvent {
  eventId: string;
  agencyId: string;
  type: EventType | 'ping';
  occurredAt: string;
  data: Record<string, unknown>;
}

/** Who made a change happen, as events name it. */
export type EventActor = 'AGENCY' | 'OPERATOR' | 'DEADLINE';

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
