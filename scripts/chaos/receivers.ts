/**
 * Each agency's webhook endpoint: a receiver on loopback (the service is told it may deliver there,
 * WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE_NETWORKS, as the webhook tests do) that verifies every
 * delivery with `standardwebhooks` as it arrives, answers 500 to some attempts and never answers a
 * few, past the service's delivery time-out.
 */
import { Webhook } from 'standardwebhooks';
import type { CliSandbox } from '../../test/helpers/cli.js';
import { startReceiver, type Answer, type Receiver } from '../../test/helpers/webhook-receiver.js';

const FAILING = 0.12;
const HANGING = 0.03;

export class AgencyEndpoint {
  /** Deliveries answered 2xx, by webhook-id. */
  readonly accepted = new Map<string, number>();
  readonly badSignatures: string[] = [];
  attempts = 0;

  private constructor(
    readonly agencyId: string,
    readonly receiver: Receiver,
    private readonly verifier: Webhook,
  ) {}

  /** Registers the endpoint with the operator's CLI, as docs/webhooks.md says, and starts answering. */
  static async open(
    sandbox: CliSandbox,
    agencyId: string,
    env: Record<string, string>,
    random: () => number,
  ): Promise<AgencyEndpoint> {
    const receiver = await startReceiver();
    const added = await sandbox.ok(['--json', 'webhook', 'add', '--agency-id', agencyId, '--url', receiver.url], {
      env,
    });
    const { secret } = JSON.parse(added.stdout) as { secret: string };
    const endpoint = new AgencyEndpoint(agencyId, receiver, new Webhook(secret));
    receiver.answerBy((request) => endpoint.answer(request.headers, request.body, random()));
    return endpoint;
  }

  private answer(headers: Record<string, string>, body: string, draw: number): Answer {
    this.attempts += 1;
    const id = headers['webhook-id'] ?? '(none)';
    try {
      // Verified on arrival: the signature's timestamp must be recent, as a receiver would require.
      this.verifier.verify(body, headers);
    } catch (error) {
      this.badSignatures.push(`${id}: ${(error as Error).message}`);
      return 400;
    }
    if (draw < FAILING) return 500;
    if (draw < FAILING + HANGING) return 'hang';
    this.accepted.set(id, (this.accepted.get(id) ?? 0) + 1);
    return 204;
  }

  /** The events delivered, as the bodies say (type by webhook-id), to check them against the store. */
  deliveredTypes(): Map<string, string> {
    const types = new Map<string, string>();
    for (const request of this.receiver.received) {
      if (request.answer === 204)
        types.set(request.headers['webhook-id']!, (JSON.parse(request.body) as { type: string }).type);
    }
    return types;
  }

  close(): Promise<void> {
    return this.receiver.close();
  }
}
