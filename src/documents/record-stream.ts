import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { DocumentError } from './document-error.js';
import { readRecords, type RawRecord } from './document-reader.js';

function parsesAsObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/**
 * The records of an input one at a time. NDJSON is streamed line by line,
 * so memory stays flat whatever the file's size; a JSON array or a pretty-printed object is read
 * whole (use NDJSON for very large files).
 */
export async function* streamRecords(input: Readable): AsyncGenerator<RawRecord> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let mode: 'unknown' | 'ndjson' | 'whole' = 'unknown';
  const held: string[] = [];
  let number = 0;
  for await (const line of lines) {
    number += 1;
    if (mode === 'unknown') {
      held.push(line);
      if (line.trim() === '') continue;
      mode = line.trim().startsWith('{') && parsesAsObject(line) ? 'ndjson' : 'whole';
      if (mode === 'whole') continue;
      yield { label: `line ${number}`, value: JSON.parse(line) };
      held.length = 0;
      continue;
    }
    if (mode === 'whole') {
      held.push(line);
      continue;
    }
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new DocumentError(`line ${number}`, '', `is not valid JSON: ${(error as Error).message}`);
    }
    yield { label: `line ${number}`, value };
  }
  if (mode === 'whole') yield* readRecords(held.join('\n'));
}
