import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { readChangeDocument } from '../documents/change-document.js';
import { DocumentError } from '../documents/document-error.js';
import { readEach, type RawRecord } from '../documents/document-reader.js';
import { streamRecords } from '../documents/record-stream.js';
import { importChanges, OPERATOR_CHANGE_IMPORT } from '../service/change-import.js';
import { importOrders, OPERATOR_IMPORT } from '../service/order-import.js';
import { prepareOrder, preparedHere } from '../service/order-preparation.js';
import type { Actor } from '../store/repositories/audit-repository.js';
import type { ConsoleImport, ImportProgressUpdate } from '../store/repositories/console-imports-repository.js';
import type { Repositories } from '../store/store.js';
import { processState, THIS_PROCESS } from '../runtime/process-identity.js';
import type { ConsoleDeps } from './console-context.js';
import { removeAbandonedUploads } from './upload-folders.js';

/** How often the progress of a running import is written to the store (for whichever process shows it). */
export const PROGRESS_WRITE_MS = 250;
/** Records handled between two turns of the event loop: the process keeps answering requests meanwhile. */
const RECORDS_PER_TURN = 200;

/**
 * How often a running import's row is written even when its counts have not moved: the heartbeat by
 * which processes of other hosts, which cannot ask the operating system, know that it still runs.
 */
export const HEARTBEAT_MS = 10_000;
/**
 * A running import of another host whose row has not been written for this long is taken as
 * abandoned: six heartbeats missed. (On SQLite every process is on one host and asks the system.)
 */
export const ABANDONED_AFTER_MS = 60_000;

/** The runner as people read it: `host:pid`. */
function runnerName(runner: string): string {
  return runner.replace(/\/[0-9]+$/, '');
}

/** Whether a running import's process is gone: known for this host's, assumed after a silence for another host's. */
function abandoned(entry: ConsoleImport, now: string): boolean {
  if (entry.status !== 'running') return false;
  const state = processState(entry.runner);
  return (
    state === 'gone' || (state === 'unknown' && Date.parse(now) - Date.parse(entry.updatedAt) > ABANDONED_AFTER_MS)
  );
}

/**
 * An import whose process stopped (killed, out of memory, the machine restarted) before it finished
 * stored nothing, since it stores in one transaction; its row would say "running" forever. Every
 * process ends such imports as failed, with words saying so, when it starts and whenever it shows
 * them; never one whose process still runs (process-identity.ts), nor one written meanwhile.
 */
export async function settleInterrupted(deps: ConsoleDeps, entries: ConsoleImport[]): Promise<ConsoleImport[]> {
  const settled: ConsoleImport[] = [];
  const now = deps.clock();
  for (const entry of entries) {
    if (!abandoned(entry, now)) {
      settled.push(entry);
      continue;
    }
    // Its file was stored (the summary is written in the same transaction): only "done" was left to write.
    if (entry.summary !== null) {
      const ended = await deps.store.write((tx) => tx.updateConsoleImport(entry.importId, { status: 'done' }, now));
      settled.push(ended ? { ...entry, status: 'done', updatedAt: now } : await reread(deps, entry));
      continue;
    }
    const error = `Interrupted: the process running this import (${runnerName(entry.runner)}) stopped before it finished; nothing was stored. Upload the file again.`;
    const ended = await deps.store.write((tx) =>
      tx.failRunningConsoleImport(entry.importId, error, now, entry.updatedAt),
    );
    settled.push(ended ? { ...entry, status: 'failed', error, updatedAt: now } : await reread(deps, entry));
  }
  return settled;
}

async function reread(deps: ConsoleDeps, entry: ConsoleImport): Promise<ConsoleImport> {
  return (await deps.store.read.findConsoleImport(entry.importId)) ?? entry;
}

/**
 * What a process does as it starts: the imports of processes that died are marked failed, and the
 * upload files they left are removed. A failure here is logged and leaves the service starting.
 */
export async function recoverAbandonedImports(deps: ConsoleDeps, log: FastifyBaseLogger): Promise<void> {
  try {
    const running = await deps.store.read.runningConsoleImports();
    const settled = await settleInterrupted(deps, running);
    const failed = settled.filter((entry) => entry.status === 'failed').map((entry) => entry.importId);
    if (failed.length > 0) log.warn({ importIds: failed }, 'imports of stopped processes marked failed');
  } catch (error) {
    log.warn({ err: error }, 'imports of stopped processes not checked; they are when the Imports page is shown');
  }
  try {
    const removed = await removeAbandonedUploads();
    if (removed > 0) log.warn({ removed }, 'upload files of stopped processes removed');
  } catch (error) {
    log.warn({ err: error }, 'upload files of stopped processes not removed');
  }
}

export interface ImportUpload {
  kind: 'orders' | 'changes';
  fileName: string;
  /** The uploaded file on disk, read twice (checked, then stored) and never whole into memory. */
  filePath: string;
  /** Removes the uploaded file; called once the import has ended, however it ended. */
  discard(): Promise<void>;
  upsert: boolean;
  operatorEmail: string;
  requestId: string;
}

/** The records of the upload, streamed from its file as the CLI streams one, with a pause for the event loop every few hundred. */
async function* recordsOf(filePath: string): AsyncGenerator<RawRecord> {
  let sinceTurn = 0;
  for await (const record of streamRecords(fs.createReadStream(filePath))) {
    yield record;
    if (++sinceTurn >= RECORDS_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
}

/**
 * Writes the latest progress every PROGRESS_WRITE_MS, each write in a transaction of its own
 * outside the import's, so other processes read it while the import runs (on PostgreSQL; SQLite
 * has one writer, so while the import's transaction stores, its count appears when it commits).
 * With nothing new it still writes every HEARTBEAT_MS: the row's `updated_at` says the import lives.
 */
class ProgressWriter {
  private latest: ImportProgressUpdate = {};
  private dirty = false;
  private writing: Promise<void> | null = null;
  private lastWrite = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly deps: ConsoleDeps,
    private readonly importId: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => this.write(), PROGRESS_WRITE_MS);
  }

  report(update: ImportProgressUpdate): void {
    Object.assign(this.latest, update);
    this.dirty = true;
    // The first count at once, not a quarter of a second later: a small file is read faster than that.
    if (Date.now() - this.lastWrite >= PROGRESS_WRITE_MS) this.write();
  }

  private write(): void {
    if (this.writing) return;
    // Unchanged counts are written again now and then all the same: the heartbeat (HEARTBEAT_MS).
    if (!this.dirty && Date.now() - this.lastWrite < HEARTBEAT_MS) return;
    const update = { ...this.latest };
    this.dirty = false;
    this.lastWrite = Date.now();
    this.writing = this.deps.store
      .write(async (tx) => {
        await tx.updateConsoleImport(this.importId, update, this.deps.clock());
      })
      .catch((error: unknown) => {
        // Tried again at the next tick: the latest progress holds every count so far.
        this.dirty = true;
        this.log.warn({ err: error, importId: this.importId }, 'import progress not written');
      })
      .finally(() => {
        this.writing = null;
      });
  }

  /** Writes the latest progress now (after the write under way): before a phase that may hold the store's only writer. */
  async writeNow(): Promise<void> {
    await this.writing;
    this.write();
    await this.writing;
  }

  /** No more progress writes; the one under way, if any, is finished first. Returns what is not written yet. */
  async stop(): Promise<ImportProgressUpdate> {
    clearInterval(this.timer);
    await this.writing;
    return this.dirty ? { ...this.latest } : {};
  }
}

/**
 * Starts imports of uploaded files and returns their ids at once; each import runs on in this
 * process, and its progress and outcome are kept in the store (`console_imports`), so any process
 * shows them. First every record is read and checked (records read, then the total), then all are
 * stored in one transaction, all or nothing, as `airorder orders import` and `changes import` do.
 * The audit trail names the operator (`operator`, their email, `orders import` or `changes import`).
 */
export class ImportRunner {
  private readonly running = new Set<Promise<void>>();
  /** Aborted as the service closes: an outcome the store keeps refusing is then given up on. */
  private readonly closing = new AbortController();

  constructor(
    private readonly deps: ConsoleDeps,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(upload: ImportUpload): Promise<string> {
    const importId = `imp_${Date.now().toString(16).padStart(12, '0')}${randomBytes(6).toString('hex')}`;
    try {
      await this.deps.store.write((tx) =>
        tx.insertConsoleImport(
          {
            importId,
            kind: upload.kind,
            fileName: upload.fileName,
            operatorEmail: upload.operatorEmail,
            runner: THIS_PROCESS,
          },
          this.deps.clock(),
        ),
      );
    } catch (error) {
      await upload.discard();
      throw error;
    }
    const run = runImport(this.deps, importId, upload, this.log, this.closing.signal)
      .finally(() =>
        upload
          .discard()
          .catch((error: unknown) => this.log.warn({ err: error, importId }, 'uploaded file not removed')),
      )
      .finally(() => this.running.delete(run));
    this.running.add(run);
    return importId;
  }

  /**
   * Waits for the imports under way: the service closes its store only after them. An outcome still
   * waiting for the store is tried once more, then given up on: the next process to start ends that
   * import (recoverAbandonedImports), as it does an import whose process died.
   */
  async settle(): Promise<void> {
    this.closing.abort();
    await Promise.all([...this.running]);
  }
}

/** The first wait before the outcome of an import is written again, doubled after each refusal up to OUTCOME_RETRY_MAX_MS. */
export const OUTCOME_RETRY_FIRST_MS = 1_000;
export const OUTCOME_RETRY_MAX_MS = 30_000;

async function runImport(
  deps: ConsoleDeps,
  importId: string,
  upload: ImportUpload,
  log: FastifyBaseLogger,
  closing: AbortSignal,
): Promise<void> {
  const progress = new ProgressWriter(deps, importId, log);
  let outcome: ImportProgressUpdate;
  try {
    const summary = await checkAndStore(deps, importId, upload, progress);
    outcome = { status: 'done', summary: JSON.stringify(summary) };
  } catch (error) {
    // A store held or away is the API's 503: a warning, not an error of the service's.
    if (deps.store.isUnavailable(error)) log.warn({ cause: (error as Error).message, importId }, 'store unavailable');
    else if (!(error instanceof DocumentError)) log.error({ err: error, importId }, 'console import failed');
    // Exactly the line the CLI prints for this file.
    outcome = {
      status: 'failed',
      error:
        error instanceof DocumentError
          ? `error: ${error.message}`
          : deps.store.isUnavailable(error)
            ? 'The store was not reachable; nothing was stored. Try again shortly.'
            : `Something went wrong (import ${importId}); nothing was stored. The service log has the details.`,
    };
  }
  const unwritten = await progress.stop();
  // Removed before the outcome is written: once the import shows as ended, its file is gone.
  await upload.discard().catch((error: unknown) => log.warn({ err: error, importId }, 'uploaded file not removed'));
  await recordOutcome(deps, importId, { ...unwritten, ...outcome }, log, closing);
}

/**
 * Writes how an import ended. A store that refuses (held by another process, or away) is asked again,
 * after 1 s, 2 s, 4 s… up to 30 s between tries, for as long as the service runs: until then the
 * import shows as running, never as ended in a way it did not.
 */
async function recordOutcome(
  deps: ConsoleDeps,
  importId: string,
  outcome: ImportProgressUpdate,
  log: FastifyBaseLogger,
  closing: AbortSignal,
): Promise<void> {
  for (let wait = OUTCOME_RETRY_FIRST_MS; ; wait = Math.min(wait * 2, OUTCOME_RETRY_MAX_MS)) {
    try {
      // False when another process ended it meanwhile, taking this one for gone: its words stand.
      await deps.store.write((tx) => tx.updateConsoleImport(importId, outcome, deps.clock()));
      return;
    } catch (error) {
      if (closing.aborted) {
        log.error({ err: error, importId }, 'the outcome of a console import could not be recorded');
        return;
      }
      const unavailable = deps.store.isUnavailable(error);
      log[unavailable ? 'warn' : 'error'](
        { err: error, importId, retryInMs: wait },
        'the outcome of a console import not recorded yet; trying again',
      );
    }
    await sleep(wait, undefined, { signal: closing }).catch(() => {
      // The service is closing: one last try, above.
    });
  }
}

async function checkAndStore(
  deps: ConsoleDeps,
  importId: string,
  upload: ImportUpload,
  progress: ProgressWriter,
): Promise<unknown> {
  // Reading: every record checked as the import will check it, so a bad one fails before anything is stored.
  let read = 0;
  const importedAt = deps.clock();
  const check =
    upload.kind === 'orders'
      ? (record: RawRecord) => {
          prepareOrder(record, importedAt);
        }
      : (record: RawRecord) => {
          readEach([record], readChangeDocument);
        };
  for await (const record of recordsOf(upload.filePath)) {
    check(record);
    progress.report({ recordsRead: ++read });
  }
  progress.report({ phase: 'storing', recordsTotal: read });
  await progress.writeNow();

  const actor: Actor = {
    ...(upload.kind === 'orders' ? OPERATOR_IMPORT : OPERATOR_CHANGE_IMPORT),
    requestId: upload.requestId,
    operatorEmail: upload.operatorEmail,
  };
  const stored = (count: number) => progress.report({ recordsStored: count });
  // The console's journal row and the import's summary are stored with the import, in its
  // transaction: never one without the other. The import shows as done only once its file is
  // removed (runImport), but a process that stops in between leaves the summary behind, and the
  // next process ends the import as done, never as "nothing was stored" (settleInterrupted).
  const record = async (tx: Repositories, summary: object, recordsStored: number) => {
    await tx.insertOperatorAction(
      {
        email: upload.operatorEmail,
        action: `${upload.kind} import`,
        target: `${upload.fileName}: ${JSON.stringify(summary)}`,
        reason: null,
      },
      deps.clock(),
    );
    const running = await tx.updateConsoleImport(
      importId,
      { summary: JSON.stringify(summary), recordsStored },
      deps.clock(),
    );
    // Ended meanwhile by another process that took this one for gone: storing now would contradict
    // the "nothing was stored" it shows.
    if (!running) throw new Error(`import ${importId} was ended by another process before it could be stored`);
  };
  if (upload.kind === 'orders') {
    const summary = await importOrders(
      deps.store,
      deps.clock,
      preparedHere(recordsOf(upload.filePath), importedAt),
      upload.upsert,
      stored,
      actor,
      (tx, summary) => record(tx, summary, summary.imported),
    );
    progress.report({ recordsStored: summary.imported });
    return summary;
  }
  const summary = await importChanges(
    deps.store,
    deps.clock,
    recordsOf(upload.filePath),
    stored,
    actor,
    (tx, summary) => record(tx, summary, summary.imported + summary.alreadyKnown),
  );
  progress.report({ recordsStored: summary.imported + summary.alreadyKnown });
  return summary;
}

/** The words for an import's state, the same on the page and in what its script reads. */
export function progressWords(entry: ConsoleImport): { label: string; counts: string } {
  const what = entry.kind === 'orders' ? 'orders' : 'airline changes';
  if (entry.status === 'done')
    return {
      label: 'Finished',
      counts: `${entry.recordsStored.toLocaleString('en')} of ${entry.recordsTotal?.toLocaleString('en') ?? '?'} records stored.`,
    };
  if (entry.status === 'failed')
    return { label: 'Failed: nothing was stored', counts: `${entry.recordsRead.toLocaleString('en')} records read.` };
  if (entry.phase === 'reading')
    return {
      label: `Reading and checking the ${what}`,
      counts: `${entry.recordsRead.toLocaleString('en')} records read so far; the total is known once all are read.`,
    };
  return {
    label: `Storing the ${what}`,
    counts: `${entry.recordsStored.toLocaleString('en')} of ${(entry.recordsTotal ?? 0).toLocaleString('en')} records stored.`,
  };
}
