import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { DocumentError } from '../../documents/document-error.js';
import { streamRecords } from '../../documents/record-stream.js';
import { importChanges } from '../../service/change-import.js';
import { importOrders } from '../../service/order-import.js';
import { preparedHere } from '../../service/order-preparation.js';
import { insertOperatorAction } from '../../store/repositories/operator-actions-repository.js';
import { field, sendPage, sessionOf, type ConsoleDeps } from '../console-context.js';
import { importsPage } from '../pages/imports-page.js';

/** Orders and airline changes from a file, all or nothing, as `airorder orders import` and `changes import` do. */
export function importRoutes(app: FastifyInstance, deps: ConsoleDeps): void {
  app.get('/imports', async (request, reply) => sendPage(reply, importsPage({ session: sessionOf(request), result: null })));

  app.post('/imports', async (request, reply) => {
    const session = sessionOf(request);
    const kind = field(request, 'kind') === 'changes' ? 'changes' : 'orders';
    const file = (request.body as FormData).get('file');
    if (!(file instanceof Blob) || file.size === 0) {
      return sendPage(reply, importsPage({ session, result: { kind, ok: false, message: 'Choose a file to upload.', cliError: false } }), 400);
    }
    const records = () => streamRecords(Readable.from(fileChunks(file)));
    try {
      const summary = kind === 'orders'
        ? await importOrders(deps.store, deps.clock, preparedHere(records()), field(request, 'upsert') === 'on')
        : await importChanges(deps.store, deps.clock, records());
      const name = 'name' in file && typeof file.name === 'string' ? file.name : 'upload';
      await deps.store.transaction((tx) => insertOperatorAction(tx, { email: session.email, action: `${kind} import`, target: `${name}: ${JSON.stringify(summary)}`, reason: null }, deps.clock()));
      return sendPage(reply, importsPage({ session, result: { kind, ok: true, message: JSON.stringify(summary), cliError: false } }));
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      return sendPage(reply, importsPage({ session, result: { kind, ok: false, message: `error: ${error.message}`, cliError: true } }), 422);
    }
  });
}

async function* fileChunks(file: Blob): AsyncGenerator<Buffer> {
  yield Buffer.from(await file.arrayBuffer());
}
