import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  BLOCK_DIGIT,
  EVENT_ID_BLOCK,
  eventBlockKey,
  eventIdAt,
  nextEventId,
  nextEventIdBlock,
} from '../../src/store/sortable-id.js';

const ID = /^evt_([0-9a-f]{12})([0-9a-f]{8})([0-9a-f]{8})$/;

function parts(id: string): { time: number; counter: number; tag: string } {
  const match = ID.exec(id);
  assert.ok(match, `${id} is evt_, 12 hexadecimal digits of time, 8 of a counter and 8 of the process`);
  return { time: parseInt(match[1]!, 16), counter: parseInt(match[2]!, 16), tag: match[3]! };
}

const sorted = (ids: string[]) => [...ids].sort();

describe('sortable event ids', () => {
  test("an id is evt_, the time in milliseconds, a counter and the process's tag", () => {
    const before = Date.now();
    const id = parts(nextEventId());
    assert.ok(id.time >= before && id.time <= Date.now(), 'the time it was made');
    assert.equal(parts(nextEventId()).tag, id.tag, 'one tag for the process');
  });

  test('ids sort in the order they were made, and the counter goes up by one', () => {
    const ids = Array.from({ length: 50 }, () => nextEventId());
    assert.deepEqual(sorted(ids), ids);
    assert.equal(new Set(ids).size, ids.length);
    for (let index = 1; index < ids.length; index += 1)
      assert.equal(parts(ids[index]!).counter, parts(ids[index - 1]!).counter + 1);
  });

  test('eventIdAt is evt_ and the time in 12 hexadecimal digits, below every id made at that time or later', () => {
    assert.equal(eventIdAt(0), 'evt_000000000000');
    assert.equal(eventIdAt(0x1_2345_6789), 'evt_000123456789');
    const at = Date.now();
    const id = nextEventId();
    assert.ok(eventIdAt(at) < id);
    assert.ok(eventIdAt(at + 60_000) > id);
  });

  test('a block of 1 to 16 ids: one time, counters consecutive from one ending in 0, after every id made before', () => {
    const before = nextEventId();
    for (const count of [1, 5, EVENT_ID_BLOCK]) {
      const block = nextEventIdBlock(count);
      assert.equal(block.length, count);
      const first = parts(block[0]!);
      assert.equal(first.counter % EVENT_ID_BLOCK, 0, 'the first counter ends in the digit 0');
      block.forEach((id, index) => {
        const part = parts(id);
        assert.equal(part.counter, first.counter + index);
        assert.equal(part.time, first.time);
        assert.equal(id[BLOCK_DIGIT], index.toString(16), 'the i-th id ends its counter with the digit i');
      });
      assert.deepEqual(sorted(block), block);
      assert.ok(block[0]! > before, 'after the ids made before');
    }
    const next = nextEventId();
    const last = nextEventIdBlock(2);
    assert.ok(next < last[0]!, 'ids made after a block, and blocks after those, sort after it');
    assert.equal(parts(nextEventId()).counter, parts(last[1]!).counter + 1, 'the counter goes on from the block');
  });

  test('a block of 0 or 17 ids is refused, saying what a block holds', () => {
    for (const count of [0, -1, EVENT_ID_BLOCK + 1])
      assert.throws(() => nextEventIdBlock(count), {
        name: 'RangeError',
        message: `a block holds 1 to 16 ids, not ${count}`,
      });
  });

  test("every id of a block leads to the block's first; any other text is its own key", () => {
    const block = nextEventIdBlock(EVENT_ID_BLOCK);
    for (const id of block) assert.equal(eventBlockKey(id), block[0]);
    const alone = nextEventId();
    assert.equal(eventBlockKey(alone).length, alone.length);
    assert.equal(eventBlockKey(alone), `${alone.slice(0, BLOCK_DIGIT)}0${alone.slice(BLOCK_DIGIT + 1)}`);
    const short = alone.slice(0, BLOCK_DIGIT);
    assert.equal(eventBlockKey(short), short, 'an id cut before the digit is left as it is');
    assert.equal(eventBlockKey(`${short}7`), `${short}0`, 'one that ends at the digit is led to 0');
    assert.equal(eventBlockKey(''), '');
  });
});
