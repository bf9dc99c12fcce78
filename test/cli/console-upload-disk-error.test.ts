/**
 * A console upload that the service cannot write to disk is the service's failure, not the
 * operator's: `airorder serve` runs (on the store TEST_STORE names) with a limit on the size of a
 * file it may write (RLIMIT_FSIZE, 2 MB), so writing a larger upload to its temporary file fails
 * with a system error (EFBIG, as a full disk fails with ENOSPC). The answer is a 500 that points to
 * the log, which has the error at error level; no import starts and the upload's folder is removed.
 * A malformed form, the operator's mistake, is a 400 instead (test/integration/console-refusals).
 * And a temporary folder the service cannot list as it starts (to remove what stopped processes
 * left there) is a warning, not a reason not to start.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CliSandbox } from '../helpers/cli.js';
import { csrfOf } from '../helpers/console-client.js';
import { SignedInConsole } from '../helpers/console-sandbox.js';
import { simpleOrder } from '../helpers/documents.js';
import { waitFor } from '../helpers/held-connections.js';
import { createTestDatabase } from '../helpers/test-database.js';

const EMAIL = 'desk@airline.example';
const PASSWORD = 'twelve chars long';
const FILE_LIMIT_BYTES = 2 * 1024 * 1024;

let desk: SignedInConsole;

before(async () => {
  desk = await SignedInConsole.start(EMAIL, PASSWORD, { fileSizeBytes: FILE_LIMIT_BYTES });
});

after(async () => {
  await desk?.close();
});

/** The service's log lines at error level or above (pino: error is 50). */
function errorLines(): { msg: string; err?: { code?: string; syscall?: string } }[] {
  return desk.server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line))
    .filter((line) => line.level >= 50);
}

async function upload(content: string): Promise<{ status: number; text: string }> {
  const page = await desk.browser.request('/console/imports');
  const form = new FormData();
  form.set('_csrf', csrfOf(page.text));
  form.set('kind', 'orders');
  form.set('file', new Blob([content], { type: 'application/json' }), 'orders.json');
  return desk.browser.request('/console/imports', { body: form });
}

test('an upload the service cannot write to disk is a 500 that points to the log: no import, no folder left', async () => {
  const orders = [simpleOrder('ORD-D1', 'AG1', 'DSK001')];
  // Valid JSON, padded past the file limit with white space.
  const content = JSON.stringify(orders) + ' '.repeat(FILE_LIMIT_BYTES + 64 * 1024);
  const answer = await upload(content);
  assert.equal(answer.status, 500, answer.text.slice(0, 300));
  assert.match(
    answer.text,
    /<p class="error" role="alert">Something went wrong \(request [^)]+\); the service log has the details\.<\/p>/,
  );
  // The request's log line is written once it is answered; the error's, before it.
  await waitFor(() => desk.server.stdout().includes('"operation":"POST /console/imports"'), "the upload's log line");
  const errors = errorLines();
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0]!.msg, 'console request failed');
  assert.equal(errors[0]!.err?.code, 'EFBIG');
  assert.equal(errors[0]!.err?.syscall, 'write');
  assert.deepEqual(desk.uploadFolders(), [], "the upload's folder is removed");
  const imports = await desk.browser.request('/console/imports');
  assert.match(imports.text, /<h2 id="recent">Recent imports<\/h2>\s*<p class="muted">None yet\.<\/p>/);
  assert.equal(desk.server.child.exitCode, null, 'the service is still running');

  // The same file within the limit is imported: the refusal was the disk's, not the file's.
  const small = await upload(JSON.stringify(orders));
  assert.equal(small.status, 303, small.text.slice(0, 300));
});

test('a temporary folder that cannot be read as the service starts: a warning naming the error, and the service starts', async () => {
  const sandbox = new CliSandbox();
  const database = await createTestDatabase(sandbox.dir);
  try {
    sandbox.useDatabase(database.url);
    await sandbox.ok(['migrate']);
    // A file where the folder should be: listing it fails (ENOTDIR), as an unreadable folder would.
    const server = await sandbox.serve([], { env: { TMPDIR: sandbox.write('not-a-folder', '') } });
    const warning = () =>
      server
        .stdout()
        .split('\n')
        .filter((text) => text.startsWith('{'))
        .map((text) => JSON.parse(text))
        .find((entry) => entry.msg === 'upload files of stopped processes not removed');
    await waitFor(() => warning() !== undefined, 'the warning');
    assert.equal(warning().level, 40, 'a warning');
    assert.equal(warning().err.code, 'ENOTDIR');
    assert.equal((await server.get('/healthz')).status, 200);
  } finally {
    await sandbox.cleanup();
    await database.drop();
  }
});
