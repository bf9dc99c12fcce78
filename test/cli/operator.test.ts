/**
 * `airorder operator …` through the real CLI, and the console of `airorder serve --workers 2`: an
 * operator made on the command line signs in, the session holds whichever process answers, and what
 * they do for an agency shows in `airorder audit` with their email and reason; the overview counts the
 * requests of both workers, and an upload's progress shows whichever worker answers.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { asNdjson, CliSandbox } from '../helpers/cli.js';
import { ConsoleClient, csrfOf } from '../helpers/console-client.js';
import { change, segment, simpleOrder } from '../helpers/documents.js';
import { scaled } from '../helpers/time-scale.js';

const sandbox = new CliSandbox();
after(() => sandbox.cleanup());

const PASSWORD = 'twelve chars long';

test('operator add reads the password from standard input, stores only an scrypt hash, and refuses short passwords', async () => {
  const short = await sandbox.run(['operator', 'add', '--email', 'a@desk.example', '--name', 'A', '--password-stdin'], {
    stdin: 'short pass1\n',
  });
  assert.equal(short.code, 1);
  assert.equal(short.stderr, 'error: The password must be at least 12 characters.\n');
  const withoutStdin = await sandbox.run(['operator', 'add', '--email', 'a@desk.example', '--name', 'A']);
  assert.equal(withoutStdin.code, 1);
  assert.match(withoutStdin.stderr, /--password-stdin is required/);

  const added = await sandbox.run(
    ['operator', 'add', '--email', 'Desk@Airline.example', '--name', 'Dana Desk', '--password-stdin'],
    { stdin: `${PASSWORD}\n` },
  );
  assert.equal(added.code, 0, added.stderr);
  assert.equal(added.stdout, 'operator desk@airline.example added\n');
  const [row] = sandbox.query<{ email: string; password_hash: string }>('select email, password_hash from operators');
  assert.equal(row!.email, 'desk@airline.example');
  assert.match(row!.password_hash, /^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
  assert.ok(!row!.password_hash.includes(PASSWORD));

  const again = await sandbox.run(
    ['operator', 'add', '--email', 'desk@airline.example', '--name', 'Again', '--password-stdin'],
    { stdin: PASSWORD },
  );
  assert.equal(again.stderr, 'error: Operator desk@airline.example exists already.\n');
  assert.equal((await sandbox.ok(['operator', 'list'])).stdout, 'desk@airline.example\tDana Desk\tactive\n');
});

test('with serve --workers 2: sign in, act for an agency, and airorder audit names the operator and the reason; password and disable end sessions', async () => {
  await sandbox.ok(['agency', 'add', '--agency-id', 'AG1', '--name', 'Agency One']);
  await sandbox.ok([
    'orders',
    'import',
    sandbox.write('orders.ndjson', asNdjson([simpleOrder('OP-1', 'AG1', 'OPB001', '2201000000771')])),
  ]);
  await sandbox.ok([
    'changes',
    'import',
    sandbox.write('changes.ndjson', asNdjson([change('OPC-1', 'OP-1', 'OPB001', ['S1'], [segment('S1B', 1, 14)])])),
  ]);
  const server = await sandbox.serve(['--workers', '2']);
  const browser = new ConsoleClient(server.baseUrl);
  assert.equal((await browser.signIn('desk@airline.example', PASSWORD)).status, 303);
  for (let request = 0; request < 6; request += 1)
    assert.equal((await browser.request('/console')).status, 200, 'the session holds on every process');

  const path = '/console/orders/OP-1/bookings/OPB001/cancel';
  assert.equal((await browser.submit(path, path, { reason: 'Schedule no longer suits the passenger' })).status, 303);
  const trail = JSON.parse((await sandbox.ok(['audit', '--order', 'OP-1'])).stdout) as {
    actor: string;
    operation: string;
    operatorEmail?: string;
    reason?: string;
  }[];
  const byOperator = trail.filter((record) => record.operation === 'AirOrderInvoluntaryCancel');
  assert.ok(byOperator.length >= 2);
  for (const record of byOperator) {
    assert.equal(record.actor, 'operator');
    assert.equal(record.operatorEmail, 'desk@airline.example');
    assert.equal(record.reason, 'Schedule no longer suits the passenger');
  }

  // The overview counts the requests every worker answered; an upload's progress is read from whichever worker answers.
  const token = (await sandbox.ok(['token', 'issue', '--agency-id', 'AG1'])).stdout.trim();
  const retrieve = { OrderRetrieveRQ: { Query: { OrderID: 'OP-1', GdsBookingReference: ['OPB001'] } } };
  for (let request = 0; request < 6; request += 1)
    assert.equal((await server.post('/AirOrderRetrieve', retrieve, { authorization: `Bearer ${token}` })).status, 200);
  let shown = '';
  for (const deadline = Date.now() + scaled(20_000); !/<tr><td>OK<\/td><td>6<\/td><\/tr>/.test(shown);) {
    assert.ok(Date.now() < deadline, `the overview does not count the 6 requests of both workers: ${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    const overview = (await browser.request('/console')).text;
    shown = overview.slice(overview.indexOf('id="requests"'), overview.indexOf('id="actions"'));
  }
  const form = new FormData();
  form.set('_csrf', csrfOf((await browser.request('/console/imports')).text));
  form.set('kind', 'orders');
  form.set('file', new Blob([asNdjson([simpleOrder('OP-2', 'AG1', 'OPB002', '2201000000772')])]), 'one.ndjson');
  const uploaded = await browser.request('/console/imports', { body: form });
  assert.equal(uploaded.status, 303);
  let progress = { status: 'running' };
  for (const deadline = Date.now() + scaled(20_000); progress.status === 'running';) {
    assert.ok(Date.now() < deadline, 'the import did not finish');
    await new Promise((resolve) => setTimeout(resolve, 50));
    progress = JSON.parse((await browser.request(`${uploaded.headers.get('location')}/progress`)).text) as {
      status: string;
    };
  }
  assert.deepEqual(progress, { ...progress, status: 'done', recordsStored: 1, recordsTotal: 1 });
  const imported = JSON.parse((await sandbox.ok(['audit', '--order', 'OP-2'])).stdout) as {
    operation: string;
    operatorEmail?: string;
  }[];
  assert.deepEqual(
    imported.map((record) => [record.operation, record.operatorEmail]),
    [['orders import', 'desk@airline.example']],
  );

  await sandbox.ok(['operator', 'password', 'desk@airline.example', '--password-stdin'], {
    stdin: 'another long password',
  });
  assert.equal((await browser.request('/console')).status, 303, 'a new password ends the sessions');
  assert.equal((await browser.signIn('desk@airline.example', PASSWORD)).status, 401);
  assert.equal((await browser.signIn('desk@airline.example', 'another long password')).status, 303);
  await sandbox.ok(['operator', 'disable', 'desk@airline.example']);
  assert.equal((await browser.request('/console')).status, 303, 'disabling ends the sessions');
  assert.equal((await browser.signIn('desk@airline.example', 'another long password')).status, 401);
  assert.match((await sandbox.ok(['operator', 'list'])).stdout, /^desk@airline\.example\tDana Desk\tdisabled 20/);
});
