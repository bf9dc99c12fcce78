import type { ConsoleImport } from '../../store/repositories/console-imports-repository.js';
import { progressWords } from '../console-imports.js';
import { html, type Html } from '../html.js';
import { csrfField, page } from '../layout.js';
import type { ConsoleSession } from '../sessions.js';

function kindName(entry: ConsoleImport): string {
  return entry.kind === 'orders' ? 'Orders' : 'Airline changes';
}

function uploadForm(session: ConsoleSession): Html {
  return html`<section class="card" aria-labelledby="upload"><h2 id="upload">Upload a file</h2>
<p>A JSON array, one object, or one object per line (NDJSON), as for <code>airorder orders import</code> and <code>airorder changes import</code>. All or nothing: a file with any error stores nothing.</p>
<form method="post" action="/console/imports" enctype="multipart/form-data" data-progress="import-status">${csrfField(session)}
<fieldset><legend>What the file holds</legend>
<input type="radio" id="kind-orders" name="kind" value="orders" checked><label for="kind-orders" class="inline-label">Orders</label>
<input type="radio" id="kind-changes" name="kind" value="changes"><label for="kind-changes" class="inline-label">Airline changes</label>
</fieldset>
<input type="checkbox" id="upsert" name="upsert"><label for="upsert" class="inline-label">Replace orders that exist already (orders only)</label>
<label for="file">File</label><input type="file" id="file" name="file" required accept=".json,.ndjson,.jsonl,application/json">
<div><button type="submit">Upload and import</button></div>
<p id="import-status" role="status" aria-live="polite"></p>
</form></section>`;
}

export function importsPage(input: {
  session: ConsoleSession;
  imports: ConsoleImport[];
  error: string | null;
}): string {
  return page(
    { title: 'Imports', section: 'Imports', session: input.session, error: input.error },
    html`
${uploadForm(input.session)}
<section class="card" aria-labelledby="recent"><h2 id="recent">Recent imports</h2>
${
  input.imports.length === 0
    ? html`<p class="muted">None yet.</p>`
    : html`<table><thead><tr><th scope="col">Started</th><th scope="col">File</th><th scope="col">Holds</th><th scope="col">Operator</th><th scope="col">State</th><th scope="col">Records</th></tr></thead><tbody>
${input.imports.map(
  (
    entry,
  ) => html`<tr><td>${entry.startedAt}</td><td><a href="/console/imports/${entry.importId}">${entry.fileName}</a></td><td>${kindName(entry)}</td><td>${entry.operatorEmail}</td>
<td>${progressWords(entry).label}</td><td>${progressWords(entry).counts}</td></tr>`,
)}
</tbody></table>`
}</section>`,
  );
}

/** The bar: how many of the total are stored, or, while reading (the total not yet known), no value at all. */
function progressBar(entry: ConsoleImport): Html {
  const words = progressWords(entry);
  const known = entry.status === 'done' || (entry.phase === 'storing' && entry.recordsTotal !== null);
  return html`<label for="import-bar" id="import-label">${words.label}</label>
<progress id="import-bar"${known ? html` max="${Math.max(entry.recordsTotal ?? 0, 1)}" value="${entry.recordsStored}"` : ''}>${words.counts}</progress>
<p id="import-counts">${words.counts}</p>`;
}

export function importPage(input: { session: ConsoleSession; entry: ConsoleImport }): string {
  const { entry } = input;
  const running = entry.status === 'running';
  return page(
    { title: `Import of ${entry.fileName}`, section: 'Imports', session: input.session },
    html`
<p>${kindName(entry)} uploaded by ${entry.operatorEmail} at ${entry.startedAt}; last progress at <span id="import-updated">${entry.updatedAt}</span>.</p>
${entry.status === 'done' ? html`<section class="notice" role="status" id="import-result"><p>${kindName(entry)} imported: <code>${entry.summary ?? ''}</code></p></section>` : ''}
${
  entry.status === 'failed'
    ? html`<section class="error" role="alert" id="import-result"><p>Nothing was stored: the file was refused as a whole.</p>
<p><code id="import-error">${entry.error ?? ''}</code></p>${entry.error?.startsWith('error: ') ? html`<p class="muted">The same line <code>airorder ${entry.kind} import</code> prints for this file.</p>` : ''}</section>`
    : ''
}
<section class="card" aria-labelledby="progress-heading" id="import-progress"${running ? html` data-progress-url="/console/imports/${entry.importId}/progress"` : ''}>
<h2 id="progress-heading">Progress</h2>
${entry.status === 'failed' ? html`<p id="import-counts">${progressWords(entry).counts}</p>` : progressBar(entry)}
<p id="import-phase" role="status" aria-live="polite">${running ? `Running: ${progressWords(entry).label.toLowerCase()}.` : ''}</p>
${running ? html`<p class="muted">This page follows the import by itself. <a href="/console/imports/${entry.importId}">Show the latest progress</a> (without scripts).</p>` : ''}
</section>
<p><a href="/console/imports">Upload another file</a></p>`,
  );
}
