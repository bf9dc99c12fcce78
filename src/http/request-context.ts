import type { ServiceMetrics } from '../metrics/service-metrics.js';
import type { Agency } from '../store/repositories/agencies-repository.js';
import type { OperationWire } from './operations.js';

/** What the envelope needs from a request, read leniently before validation so failures carry it too. */
export interface EnvelopeInput {
  referenceVersion: string | null;
  orderId: string | null;
  /** Normalised (upper case, de-duplicated) when the request's references could be read, else null. */
  references: string[] | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    agency: Agency | null;
    tokenId: string | null;
    envelopeInput: EnvelopeInput | null;
    /** The code written to the request's log line: OK, or the first failure's code. */
    outcomeCode: string | null;
    /** On a replay, the id of the request whose response it repeats (the X-Request-Id the client sees). */
    replayOf: string | null;
  }
  interface FastifyInstance {
    serviceMetrics: ServiceMetrics;
  }
  interface FastifyContextConfig {
    operation?: OperationWire;
  }
}
