import { randomBytes } from 'node:crypto';
import { EVENT_TYPES, isEventType } from '../events/event-types.js';
import type { DeliveryFilter, WebhookDelivery, WebhookEndpoint } from '../store/repositories/webhook-repository.js';
import { nextEventId } from '../store/sortable-id.js';
import type { Store } from '../store/store.js';
import { RefusedUrl, vetRegistration, type GuardPolicy } from '../webhook-delivery/address-guard.js';
import { attemptOf } from '../webhook-delivery/dispatcher.js';
import { sendAttempt, type AttemptResult } from '../webhook-delivery/sender.js';
import { newSecret } from '../webhook-delivery/signer.js';
import { AdminError, type RecordAction } from './agency-admin.js';
import type { Clock } from '../runtime/clock.js';

/** How long a rotated-out secret keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;

/** `--events a,b`: known types, no repeats; absent: every type. */
function readEventTypes(text: string | undefined): string[] {
  if (text === undefined) return ['*'];
  const types = text
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean);
  const unknown = types.filter((type) => !isEventType(type));
  if (types.length === 0 || unknown.length > 0) {
    throw new AdminError(
      `--events must list event types separated by commas (${EVENT_TYPES.join(', ')}), got ${JSON.stringify(text)}.`,
    );
  }
  return [...new Set(types)];
}

/** A registered endpoint, and the warning to show with it when its host does not resolve yet. */
export type AddedEndpoint = WebhookEndpoint & { warning: string | null };

/** Registers an endpoint, once its URL passes the guard; the secret is returned this once. */
export async function addEndpoint(
  store: Store,
  clock: Clock,
  policy: GuardPolicy,
  input: { agencyId: string; url: string; events?: string },
): Promise<AddedEndpoint> {
  const events = readEventTypes(input.events);
  let warning: string | null;
  try {
    warning = await vetRegistration(input.url, policy);
  } catch (error) {
    if (error instanceof RefusedUrl) throw new AdminError(`--url is refused: ${error.message}.`);
    throw error;
  }
  const endpoint = await store.write(async (tx) => {
    if (!(await tx.findAgency(input.agencyId)))
      throw new AdminError(
        `No agency ${input.agencyId}; create it first with: airorder agency add --agency-id ${input.agencyId} --name NAME`,
      );
    const endpoint: WebhookEndpoint = {
      endpointId: `we_${randomBytes(12).toString('hex')}`,
      agencyId: input.agencyId,
      url: input.url,
      events,
      status: 'ENABLED',
      statusReason: null,
      secret: newSecret(),
      previousSecret: null,
      previousSecretUntil: null,
      createdAt: clock(),
    };
    await tx.insertEndpoint(endpoint);
    return endpoint;
  });
  return { ...endpoint, warning };
}

async function existing(store: Store, endpointId: string): Promise<WebhookEndpoint> {
  const endpoint = await store.read.findEndpoint(endpointId);
  if (!endpoint) throw new AdminError(`No webhook endpoint ${endpointId}; see: airorder webhook list`);
  return endpoint;
}

export function endpoints(store: Store, agencyId: string | null): Promise<WebhookEndpoint[]> {
  return store.read.listEndpoints(agencyId);
}

export async function setEnabled(store: Store, endpointId: string, enabled: boolean): Promise<void> {
  await existing(store, endpointId);
  await store.write((tx) =>
    tx.setEndpointStatus(endpointId, enabled ? 'ENABLED' : 'DISABLED', enabled ? null : 'disabled by the operator'),
  );
}

export async function removeEndpoint(store: Store, endpointId: string): Promise<void> {
  await existing(store, endpointId);
  await store.write((tx) => tx.deleteEndpoint(endpointId));
}

/** A new secret; the old one signs beside it for 24 hours, so receivers can switch without losing a delivery. */
export async function rotateSecret(
  store: Store,
  clock: Clock,
  endpointId: string,
): Promise<{ secret: string; previousSecretUntil: string }> {
  const endpoint = await existing(store, endpointId);
  const secret = newSecret();
  const previousSecretUntil = new Date(Date.parse(clock()) + SECRET_OVERLAP_MS).toISOString();
  await store.write((tx) => tx.replaceSecret(endpointId, secret, endpoint.secret, previousSecretUntil));
  return { secret, previousSecretUntil };
}

export function deliveries(store: Store, filter: DeliveryFilter): Promise<WebhookDelivery[]> {
  return store.read.listDeliveries(filter);
}

/**
 * Queues an event again, due now: for one endpoint of the event's agency, or for every enabled
 * endpoint of it that subscribes to the event's type. Returns the endpoints it was queued for.
 */
export async function redeliver(
  store: Store,
  clock: Clock,
  eventId: string,
  endpointId?: string,
  record?: RecordAction,
): Promise<string[]> {
  const event = await store.read.loadEvent(eventId);
  if (!event) throw new AdminError(`No event ${eventId} (events are kept 30 days).`);
  let targets: string[];
  if (endpointId !== undefined) {
    const endpoint = await existing(store, endpointId);
    if (endpoint.agencyId !== event.agencyId)
      throw new AdminError(
        `Endpoint ${endpointId} belongs to agency ${endpoint.agencyId}, not to ${event.agencyId}, whose event ${eventId} is.`,
      );
    targets = [endpointId];
  } else {
    targets = (await store.read.listEndpoints(event.agencyId))
      .filter(
        (endpoint) =>
          endpoint.status === 'ENABLED' && (endpoint.events.includes('*') || endpoint.events.includes(event.type)),
      )
      .map((endpoint) => endpoint.endpointId);
    if (targets.length === 0)
      throw new AdminError(`Agency ${event.agencyId} has no enabled endpoint for ${event.type}.`);
  }
  await store.write(async (tx) => {
    await tx.queueRedelivery(eventId, event.agencyId, targets, clock());
    await record?.(tx, undefined);
  });
  return targets;
}

/** Sends a `ping` event to the endpoint now, outside the outbox, and answers what the receiver did. */
export async function pingEndpoint(
  store: Store,
  clock: Clock,
  policy: GuardPolicy,
  timeoutMs: number,
  endpointId: string,
): Promise<AttemptResult & { eventId: string }> {
  const endpoint = await existing(store, endpointId);
  const now = clock();
  const eventId = nextEventId();
  const attempt = attemptOf(
    endpoint,
    { eventId, type: 'ping', occurredAt: now, data: { EndpointID: endpoint.endpointId, AgencyID: endpoint.agencyId } },
    new Date(now),
  );
  return { ...(await sendAttempt(attempt, policy, timeoutMs)), eventId };
}
