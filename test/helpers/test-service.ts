import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { readRecords } from '../../src/documents/document-reader.js';
import { addAgency, issueToken } from '../../src/service/agency-admin.js';
import { importChanges } from '../../src/service/change-import.js';
import type { Clock } from '../../src/runtime/clock.js';
import { importOrders } from '../../src/service/order-import.js';
import { preparedHere } from '../../src/service/order-preparation.js';
import { migrateToLatest } from '../../src/store/migrator.js';
import { openStore } from '../../src/store/open-store.js';
import type { SqlStore } from '../../src/store/sql-store.js';
import { openApiChecker } from './openapi-conformance.js';
import { createTestDatabase, TEST_DATABASE_ENV } from './test-database.js';

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestService {
  baseUrl: string;
  /** The DATABASE_URL the service runs on (sqlite:PATH or postgres://…), for tests that open it themselves. */
  databaseUrl: string;
  app: FastifyInstance;
  store: SqlStore;
  dir: string;
  /** Log lines the service wrote, parsed. */
  logs: Record<string, unknown>[];
  rawLog: () => string;
  /** POSTs a JSON body (or a raw string) to the running service over real HTTP. */
  post(pathName: string, body: unknown, headers?: Record<string, string>): Promise<HttpResponse>;
  request(pathName: string, init: RequestInit): Promise<HttpResponse>;
  addAgency(
    agencyId: string,
    extra?: { name?: string; iataNumber?: string | null; email?: string | null },
  ): Promise<void>;
  /** Adds the agency if needed and returns a fresh token for it. */
  tokenFor(agencyId: string, expiresInMs?: number | null): Promise<string>;
  importOrders(documents: object[], upsert?: boolean): Promise<void>;
  importChanges(documents: object[]): Promise<void>;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  clock?: Clock;
  /** Settings as in the environment; rate limiting is off unless a test turns it on. */
  env?: Record<string, string>;
  /** The address to listen on; loopback unless a test needs clients from elsewhere (`0.0.0.0`). `baseUrl` stays on loopback. */
  host?: string;
}

/**
 * A real service on a fresh, migrated database listening on loopback: SQLite in a temporary
 * directory, or a new PostgreSQL database when the runner sets TEST_STORE=postgres.
 */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-test-'));
  // What has been opened so far, closed in reverse if a later step fails: a service that fails to
  // start must fail its test at once, not leave a server, a pool or a database keeping it alive.
  const opened: (() => Promise<void> | void)[] = [() => fs.rmSync(dir, { recursive: true, force: true })];
  try {
    return await startIn(dir, opened, options);
  } catch (error) {
    for (const close of opened.reverse()) {
      try {
        await close();
      } catch {
        // The failure to start is what the test must see.
      }
    }
    throw error;
  }
}

async function startIn(
  dir: string,
  opened: (() => Promise<void> | void)[],
  options: TestServiceOptions,
): Promise<TestService> {
  const database = await createTestDatabase(dir);
  opened.push(() => database.drop());
  const config = loadConfig(
    { ...TEST_DATABASE_ENV, RATE_LIMIT_PER_SECOND: '0', ...options.env },
    { DATABASE_URL: database.url, PORT: '0' },
  );
  const store = openStore(config);
  opened.push(() => store.close());
  await migrateToLatest(store);
  const chunks: string[] = [];
  const stream = {
    write: (line: string) => {
      chunks.push(line);
    },
  };
  const clock = options.clock ?? (() => new Date().toISOString());
  const app = await buildApp({ config, store, clock, logger: { level: 'info', stream } });
  opened.push(() => app.close());
  await app.listen({ port: 0, host: options.host ?? '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : '';
  const agencies = new Set<string>();

  const conforms = openApiChecker((app as unknown as { swagger(): unknown }).swagger());
  const request = async (pathName: string, init: RequestInit): Promise<HttpResponse> => {
    const response = await fetch(baseUrl + pathName, init);
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON: the test looks at `text` */
    }
    if (body !== undefined) conforms(init.method ?? 'GET', pathName, response.status, body, text);
    return { status: response.status, headers: response.headers, body, text };
  };

  const service: TestService = {
    baseUrl,
    databaseUrl: database.url,
    app,
    store,
    dir,
    get logs() {
      return chunks
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line));
    },
    rawLog: () => chunks.join(''),
    post: (pathName, body, headers = {}) =>
      request(pathName, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    request,
    async addAgency(agencyId, extra = {}) {
      await addAgency(store, clock, {
        agencyId,
        name: extra.name ?? `Agency ${agencyId}`,
        iataNumber: extra.iataNumber === undefined ? null : extra.iataNumber,
        email: extra.email === undefined ? null : extra.email,
      });
      agencies.add(agencyId);
    },
    async tokenFor(agencyId, expiresInMs = null) {
      if (!agencies.has(agencyId)) await service.addAgency(agencyId);
      return (await issueToken(store, clock, agencyId, expiresInMs)).token;
    },
    async importOrders(documents, upsert = false) {
      await importOrders(store, clock, preparedHere(readRecords(JSON.stringify(documents)), clock()), upsert);
    },
    async importChanges(documents) {
      await importChanges(store, clock, readRecords(JSON.stringify(documents)));
    },
    async close() {
      await app.close();
      await store.close();
      await database.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return service;
}

/** The OpenAPI document the service serves at GET /openapi.json (asserting that it is served). */
export async function servedOpenApiDocument(service: TestService): Promise<any> {
  const response = await service.request('/openapi.json', { method: 'GET' });
  assert.equal(response.status, 200, response.text);
  return response.body;
}
