import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendPage, sessionOf, type ConsoleDeps } from '../console-context.js';
import { progressWords, settleInterrupted, type ImportRunner } from '../console-imports.js';
import { importPage, importsPage } from '../pages/imports-page.js';
import { receiveUpload } from '../upload-reader.js';

const RECENT_IMPORTS = 10;

async function listPage(deps: ConsoleDeps, request: FastifyRequest, error: string | null): Promise<string> {
  return importsPage({
    session: sessionOf(request),
    imports: await settleInterrupted(deps, await deps.store.read.recentConsoleImports(RECENT_IMPORTS)),
    error,
  });
}

/** Orders and airline changes from a file, all or nothing, as `airorder orders import` and `changes import` do. */
export function importRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  /** The import, with a running one whose process is gone shown (and stored) as failed. */
  const findImport = async (importId: string) => {
    const found = await deps.store.read.findConsoleImport(importId);
    return found ? (await settleInterrupted(deps, [found]))[0]! : null;
  };

  app.get('/imports', async (request, reply) => sendPage(reply, await listPage(deps, request, null)));

  app.get('/imports/:importId', async (request, reply) => {
    const entry = await findImport((request.params as { importId: string }).importId);
    return entry ? sendPage(reply, importPage({ session: sessionOf(request), entry })) : reply.callNotFound();
  });

  /** What the page's script reads every second while the import runs. */
  app.get('/imports/:importId/progress', async (request, reply) => {
    const entry = await findImport((request.params as { importId: string }).importId);
    if (!entry) return reply.callNotFound();
    return reply.header('cache-control', 'no-store').send({
      status: entry.status,
      phase: entry.phase,
      recordsRead: entry.recordsRead,
      recordsStored: entry.recordsStored,
      recordsTotal: entry.recordsTotal,
      updatedAt: entry.updatedAt,
      ...progressWords(entry),
    });
  });
}

/**
 * The upload: the only console route that reads multipart, registered where @fastify/multipart is
 * (console-plugin.ts); the file streams to disk and the import reads it from there.
 */
export function importUploadRoute(app: FastifyInstance, deps: ConsoleDeps, runner: ImportRunner): void {
  app.post('/imports', async (request, reply) => {
    const session = sessionOf(request);
    const upload = await receiveUpload(request);
    if (!upload.file) {
      await upload.discard();
      return sendPage(reply, await listPage(deps, request, 'Choose a file to upload.'), 400);
    }
    const importId = await runner.start({
      kind: upload.fields.get('kind') === 'changes' ? 'changes' : 'orders',
      fileName: (upload.file.name || 'upload').slice(0, 200),
      filePath: upload.file.path,
      discard: upload.discard,
      upsert: upload.fields.get('upsert') === 'on',
      operatorEmail: session.email,
      requestId: request.id,
    });
    // The import runs on: its page shows how far it has come, whichever process answers.
    return reply.redirect(`/console/imports/${importId}`, 303);
  });
}
