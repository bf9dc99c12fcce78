import type { FastifyInstance } from 'fastify';
import { field, sendPage, sessionOf, type ConsoleDeps } from '../console-context.js';
import { progressWords, settleInterrupted, type ImportRunner } from '../console-imports.js';
import { importPage, importsPage } from '../pages/imports-page.js';

const RECENT_IMPORTS = 10;

/** Orders and airline changes from a file, all or nothing, as `airorder orders import` and `changes import` do. */
export function importRoutes(app: FastifyInstance, deps: ConsoleDeps, runner: ImportRunner): void {
  const listPage = async (request: Parameters<typeof sessionOf>[0], error: string | null) =>
    importsPage({ session: sessionOf(request), imports: await settleInterrupted(deps, await deps.store.read.consoleImports.recent(RECENT_IMPORTS)), error });

  /** The import, with a running one whose process is gone shown (and stored) as failed. */
  const findImport = async (importId: string) => {
    const found = await deps.store.read.consoleImports.find(importId);
    return found ? (await settleInterrupted(deps, [found]))[0]! : null;
  };

  app.get('/imports', async (request, reply) => sendPage(reply, await listPage(request, null)));

  app.post('/imports', async (request, reply) => {
    const session = sessionOf(request);
    const kind = field(request, 'kind') === 'changes' ? 'changes' : 'orders';
    const file = (request.body as FormData).get('file');
    if (!(file instanceof Blob) || file.size === 0) return sendPage(reply, await listPage(request, 'Choose a file to upload.'), 400);
    const fileName = ('name' in file && typeof file.name === 'string' && file.name !== '' ? file.name : 'upload').slice(0, 200);
    const importId = await runner.start({
      kind, fileName, content: Buffer.from(await file.arrayBuffer()), upsert: field(request, 'upsert') === 'on', operatorEmail: session.email, requestId: request.id,
    });
    // The import runs on: its page shows how far it has come, whichever process answers.
    return reply.redirect(`/console/imports/${importId}`, 303);
  });

  app.get('/imports/:importId', async (request, reply) => {
    const entry = await findImport((request.params as { importId: string }).importId);
    return entry ? sendPage(reply, importPage({ session: sessionOf(request), entry })) : reply.callNotFound();
  });

  /** What the page's script reads every second while the import runs. */
  app.get('/imports/:importId/progress', async (request, reply) => {
    const entry = await findImport((request.params as { importId: string }).importId);
    if (!entry) return reply.callNotFound();
    return reply.header('cache-control', 'no-store').send({
      status: entry.status, phase: entry.phase, recordsRead: entry.recordsRead, recordsStored: entry.recordsStored, recordsTotal: entry.recordsTotal, updatedAt: entry.updatedAt, ...progressWords(entry),
    });
  });
}
