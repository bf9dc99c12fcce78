import { randomBytes } from 'node:crypto';

let counter = 0;
const processTag = randomBytes(4).toString('hex');

/** Ids of one block (`nextEventIdBlock`): as many as a counter's last hexadecimal digit can tell apart. */
export const EVENT_ID_BLOCK = 16;
/** Where the counter's last digit stands in an id: after `evt_`, 12 digits of time and 7 of the counter. */
export const BLOCK_DIGIT = 4 + 12 + 7;

function idOf(time: string, count: number): string {
  return `${time}${count.toString(16).padStart(8, '0')}${processTag}`;
}

/**
 * `evt_` ids that sort in the order this process made them: the time, a counter, then a tag of the
 * process so that ids of several processes never collide. Audit events and agency events share it.
 */
export function nextEventId(): string {
  counter = (counter + 1) % 0x1_0000_0000;
  return idOf(eventIdAt(Date.now()), counter);
}

/**
 * `count` ids (1 to 16) of one time, their counters consecutive from one whose last digit is 0: the
 * i-th id ends its counter with the digit i, so every id of the block leads to the first
 * (`eventBlockKey`), under which the event log keeps them in one row (events-repository.ts). They
 * sort after every id this process made before, as `nextEventId`'s do.
 */
export function nextEventIdBlock(count: number): string[] {
  if (count < 1 || count > EVENT_ID_BLOCK)
    throw new RangeError(`a block holds 1 to ${EVENT_ID_BLOCK} ids, not ${count}`);
  const first = ((Math.floor(counter / EVENT_ID_BLOCK) + 1) * EVENT_ID_BLOCK) % 0x1_0000_0000;
  counter = first + count - 1;
  const time = eventIdAt(Date.now());
  return Array.from({ length: count }, (_, index) => idOf(time, first + index));
}

/** The first id of the block `id` would belong to (`nextEventIdBlock`); any other text as it is. */
export function eventBlockKey(id: string): string {
  return id.length > BLOCK_DIGIT ? `${id.slice(0, BLOCK_DIGIT)}0${id.slice(BLOCK_DIGIT + 1)}` : id;
}

/** The beginning of every id made at `ms`: ids made before it sort below it. */
export function eventIdAt(ms: number): string {
  return `evt_${ms.toString(16).padStart(12, '0')}`;
}
