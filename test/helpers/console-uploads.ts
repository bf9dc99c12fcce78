import assert from 'node:assert/strict';
import { ConsoleClient, csrfOf } from './console-client.js';
import { numberedOrder } from './big-import-files.js';
import { waitFor } from './held-connections.js';

/**
 * Uploads 6,000 orders of agency AG1 (`PREFIX-0`…) through the console's import form, as one file
 * big enough to be read for a while; returns the import's page.
 */
export async function uploadOrders(client: ConsoleClient, prefix: string): Promise<string> {
  const csrf = csrfOf((await client.request('/console/imports')).text);
  const line = numberedOrder(prefix, 'AG1');
  const form = new FormData();
  form.set('_csrf', csrf);
  form.set('kind', 'orders');
  form.set('file', new Blob([Array.from({ length: 6000 }, (_, index) => line(index)).join('\n')]), `${prefix}.ndjson`);
  const uploaded = await client.request('/console/imports', { body: form });
  assert.equal(uploaded.status, 303, uploaded.text);
  return uploaded.headers.get('location')!;
}

/** Polls the import's progress until it is no longer running; returns how it ended. */
export async function endedStatus(client: ConsoleClient, importPath: string): Promise<string> {
  let status = 'running';
  await waitFor(
    () => status !== 'running',
    `the import ${importPath} to end`,
    60_000,
    async () => {
      status = (JSON.parse((await client.request(`${importPath}/progress`)).text) as { status: string }).status;
    },
  );
  return status;
}
