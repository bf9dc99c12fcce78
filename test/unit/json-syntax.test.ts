import assert from 'node:assert/strict';
import { test } from 'node:test';
import { locateJsonSyntaxError } from '../../src/documents/json-syntax.js';

/** Where JSON text first breaks, by the JSON grammar: the line, the column (from 1) and what was found there. */

const at = (line: number, column: number, found: string) => ({ line, column, found });
const END = 'the end of the input';

test('valid JSON has no syntax error, whatever its values, escapes and white space', () => {
  for (const text of [
    '{}',
    '[]',
    '{ }',
    '[ ]',
    '0',
    '-0.5e-3',
    '12E+2',
    '[1.25, 1e10, 2E05, 3e-10, 40.125E+12]',
    '"a b"',
    '"é😀"',
    '"\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uABCD"',
    '{"a": [1, -2.5e+3, true, false, null, "x"], "b": {"c": {}}}',
    ' \t\r\n{"a" : 1 , "b":[ 2 ,3 ] } \n\t\r ',
  ]) {
    assert.equal(locateJsonSyntaxError(text), null, text);
  }
});

test('a misplaced character is named with its line and column', () => {
  const cases: [string, ReturnType<typeof at>][] = [
    ['{"a":1,}', at(1, 8, '"}"')],
    ['[1,]', at(1, 4, '"]"')],
    ['[1 2]', at(1, 4, '"2"')],
    ['{"a" 1}', at(1, 6, '"1"')],
    ['{"a":1 "b":2}', at(1, 8, '"\\""')],
    ['{a:1}', at(1, 2, '"a"')],
    ['{,}', at(1, 2, '","')],
    ['[,1]', at(1, 2, '","')],
    ['[1}', at(1, 3, '"}"')],
    ['{"a":1]', at(1, 7, '"]"')],
    ['}', at(1, 1, '"}"')],
    ['[1] [2]', at(1, 5, '"["')],
    ['{} x', at(1, 4, '"x"')],
    ['"a b" x', at(1, 7, '"x"')],
  ];
  for (const [text, expected] of cases) assert.deepEqual(locateJsonSyntaxError(text), expected, text);
});

test('each kind of white space is skipped before, between and after values', () => {
  assert.deepEqual(locateJsonSyntaxError('[ 1,\t2,\r3, x]'), at(1, 12, '"x"'));
  assert.deepEqual(locateJsonSyntaxError('{ "a"\t:\r1 \n,\n x}'), at(3, 2, '"x"'));
  assert.deepEqual(locateJsonSyntaxError('[1]\t\r\n x'), at(2, 2, '"x"'));
});

test('a literal that is not true, false, null or a JSON number breaks where it starts or where it stops being one', () => {
  const cases: [string, ReturnType<typeof at>][] = [
    ['tru', at(1, 1, '"t"')],
    ['nul', at(1, 1, '"n"')],
    ['[True]', at(1, 2, '"T"')],
    ['-', at(1, 1, '"-"')],
    ['+1', at(1, 1, '"+"')],
    ['.5', at(1, 1, '"."')],
    ['01', at(1, 2, '"1"')],
    ['1.', at(1, 2, '"."')],
    ['1e', at(1, 2, '"e"')],
    ['1.5.2', at(1, 4, '"."')],
    ['[1, truex]', at(1, 9, '"x"')],
    ['[NaN]', at(1, 2, '"N"')],
  ];
  for (const [text, expected] of cases) assert.deepEqual(locateJsonSyntaxError(text), expected, text);
});

test('inside a string, a control character or a bad escape breaks at that character', () => {
  const cases: [string, ReturnType<typeof at>][] = [
    ['"a\tb"', at(1, 3, '"\\t"')],
    ['["a\nb"]', at(1, 4, '"\\n"')],
    ['"\u0000"', at(1, 2, '"\\u0000"')],
    ['"\u001f"', at(1, 2, '"\\u001f"')],
    ['"\\x"', at(1, 2, '"\\\\"')],
    ['"ab\\u12G4"', at(1, 4, '"\\\\"')],
    ['"\\u12"', at(1, 2, '"\\\\"')],
    ['"\\', at(1, 2, '"\\\\"')],
  ];
  for (const [text, expected] of cases) assert.deepEqual(locateJsonSyntaxError(text), expected, text);
});

test('text that ends too soon breaks at the end of the input', () => {
  const cases: [string, ReturnType<typeof at>][] = [
    ['', at(1, 1, END)],
    ['   ', at(1, 4, END)],
    ['{"a":1', at(1, 7, END)],
    ['[1,', at(1, 4, END)],
    ['{"a"', at(1, 5, END)],
    ['"abc', at(1, 5, END)],
    ['"abc\\"', at(1, 7, END)],
    ['[\n', at(2, 1, END)],
    ['{\n"a":\n', at(3, 1, END)],
  ];
  for (const [text, expected] of cases) assert.deepEqual(locateJsonSyntaxError(text), expected, text);
});

test('the line counts line breaks before the break; the column counts characters from the start of its line', () => {
  assert.deepEqual(locateJsonSyntaxError('[\n  1,\n  ]'), at(3, 3, '"]"'));
  assert.deepEqual(locateJsonSyntaxError('{\n"a":1\n"b":2}'), at(3, 1, '"\\""'));
  assert.deepEqual(locateJsonSyntaxError('[\r\n1,\r\n]'), at(3, 1, '"]"'));
  assert.deepEqual(locateJsonSyntaxError('["😀" x]'), at(1, 7, '"x"'));
});

test('nesting too deep to scan gives no position rather than failing', () => {
  assert.equal(locateJsonSyntaxError('['.repeat(200_000)), null);
});

test('a character that shows as nothing is named by its code', () => {
  assert.deepEqual(locateJsonSyntaxError('[\u200B1]'), at(1, 2, '"\\u200b"'));
  assert.deepEqual(locateJsonSyntaxError('\uFEFF[1]'), at(1, 1, '"\\ufeff"'));
});
