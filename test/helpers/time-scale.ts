/**
 * One time scale for every wall-clock limit of the tests and their runner: TEST_TIME_SCALE
 * (default 1, from 1 to 100) multiplies how long a test waits for a state before it gives up (a
 * service to answer /healthz, a browser page to show an element, a poll, a file's or a test's own
 * time limit). On a loaded machine everything is slower but nothing changes order, so waiting
 * longer makes the same run pass; a broken service still fails, only later. The scale never touches
 * what a test asserts: the service's own time-outs, retry schedules and clocks stay as they are.
 */

/** The scale in ENV, checked: a number from 1 to 100. */
export function timeScale(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.TEST_TIME_SCALE;
  if (text === undefined || text === '') return 1;
  const scale = Number(text);
  if (!/^[0-9]+(\.[0-9]+)?$/.test(text) || !(scale >= 1 && scale <= 100))
    throw new Error(`TEST_TIME_SCALE must be a number from 1 to 100, got ${JSON.stringify(text)}`);
  return scale;
}

const SCALE = timeScale();

/** MS milliseconds of waiting, times TEST_TIME_SCALE. */
export function scaled(ms: number, scale = SCALE): number {
  return Math.round(ms * scale);
}
