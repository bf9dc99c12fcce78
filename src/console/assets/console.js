/*
 * The console's only script, served by the service itself at /console/assets/console.js
 * (src/console/assets.ts); a classic browser script, not a module.
 *
 * Says that an upload is being sent (and keeps it from being sent twice); on an import's page,
 * follows its progress (read from the store, whichever process answers) every second and shows
 * the outcome once it has finished. Without it the page has a link that shows the latest progress.
 */
document.querySelectorAll('form[data-progress]').forEach(function (form) {
  form.addEventListener('submit', function () {
    var status = document.getElementById(form.getAttribute('data-progress'));
    if (status)
      status.textContent = 'Uploading the file\u2026 its import\u2019s progress is shown as soon as it is sent.';
    form.querySelectorAll('button').forEach(function (button) {
      button.disabled = true;
    });
  });
});
var panel = document.querySelector('[data-progress-url]');
if (panel) {
  var url = panel.getAttribute('data-progress-url');
  var phase = null;
  var follow = function () {
    fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'same-origin' })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(
        function (progress) {
          if (!progress) {
            setTimeout(follow, 3000);
            return;
          }
          if (progress.status !== 'running') {
            window.location.reload();
            return;
          }
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
        },
        function () {
          setTimeout(follow, 3000);
        },
      );
  };
  setTimeout(follow, 1000);
}
