/** The service's OpenAPI document without a running server: the app is built on a throwaway store. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openStore } from '../src/store/open-store.js';
import type { OpenApiDocument } from './postman-collection.js';

export async function loadOpenApiDocument(): Promise<OpenApiDocument> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-openapi-'));
  const config = loadConfig({}, { DATABASE_URL: `sqlite:${path.join(dir, 'unused.db')}` });
  const store = openStore(config);
  const app = await buildApp({ config, store, logger: false });
  try {
    await app.ready();
    // Through JSON, as /openapi.json serves it.
    return JSON.parse(JSON.stringify(app.swagger())) as OpenApiDocument;
  } finally {
    await app.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
