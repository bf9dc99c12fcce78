import { html } from '../html.js';
import { csrfField, page } from '../layout.js';
import type { ConsoleSession } from '../sessions.js';

export interface ImportResult {
  kind: 'orders' | 'changes';
  ok: boolean;
  message: string;
  /** The message is the CLI's own line for this file. */
  cliError: boolean;
}

export function importsPage(input: { session: ConsoleSession; result: ImportResult | null }): string {
  const { result } = input;
  return page({ title: 'Imports', section: 'Imports', session: input.session }, html`
<div id="import-status" role="status" aria-live="polite"></div>
${result ? (result.ok
    ? html`<section class="notice" role="status" id="import-result"><p>${result.kind === 'orders' ? 'Orders' : 'Airline changes'} imported: <code>${result.message}</code></p></section>`
    : html`<section class="error" role="alert" id="import-result"><p>Nothing was stored: the file was refused as a whole.</p>
<p><code id="import-error">${result.message}</code></p>${result.cliError ? html`<p class="muted">The same line <code>airorder ${result.kind} import</code> prints for this file.</p>` : ''}</section>`) : ''}
<section class="card" aria-labelledby="upload"><h2 id="upload">Upload a file</h2>
<p>A JSON array, one object, or one object per line (NDJSON), as for <code>airorder orders import</code> and <code>airorder changes import</code>. All or nothing: a file with any error stores nothing.</p>
<form method="post" action="/console/imports" enctype="multipart/form-data" data-progress="import-status">${csrfField(input.session)}
<fieldset><legend>What the file holds</legend>
<input type="radio" id="kind-orders" name="kind" value="orders" checked><label for="kind-orders" class="inline-label">Orders</label>
<input type="radio" id="kind-changes" name="kind" value="changes"><label for="kind-changes" class="inline-label">Airline changes</label>
</fieldset>
<input type="checkbox" id="upsert" name="upsert"><label for="upsert" class="inline-label">Replace orders that exist already (orders only)</label>
<label for="file">File</label><input type="file" id="file" name="file" required accept=".json,.ndjson,.jsonl,application/json">
<div><button type="submit">Upload and import</button></div>
</form></section>`);
}
