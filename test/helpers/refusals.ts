import assert from 'node:assert/strict';
import { DocumentError, FieldError } from '../../src/documents/document-error.js';

/** The field a reader refused and the words it used: what the operator reads after the record's name. */
export function fieldRefusal(read: () => unknown): { field: string; problem: string } {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof FieldError, String(error));
    return { field: error.field, problem: error.problem };
  }
  assert.fail('read without a refusal');
}

/** The whole line an import error shows (`line 4: is not valid JSON: …`), from a DocumentError. */
export function documentRefusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof DocumentError, String(error));
    return error.message;
  }
  assert.fail('read without a refusal');
}

/** The same, for an asynchronous read. */
export async function documentRefusalOf(read: () => Promise<unknown>): Promise<string> {
  try {
    await read();
  } catch (error) {
    assert.ok(error instanceof DocumentError, String(error));
    return error.message;
  }
  assert.fail('read without a refusal');
}

/** What JSON.parse says of `text`, in this Node's words: the message a short line of NDJSON that is no JSON gets. */
export function parseMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail(`${text} is JSON`);
}
