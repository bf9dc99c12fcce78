import fs from 'node:fs';

export interface ImportProgress {
  /** `count` records imported after `bytesRead` bytes of the input. */
  report(count: number, bytesRead: number): void;
  done(): void;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  // Rounded first, so that 119.6 s reads 2m00s, not 1m60s.
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return minutes > 0 ? `${minutes}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}

/** `[#####.....] 40%`: a bar of `fraction` done. */
function bar(fraction: number): string {
  const width = 24;
  const filled = Math.round(Math.min(1, fraction) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(Math.min(1, fraction) * 100)}%`;
}

/**
 * A progress line for an import of FILE (or standard input for `-`) on standard error, with the rate
 * and, for a file, the ETA; drawn only while a person watches (a terminal). A missing FILE fails here,
 * before anything is opened.
 */
export function importProgress(
  file: string,
  what: string,
  stderr: NodeJS.WriteStream = process.stderr,
): ImportProgress {
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
        line = `${bar(fraction)} ${line}, ETA ${duration(fraction > 0 ? seconds / fraction - seconds : Infinity)}`;
      }
      stderr.write(`\r${line}\u001b[K`);
      drawn = true;
    },
    done: () => {
      if (drawn) stderr.write('\n');
    },
  };
}

export interface CountProgress {
  /** `done` of `total` done (called as often as convenient). */
  report(done: number, total: number): void;
  /** Ends the bar's line, if one was drawn. */
  done(): void;
}

/** How often a line is written where nothing can be redrawn (a log file, a service manager's journal). */
const PLAIN_LINE_EVERY_MS = 5000;

/**
 * Progress of a long step counted in items (`what`: the upgrade's copy of orders) on standard error:
 * on a terminal a bar that redraws in place, with the ETA; otherwise, since a log cannot be redrawn,
 * a plain line at the start, at each further tenth done or every few seconds, and at the end.
 */
export function countProgress(what: string, stderr: NodeJS.WriteStream = process.stderr): CountProgress {
  let started: { at: number; done: number } | null = null;
  let drawn = false;
  let lastLine = { at: 0, tenth: -1 };
  return {
    report: (done, total) => {
      if (total <= 0) return;
      const now = Date.now();
      started ??= { at: now, done };
      const fraction = done / total;
      const seconds = (now - started.at) / 1000;
      const fractionHere = (done - started.done) / total;
      const eta = fractionHere > 0 ? duration((seconds / fractionHere) * (1 - fraction)) : '?';
      const count = `${done.toLocaleString('en')} of ${total.toLocaleString('en')}`;
      if (stderr.isTTY) {
        stderr.write(`\r${bar(fraction)} ${what}: ${count}, ETA ${eta}\u001b[K`);
        drawn = true;
        return;
      }
      const tenth = Math.floor(fraction * 10);
      if (tenth === lastLine.tenth && now - lastLine.at < PLAIN_LINE_EVERY_MS && done < total) return;
      lastLine = { at: now, tenth };
      stderr.write(`${what}: ${count} (${Math.floor(fraction * 100)}%)\n`);
    },
    done: () => {
      if (drawn) stderr.write('\n');
      drawn = false;
    },
  };
}

/** The upgrade's copy of the orders into their records (migrator.ts), as `migrate`, `serve` and every command that migrates show it. */
export function upgradeProgress(stderr: NodeJS.WriteStream = process.stderr): CountProgress {
  return countProgress('upgrade: orders copied into records', stderr);
}
