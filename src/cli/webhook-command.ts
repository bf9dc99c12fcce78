import type { Command } from 'commander';
import type { Config } from '../config.js';
import { systemClock } from '../runtime/clock.js';
import {
  addEndpoint,
  deliveries,
  endpoints,
  pingEndpoint,
  redeliver,
  removeEndpoint,
  rotateSecret,
  setEnabled,
} from '../service/webhook-endpoints.js';
import { AdminError } from '../service/agency-admin.js';
import type { WebhookEndpoint } from '../store/repositories/webhook-repository.js';
import type { GuardPolicy } from '../webhook-delivery/address-guard.js';
import { configFrom, withStore, type GlobalOptions } from './with-store.js';

const clock = systemClock;

function policyOf(config: Config): GuardPolicy {
  return { allowHttp: config.webhookAllowHttp, allowPrivateNetworks: config.webhookAllowPrivateNetworks };
}

function print(json: boolean, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
}

/** What `webhook list` shows of an endpoint: never its secrets. */
function shown(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.endpointId,
    agencyId: endpoint.agencyId,
    url: endpoint.url,
    events: endpoint.events,
    status: endpoint.status,
    ...(endpoint.statusReason ? { statusReason: endpoint.statusReason } : {}),
    createdAt: endpoint.createdAt,
  };
}

/** `airorder webhook …`: the agencies' endpoints and what was delivered to them. */
export function webhookCommands(program: Command, global: () => GlobalOptions): void {
  const webhook = program
    .command('webhook')
    .description('signed webhook endpoints of agencies, and their deliveries (docs/webhooks.md)');

  webhook
    .command('add')
    .description('register an endpoint; prints its signing secret, shown only this once')
    .requiredOption('--agency-id <id>', 'the agency whose events it receives')
    .requiredOption(
      '--url <url>',
      'an https URL on a public address (a host that does not resolve yet is accepted with a warning)',
    )
    .option('--events <types>', 'event types separated by commas (default: all)')
    .action(async (options: { agencyId: string; url: string; events?: string }) => {
      const config = configFrom(global());
      const endpoint = await withStore(global(), (store) => addEndpoint(store, clock, policyOf(config), options));
      if (endpoint.warning) process.stderr.write(`warning: ${endpoint.warning}\n`);
      print(
        Boolean(global().json),
        {
          id: endpoint.endpointId,
          url: endpoint.url,
          events: endpoint.events,
          secret: endpoint.secret,
          ...(endpoint.warning ? { warning: endpoint.warning } : {}),
        },
        `endpoint ${endpoint.endpointId} added for agency ${endpoint.agencyId}: ${endpoint.url} (${endpoint.events.join(',')})\n` +
          `signing secret (shown once): ${endpoint.secret}`,
      );
    });

  webhook
    .command('list')
    .description('list endpoints')
    .option('--agency-id <id>', "only this agency's")
    .action(async (options: { agencyId?: string }) => {
      const found = await withStore(global(), (store) => endpoints(store, options.agencyId ?? null));
      print(
        Boolean(global().json),
        found.map(shown),
        found.length === 0
          ? 'no webhook endpoints'
          : found
              .map(
                (e) =>
                  `${e.endpointId}  ${e.agencyId}  ${e.status}${e.statusReason ? ` (${e.statusReason})` : ''}  ${e.url}  ${e.events.join(',')}`,
              )
              .join('\n'),
      );
    });

  for (const [name, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    webhook
      .command(name)
      .description(
        enabled
          ? 'send deliveries to the endpoint again (those due wait for it)'
          : 'stop sending deliveries to the endpoint; they wait for it',
      )
      .argument('<id>', 'the endpoint id')
      .action(async (id: string) => {
        await withStore(global(), (store) => setEnabled(store, id, enabled));
        print(
          Boolean(global().json),
          { id, status: enabled ? 'ENABLED' : 'DISABLED' },
          `endpoint ${id} ${enabled ? 'enabled' : 'disabled'}`,
        );
      });
  }

  webhook
    .command('remove')
    .description('remove the endpoint and its deliveries')
    .argument('<id>', 'the endpoint id')
    .action(async (id: string) => {
      await withStore(global(), (store) => removeEndpoint(store, id));
      print(Boolean(global().json), { id, removed: true }, `endpoint ${id} removed`);
    });

  webhook
    .command('rotate-secret')
    .description('issue a new signing secret; the old one keeps signing beside it for 24 hours')
    .argument('<id>', 'the endpoint id')
    .action(async (id: string) => {
      const rotated = await withStore(global(), (store) => rotateSecret(store, clock, id));
      print(
        Boolean(global().json),
        { id, secret: rotated.secret, previousSecretUntil: rotated.previousSecretUntil },
        `new signing secret (shown once): ${rotated.secret}\nthe previous one also signs until ${rotated.previousSecretUntil}`,
      );
    });

  webhook
    .command('deliveries')
    .description('list deliveries, newest first')
    .option('--agency-id <id>', "only this agency's")
    .option('--endpoint <id>', "only this endpoint's")
    .option('--failed', 'only those that failed for good')
    .option('--limit <n>', 'at most this many (default 100)', (text) => {
      if (!/^[1-9][0-9]{0,4}$/.test(text)) throw new AdminError('--limit must be a whole number from 1 to 99999.');
      return Number(text);
    })
    .action(async (options: { agencyId?: string; endpoint?: string; failed?: boolean; limit?: number }) => {
      const found = await withStore(global(), (store) =>
        deliveries(store, {
          ...(options.agencyId ? { agencyId: options.agencyId } : {}),
          ...(options.endpoint ? { endpointId: options.endpoint } : {}),
          failedOnly: options.failed ?? false,
          limit: options.limit ?? 100,
        }),
      );
      print(
        Boolean(global().json),
        found,
        found.length === 0
          ? 'no deliveries'
          : found
              .map(
                (d) =>
                  `${d.eventId}  ${d.endpointId}  ${d.status}  attempts ${d.attempts}${d.lastStatus !== null ? `  last HTTP ${d.lastStatus}` : ''}` +
                  `${d.lastError ? `  ${d.lastError}` : ''}${d.status === 'PENDING' ? `  next ${d.nextAttemptAt}` : ''}`,
              )
              .join('\n'),
      );
    });

  webhook
    .command('redeliver')
    .description(
      'queue an event again, due now: for one endpoint, or every enabled endpoint of its agency that subscribes to it',
    )
    .argument('<eventId>', 'the event id (evt_…)')
    .option('--endpoint <id>', "only this endpoint (of the event's agency)")
    .action(async (eventId: string, options: { endpoint?: string }) => {
      const targets = await withStore(global(), (store) => redeliver(store, clock, eventId, options.endpoint));
      print(
        Boolean(global().json),
        { eventId, endpoints: targets },
        `event ${eventId} queued for ${targets.join(', ')}`,
      );
    });

  webhook
    .command('test')
    .description('send a ping event to the endpoint now and print what the receiver answered')
    .argument('<id>', 'the endpoint id')
    .action(async (id: string) => {
      const config = configFrom(global());
      const result = await withStore(global(), (store) =>
        pingEndpoint(store, clock, policyOf(config), config.webhookTimeoutMs, id),
      );
      if (!result.delivered)
        throw new AdminError(`ping ${result.eventId} to ${id} was not delivered: ${result.error} (${result.ms} ms)`);
      print(
        Boolean(global().json),
        { id, eventId: result.eventId, status: result.status, ms: result.ms },
        `HTTP ${result.status} in ${result.ms} ms (ping ${result.eventId})`,
      );
    });
}
