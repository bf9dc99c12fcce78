import { DocumentError, FieldError } from './document-error.js';
import { locateJsonSyntaxError } from './json-syntax.js';
import { ORDER_ID } from './order-document.js';

export interface RawRecord {
  /** How errors name the record: `record 3` (position in a JSON array or the single object) or `line 7` (NDJSON). */
  label: string;
  value: unknown;
}

/** Reads a JSON array, a single JSON object, or NDJSON (one object per line, blank lines allowed). */
export function readRecords(content: string): RawRecord[] {
  const trimmed = content.trim();
  if (trimmed === '') return [];
  try {
    const whole: unknown = JSON.parse(trimmed);
    if (Array.isArray(whole)) return whole.map((value, index) => ({ label: `record ${index + 1}`, value }));
    return [{ label: 'record 1', value: whole }];
  } catch (error) {
    // A JSON array, or a pretty-printed object (its first line is not JSON alone), is not NDJSON:
    // name the line where the whole text breaks.
    const firstLine = content.split('\n').find((line) => line.trim() !== '') ?? '';
    if (trimmed.startsWith('[') || !parsesAlone(firstLine)) {
      const at = locateJsonSyntaxError(content);
      if (at)
        throw new DocumentError(
          `line ${at.line}`,
          '',
          `is not valid JSON: unexpected ${at.found} at column ${at.column}`,
        );
      throw new DocumentError('the file', '', `is not valid JSON: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const records: RawRecord[] = [];
  for (const [index, line] of content.split('\n').entries()) {
    if (line.trim() === '') continue;
    try {
      records.push({ label: `line ${index + 1}`, value: JSON.parse(line) });
    } catch (error) {
      throw new DocumentError(`line ${index + 1}`, '', `is not valid JSON: ${(error as Error).message}`);
    }
  }
  return records;
}

function parsesAlone(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** Reads every record with `read`, naming the record in the first error found. */
export function readEach<T>(records: RawRecord[], read: (value: unknown) => T): T[] {
  return records.map(({ label, value }) => {
    try {
      return read(value);
    } catch (error) {
      if (error instanceof FieldError)
        throw new DocumentError(label, error.field, error.problem, readableOrderId(value));
      throw error;
    }
  });
}

/** The record's orderId if it has a valid one (orders and changes name theirs alike), for errors to name; else null. */
export function readableOrderId(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { orderId } = value as { orderId?: unknown };
  return typeof orderId === 'string' && ORDER_ID.test(orderId) ? orderId : null;
}
