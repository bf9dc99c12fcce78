import { formatAmount, isTooLargeAmount, LARGEST_MINOR, parseAmount, type Minor } from '../domain/money.js';
import { FieldError } from './document-error.js';
import { child, type FieldPath } from './field-path.js';

export type Json = Record<string, unknown>;

export function object(value: unknown, path: FieldPath): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new FieldError(path || 'the record', 'must be a JSON object');
  return value as Json;
}

export function array(value: unknown, path: FieldPath, min: number, max: number): unknown[] {
  if (!Array.isArray(value)) throw new FieldError(path, 'must be an array');
  if (value.length < min || value.length > max)
    throw new FieldError(path, `must have ${min} to ${max} entries, has ${value.length}`);
  return value;
}

export function text(value: unknown, path: FieldPath, pattern: RegExp, rule: string): string {
  if (typeof value !== 'string') throw new FieldError(path, value === undefined ? 'is required' : 'must be a string');
  if (!pattern.test(value)) throw new FieldError(path, `${rule}, got ${JSON.stringify(value.slice(0, 80))}`);
  return value;
}

export function optionalText(value: unknown, path: FieldPath, pattern: RegExp, rule: string): string | null {
  return value === undefined || value === null ? null : text(value, path, pattern, rule);
}

export function bool(value: unknown, path: FieldPath): boolean {
  if (typeof value !== 'boolean')
    throw new FieldError(path, value === undefined ? 'is required' : 'must be true or false');
  return value;
}

export function oneOf<T extends string>(value: unknown, path: FieldPath, allowed: readonly T[], fallback?: T): T {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new FieldError(path, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO-8601 date-time with a zone; returned as given (local times of airports matter to people). */
export function instant(value: unknown, path: FieldPath): string {
  instantTime(value, path);
  return value as string;
}

/** The time of an `instant`, in milliseconds since the epoch, for callers that compare instants. */
export function instantTime(value: unknown, path: FieldPath): number {
  const raw = text(
    value,
    path,
    ISO_INSTANT,
    'must be an ISO-8601 date-time with a time zone, such as 2026-12-01T10:00:00Z',
  );
  const time = Date.parse(raw);
  if (Number.isNaN(time) || !dayExists(raw)) {
    throw new FieldError(path, `is not a real date-time, got ${JSON.stringify(raw)}`);
  }
  return time;
}

/**
 * Whether the date's day is one its month has: Date.parse refuses day 32 but rolls 30 February over
 * to 2 March, and the text would be kept as given, naming a day that does not exist.
 */
function dayExists(raw: string): boolean {
  const day = Number(raw.slice(8, 10));
  const date = new Date(0);
  date.setUTCFullYear(Number(raw.slice(0, 4)), Number(raw.slice(5, 7)) - 1, day);
  return date.getUTCDate() === day;
}

export function amount(value: unknown, path: FieldPath, currency: string): Minor {
  if (typeof value !== 'string') throw new FieldError(path, 'must be a decimal string such as "450.00"');
  const minor = parseAmount(value, currency);
  if (minor === null) {
    const got = JSON.stringify(value.slice(0, 80));
    if (isTooLargeAmount(value, currency)) {
      throw new FieldError(
        path,
        `must be at most ${formatAmount(LARGEST_MINOR, currency)} ${currency} (${LARGEST_MINOR} minor units), got ${got}`,
      );
    }
    throw new FieldError(path, `must be a non-negative decimal with at most the decimals of ${currency}, got ${got}`);
  }
  return minor;
}

export function unique(values: readonly string[], path: FieldPath, what: string): void {
  const seen = new Set<string>();
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index]!;
    if (seen.has(value)) throw new FieldError(child(path, index), `repeats the ${what} ${value}`);
    seen.add(value);
  }
}
