/**
 * The console's only style sheet and script, served by the service itself (`/console/assets/…`):
 * the Content-Security-Policy allows nothing else, no inline code and nothing from elsewhere.
 */
export const CONSOLE_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4a5563; --line: #c9d1da; --accent: #0b5cad; --bad: #a4161a; --good: #1b6e3a; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--ink); background: #f6f8fa; }
a { color: var(--accent); }
a:focus, button:focus, input:focus, select:focus, textarea:focus { outline: 3px solid #f2a900; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 8px; top: 8px; background: #fff; padding: 6px; z-index: 2; }
header { background: #10263f; color: #fff; padding: 8px 16px; display: flex; gap: 24px; align-items: center; flex-wrap: wrap; }
header a { color: #fff; }
header nav ul { list-style: none; display: flex; gap: 16px; margin: 0; padding: 0; }
header nav a[aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
header .who { margin-left: auto; display: flex; gap: 12px; align-items: center; }
header button { background: #fff; color: #10263f; }
main { padding: 16px; max-width: 1200px; }
h1 { font-size: 1.5rem; margin: 8px 0 16px; }
h2 { font-size: 1.2rem; margin: 24px 0 8px; }
h3 { font-size: 1.05rem; margin: 16px 0 6px; }
table { border-collapse: collapse; background: #fff; margin-bottom: 12px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #e9eef3; }
section.card { background: #fff; border: 1px solid var(--line); padding: 8px 16px 16px; margin-bottom: 16px; }
form.inline { display: inline; }
label { display: block; font-weight: 600; margin-top: 8px; }
label.inline-label { display: inline; margin: 0 16px 0 4px; }
fieldset { border: 1px solid var(--line); margin-top: 8px; }
input[type=text], input[type=email], input[type=password], input[type=search], textarea, select { font: inherit; padding: 6px; border: 1px solid #6b7785; min-width: 280px; }
button { font: inherit; padding: 6px 12px; border: 1px solid #10263f; background: #10263f; color: #fff; cursor: pointer; margin-top: 8px; }
button.danger { background: var(--bad); border-color: var(--bad); }
.notice { border-left: 4px solid var(--good); background: #e8f5ec; padding: 8px 12px; }
.error { border-left: 4px solid var(--bad); background: #fbeaea; padding: 8px 12px; }
.secret { font-family: ui-monospace, monospace; font-size: 1.05rem; background: #fff8e1; padding: 6px; word-break: break-all; }
.muted { color: var(--muted); }
ol.timeline { list-style: none; padding: 0; border-left: 3px solid var(--line); margin-left: 8px; }
ol.timeline li { margin: 0 0 10px; padding-left: 12px; }
progress { display: block; width: 100%; max-width: 480px; height: 1.25rem; margin: 6px 0; }
code { font-family: ui-monospace, monospace; }
`;

/**
 * Says that an upload is being sent (and keeps it from being sent twice); on an import's page,
 * follows its progress (read from the store, whichever process answers) every second and shows
 * the outcome once it has finished. Without it the page has a link that shows the latest progress.
 */
export const CONSOLE_JS = `
document.querySelectorAll('form[data-progress]').forEach(function (form) {
  form.addEventListener('submit', function () {
    var status = document.getElementById(form.getAttribute('data-progress'));
    if (status) status.textContent = 'Uploading the file\\u2026 its import\\u2019s progress is shown as soon as it is sent.';
    form.querySelectorAll('button').forEach(function (button) { button.disabled = true; });
  });
});
var panel = document.querySelector('[data-progress-url]');
if (panel) {
  var url = panel.getAttribute('data-progress-url');
  var phase = null;
  var follow = function () {
    fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (progress) {
        if (!progress) { setTimeout(follow, 3000); return; }
        if (progress.status !== 'running') { window.location.reload(); return; }
        var bar = document.getElementById('import-bar');
        if (progress.phase === 'storing' && progress.recordsTotal !== null) {
          bar.max = Math.max(progress.recordsTotal, 1);
          bar.value = progress.recordsStored;
        } else {
          bar.removeAttribute('value');
        }
        bar.textContent = progress.counts;
        document.getElementById('import-label').textContent = progress.label;
        document.getElementById('import-counts').textContent = progress.counts;
        document.getElementById('import-updated').textContent = progress.updatedAt;
        // Announced when the phase changes, not at every count: a screen reader reads the bar on demand.
        if (progress.phase !== phase) {
          phase = progress.phase;
          document.getElementById('import-phase').textContent = 'Running: ' + progress.label.toLowerCase() + '.';
        }
        setTimeout(follow, 1000);
      }, function () { setTimeout(follow, 3000); });
  };
  setTimeout(follow, 1000);
}
`;
