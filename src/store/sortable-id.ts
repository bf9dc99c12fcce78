import { randomBytes } from 'node:crypto';

let counter = 0;
const processTag = randomBytes(4).toString('hex');

/**
 * `evt_` ids that sort in the order this process made them: the time, a counter, then a tag of the
 * process so that ids of several processes never collide. Audit events and agency events share it.
 */
export function nextEventId(): string {
  counter = (counter + 1) % 0x1_0000_0000;
  return `${eventIdAt(Date.now())}${counter.toString(16).padStart(8, '0')}${processTag}`;
}

/** The beginning of every id made at `ms`: ids made before it sort below it. */
export function eventIdAt(ms: number): string {
  return `evt_${ms.toString(16).padStart(12, '0')}`;
}
