import os from 'node:os';

/**
 * `--workers`: a number from 1 to 999, or `auto` for one per core; null for anything else. Apart
 * from serve.ts so that reading the command line does not load the server, which only `serve` needs.
 */
export function parseWorkers(text: string): number | null {
  if (text === 'auto') return os.availableParallelism();
  return /^[1-9][0-9]{0,2}$/.test(text) ? Number(text) : null;
}
