import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processState, THIS_PROCESS } from '../runtime/process-identity.js';

/**
 * The temporary folders uploads are written to, one per upload, in the system's temporary folder.
 * Each is named after the process that made it (`airorder-upload-PID_START-xxxxxx`), so that a
 * process starting finds those whose process is gone (killed, or out of memory, mid-upload or
 * mid-import) and removes them, and never one of a process still running.
 */
const PREFIX = 'airorder-upload-';
/** Folders named the way earlier versions named them (no process): removed once this old. */
const UNNAMED_KEPT_MS = 24 * 60 * 60 * 1000;
const NAMED = /^airorder-upload-([1-9][0-9]*)(?:_([0-9]+))?-/;

/** `PID_START` of this process (`PID` where the system does not tell when it started). */
const OWNER = THIS_PROCESS.slice(THIS_PROCESS.lastIndexOf(':') + 1).replace('/', '_');

/** A new, empty folder for one upload. */
export function makeUploadFolder(): Promise<string> {
  return fs.promises.mkdtemp(path.join(os.tmpdir(), `${PREFIX}${OWNER}-`));
}

/** Removes the upload folders that no running process owns; returns how many. Errors are the caller's to log. */
export async function removeAbandonedUploads(now = Date.now()): Promise<number> {
  const dir = os.tmpdir();
  let removed = 0;
  for (const name of await fs.promises.readdir(dir)) {
    if (!name.startsWith(PREFIX)) continue;
    const full = path.join(dir, name);
    const named = NAMED.exec(name);
    try {
      const abandoned = named
        ? processState(`${os.hostname()}:${named[1]}${named[2] ? `/${named[2]}` : ''}`) === 'gone'
        : now - (await fs.promises.stat(full)).mtimeMs > UNNAMED_KEPT_MS;
      if (!abandoned) continue;
      await fs.promises.rm(full, { recursive: true, force: true });
      removed += 1;
    } catch (error) {
      // Removed meanwhile, by another process starting at the same time.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
