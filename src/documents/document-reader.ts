import { DocumentError, FieldError } from './document-error.js';

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
    if (trimmed.startsWith('[')) throw new DocumentError('the file', '', `is not valid JSON: ${(error as Error).message}`);
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

/** Reads every record with `read`, naming the record in the first error found. */
export function readEach<T>(records: RawRecord[], read: (value: unknown) => T): T[] {
  return records.map(({ label, value }) => {
    try {
      return read(value);
    } catch (error) {
      if (error instanceof FieldError) throw new DocumentError(label, error.field, error.problem);
      throw error;
    }
  });
}
