import type { FastifySchema, RouteOptions } from 'fastify';
import { REQUEST_ERRORS } from '../../errors/error-codes.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../idempotency-key.js';
import type { OperationWire } from '../operations.js';
import { errorExample, requestExamples, successExamples, type NamedExample } from './examples.js';
import { errorStatusesOf, OPERATION_DOCS } from './operation-docs.js';

export const SECURITY_SCHEME = 'bearerAuth';

const header = (type: 'string' | 'integer', description: string) => ({ type, description });

const REQUEST_ID = {
  'X-Request-Id': header(
    'string',
    "Equal to the body's ShoppingResponseId and written in the request's log line. On a replay, the first response's.",
  ),
};
const RATE_LIMIT = {
  'RateLimit-Limit': header(
    'integer',
    "The token's burst: requests it may send at once. Sent once the token is read, while the rate limit is on.",
  ),
  'RateLimit-Remaining': header('integer', 'Requests the token may still send at once.'),
  'RateLimit-Reset': header('integer', "Seconds until the token's allowance is full again."),
  'RateLimit-Policy': header('string', 'The policy, e.g. `100;w=2`: a burst of 100 that refills in 2 seconds.'),
};
const RETRY_AFTER = { 'Retry-After': header('integer', 'Seconds to wait before retrying.') };

/** Response headers per HTTP status; RateLimit-* only where the token was read before the outcome. */
function responseHeaders(operation: OperationWire, status: number): Record<string, object> {
  switch (status) {
    case 200:
      return {
        ...REQUEST_ID,
        ...(operation.changesOrders
          ? {
              'Idempotent-Replayed': {
                type: 'string',
                enum: ['true'],
                description: 'Sent when the response is the kept first response to this Idempotency-Key.',
              },
            }
          : {}),
        ...RATE_LIMIT,
      };
    case 401:
      return {
        ...REQUEST_ID,
        'WWW-Authenticate': header('string', '`Bearer`, or `Bearer error="invalid_token"` for AUTH_INVALID.'),
      };
    case 413:
    case 415:
      return REQUEST_ID;
    case 409:
    case 429:
    case 503:
      return { ...REQUEST_ID, ...RETRY_AFTER, ...RATE_LIMIT };
    default:
      return { ...REQUEST_ID, ...RATE_LIMIT };
  }
}

function response(
  operation: OperationWire,
  status: number,
  envelope: unknown,
  description: string,
  examples: Record<string, NamedExample>,
) {
  return {
    description,
    headers: responseHeaders(operation, status),
    content: { 'application/json': { schema: envelope, examples } },
  };
}

/**
 * The OpenAPI operation of one route, made from the schemas the route validates and serialises
 * with: its body schema is the request, and its response envelope (the route answers every outcome
 * with it) is listed for 200 and for each error status the operation can answer, with examples.
 */
export function documentOperation(operation: OperationWire, schema: FastifySchema): FastifySchema {
  const routeResponses = schema.response as Record<string, unknown>;
  const envelope = routeResponses[200];
  const doc = OPERATION_DOCS[operation.name];
  const responses: Record<string, unknown> = {
    200: response(
      operation,
      200,
      envelope,
      `Processed. \`Success: {}\` when every item succeeded; otherwise \`Errors\` and FAILED items (${doc.itemErrors.join(', ')}).`,
      successExamples(operation),
    ),
  };
  for (const [status, codes] of errorStatusesOf(operation)) {
    const description = codes.map((code) => `\`${code}\`: ${REQUEST_ERRORS[code].message}`).join(' ');
    responses[status] = response(
      operation,
      status,
      envelope,
      description,
      Object.fromEntries(codes.map((code) => [code, errorExample(operation, code)])),
    );
  }
  return {
    operationId: operation.title,
    summary: doc.summary,
    description: doc.description,
    tags: [doc.tag],
    security: [{ [SECURITY_SCHEME]: [] }],
    body: { ...(schema.body as object), 'x-examples': requestExamples(operation) },
    ...(operation.changesOrders
      ? {
          headers: {
            type: 'object',
            properties: {
              'Idempotency-Key': {
                type: 'string',
                minLength: 1,
                maxLength: 255,
                pattern: IDEMPOTENCY_KEY_PATTERN,
                description:
                  'Optional, 1 to 255 printable ASCII characters, the first and the last not a space ' +
                  '(HTTP drops white space around a header value), scoped to the agency and the operation. ' +
                  'The first response is kept for 24 hours: a repeat with the same body gets it again with ' +
                  '`Idempotent-Replayed: true`; with another body, 422 IDEMPOTENCY_KEY_REUSED; ' +
                  'while the first still runs, it waits or gets 409. An agency keeps at most ' +
                  'KEPT_RESPONSES_PER_AGENCY responses at once (50,000 by default): past it, a new key ' +
                  'gets 429 IDEMPOTENCY_KEYS_EXHAUSTED, a key already kept still gets its response.',
              },
            },
          },
        }
      : {}),
    response: responses,
  };
}

/** @fastify/swagger's transform: the operations are documented, every other route is hidden. */
export function documentRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }) {
  const operation = route.config?.operation;
  if (!operation || !schema) return { schema: { ...schema, hide: true }, url };
  return { schema: documentOperation(operation, schema), url };
}
