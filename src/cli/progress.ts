import fs from 'node:fs';

export interface ImportProgress {
  /** `count` records imported after `bytesRead` bytes of the input. */
  report(count: number, bytesRead: number): void;
  done(): void;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes}m${String(Math.round(seconds % 60)).padStart(2, '0')}s` : `${Math.round(seconds)}s`;
}

/**
 * A progress line for an import of FILE (or standard input for `-`) on standard error, with the rate
 * and, for a file, the ETA; drawn only while a person watches (a terminal). A missing FILE fails here,
 * before anything is opened.
 */
export function importProgress(file: string, what: string, stderr: NodeJS.WriteStream = process.stderr): ImportProgress {
  const total = file === '-' ? null : fs.statSync(file).size;
  const started = Date.now();
  let drawn = false;
  return {
    report: (count, bytesRead) => {
      if (!stderr.isTTY) return;
      const seconds = (Date.now() - started) / 1000;
      const rate = seconds > 0 ? Math.round(count / seconds) : 0;
      let line = `${what}: ${count.toLocaleString('en')} (${rate.toLocaleString('en')}/s)`;
      if (total) {
        const fraction = Math.min(1, bytesRead / total);
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
