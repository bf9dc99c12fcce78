import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { ownProperty } from '../own-property.js';
import { FIELD_RULES } from './schemas/field-rules.js';

/** Turns the first schema violation into a message that names the field path, e.g. `OrderCancelRQ.Query.OrderID`. */
export function validationMessage(issue: FastifySchemaValidationError, rootKey: string): string {
  const segments = issue.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  const path = segments.reduce(
    (text, segment) => (/^\d+$/.test(segment) ? `${text}[${segment}]` : text ? `${text}.${segment}` : segment),
    '',
  );
  const params = issue.params as Record<string, unknown>;

  if (path === '' && issue.keyword === 'additionalProperties') {
    return `The body must have the single root key ${rootKey}; found ${String(params.additionalProperty)}.`;
  }
  if (path === '' && (issue.keyword === 'type' || issue.keyword === 'required')) {
    return `The body must be a JSON object with the root key ${rootKey}.`;
  }
  if (issue.keyword === 'required') {
    // Never at the root: answered above.
    return `${path}.${String(params.missingProperty)} is required.`;
  }
  const field = [...segments].reverse().find((segment) => !/^\d+$/.test(segment)) ?? '';
  const rule = ownProperty(FIELD_RULES, field) as string | undefined;
  return `${path} ${rule ?? issue.message ?? 'is invalid'}.`;
}
