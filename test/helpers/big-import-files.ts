/**
 * Import files of tens of megabytes, written piece by piece to disk (never one string in the test),
 * and a process's peak resident memory: for the tests and the measurement that show an import never
 * holds the document it reads.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { simpleOrder } from './documents.js';

/** Writes a JSON array of the records `record(0)`, `record(1)`, … one per line, until the file has `bytes`. */
export async function writeJsonArray(
  file: string,
  bytes: number,
  record: (index: number) => string,
): Promise<{ records: number; bytes: number }> {
  const out = fs.createWriteStream(file);
  let written = 0;
  let records = 0;
  const write = async (text: string) => {
    written += Buffer.byteLength(text);
    if (!out.write(text)) await new Promise<void>((drained) => out.once('drain', () => drained()));
  };
  await write('[\n');
  let piece = '';
  while (written + piece.length < bytes) {
    piece += `${records === 0 ? '' : ',\n'}${record(records)}`;
    records += 1;
    if (piece.length >= 64 * 1024) {
      await write(piece);
      piece = '';
    }
  }
  await write(`${piece}\n]\n`);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { records, bytes: written };
}

/** The smallest object a review sent by the million: valid JSON, not an order. */
export const smallObject = () => '{"a":1}';

/** A valid one-booking order of `agencyId`, distinct for each `index` (ids, reference, ticket). */
export function numberedOrder(prefix: string, agencyId: string): (index: number) => string {
  return (index) =>
    JSON.stringify(
      simpleOrder(
        `${prefix}-${index}`,
        agencyId,
        `R${index.toString(36).toUpperCase().padStart(6, '0')}`,
        `2207${String(index).padStart(9, '0')}`,
      ),
    );
}

/** The process's peak resident memory so far (VmHWM), in bytes. */
export function peakResident(pid: number): number {
  const line = /^VmHWM:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  assert.ok(line, 'VmHWM in /proc/PID/status');
  return Number(line[1]) * 1024;
}
