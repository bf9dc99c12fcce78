import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CliSandbox, type ServeOptions, type ServeProcess } from './cli.js';
import { ConsoleClient } from './console-client.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * `airorder serve` as a process of its own, on the store TEST_STORE names, with agency AG1 and a
 * console operator signed in. Its uploads' temporary folders go to `tmp`, a folder of the test's
 * own, to be looked at.
 */
export class SignedInConsole {
  private constructor(
    readonly sandbox: CliSandbox,
    readonly tmp: string,
    readonly database: TestDatabase,
    readonly server: ServeProcess,
    readonly browser: ConsoleClient,
  ) {}

  static async start(email: string, password: string, options: ServeOptions = {}): Promise<SignedInConsole> {
    const sandbox = new CliSandbox();
    const tmp = path.join(sandbox.dir, 'tmp');
    fs.mkdirSync(tmp);
    const database = await createTestDatabase(sandbox.dir);
    try {
      sandbox.useDatabase(database.url);
      await sandbox.addAgencyAndOperator(email, password);
      const server = await sandbox.serve([], { ...options, env: { ...options.env, TMPDIR: tmp } });
      const browser = new ConsoleClient(server.baseUrl);
      assert.equal((await browser.signIn(email, password)).status, 303);
      return new SignedInConsole(sandbox, tmp, database, server, browser);
    } catch (error) {
      await sandbox.cleanup();
      await database.drop();
      throw error;
    }
  }

  /** The upload folders left in `tmp`. */
  uploadFolders(): string[] {
    return fs.readdirSync(this.tmp).filter((entry) => entry.startsWith('airorder-upload-'));
  }

  async close(): Promise<void> {
    await this.sandbox.cleanup();
    await this.database.drop();
  }
}
