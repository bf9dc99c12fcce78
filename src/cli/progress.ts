import fs from 'node:fs';
import type { Readable } from 'node:stream';

export interface ImportInput {
  stream: Readable;
  /** Reports progress on standard error while a person watches; silent when it is not a terminal. */
  progress(what: string): (count: number) => void;
  done(): void;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m${String(Math.round(seconds % 60)).padStart(2, '0')}s` : `${Math.round(seconds)}s`;
}

/** FILE, or standard input for `-`, with a progress bar (rate and, for a file, ETA) on a terminal. */
export function openImportInput(file: string, stderr: NodeJS.WriteStream = process.stderr): ImportInput {
  const stream = file === '-' ? process.stdin : fs.createReadStream(file);
  const total = file === '-' ? null : fs.statSync(file).size;
  const started = Date.now();
  let drawn = false;
  return {
    stream,
    progress: (what) => (count) => {
      if (!stderr.isTTY) return;
      const seconds = (Date.now() - started) / 1000;
      const rate = seconds > 0 ? Math.round(count / seconds) : 0;
      let line = `${what}: ${count.toLocaleString('en')} (${rate.toLocaleString('en')}/s)`;
      if (total) {
        const fraction = Math.min(1, (stream as fs.ReadStream).bytesRead / total);
        const width = 24;
        const filled = Math.round(fraction * width);
        line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(fraction * 100)}% ${line}, ETA ${duration(fraction > 0 ? seconds / fraction - seconds : Infinity)}`;
      }
      stderr.write(`\r${line}\u001b[K`);
      drawn = true;
    },
    done: () => {
      if (drawn) stderr.write('\n');
    },
  };
}
