/**
 * Turns the service's OpenAPI document into a Postman collection (v2.1) and an environment: one
 * folder per tag, one request per operation (body: the operation's first request example, bearer
 * auth from {{token}}, URL under {{baseUrl}}), and every response example of the document saved as
 * an example response. Deterministic, so that the committed files change only with the document.
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';

interface Example { summary?: string; value: unknown }
interface Media { examples?: Record<string, Example> }
interface Header { description?: string }
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { in: string; name: string; description?: string }[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { description?: string; headers?: Record<string, Header>; content?: Record<string, Media> }>;
}
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const COLLECTION_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/** Where `npm run postman` writes, relative to the project. */
export const POSTMAN_FILES = {
  collection: path.join('docs', 'postman', 'airorder.postman_collection.json'),
  environment: path.join('docs', 'postman', 'airorder.postman_environment.json'),
};

/** A stable UUID-shaped id from a name, so that regenerating changes nothing. */
function stableId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

function requestOf(path: string, method: string, operation: Operation, body: unknown) {
  const header: { key: string; value: string; description?: string; disabled?: boolean }[] = [
    { key: 'Content-Type', value: 'application/json' },
  ];
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'header') continue;
    // Optional headers are there to switch on; {{$guid}} is a new key for each send.
    header.push({ key: parameter.name, value: '{{$guid}}', description: parameter.description ?? '', disabled: true });
  }
  const segments = path.split('/').filter(Boolean);
  return {
    method: method.toUpperCase(),
    header,
    body: { mode: 'raw', raw: json(body), options: { raw: { language: 'json' } } },
    url: { raw: `{{baseUrl}}${path}`, host: ['{{baseUrl}}'], path: segments },
    description: operation.description ?? '',
  };
}

function itemOf(path: string, method: string, operation: Operation) {
  const requestExamples = Object.values(operation.requestBody?.content?.['application/json']?.examples ?? {});
  const body = requestExamples[0]?.value ?? {};
  const request = requestOf(path, method, operation, body);
  const responses = Object.entries(operation.responses ?? {}).flatMap(([status, response]) =>
    Object.entries(response.content?.['application/json']?.examples ?? {}).map(([name, example]) => ({
      id: stableId(`${operation.operationId} ${status} ${name}`),
      name: `${status} ${example.summary ?? name}`,
      originalRequest: { ...request, description: undefined },
      status: STATUS_CODES[Number(status)] ?? status,
      code: Number(status),
      _postman_previewlanguage: 'json',
      header: [{ key: 'Content-Type', value: 'application/json; charset=utf-8' }],
      body: json(example.value),
    })));
  return {
    id: stableId(`${operation.operationId} request`),
    name: operation.summary ? `${operation.operationId} — ${operation.summary}` : String(operation.operationId),
    request,
    response: responses,
  };
}

export function postmanCollection(document: OpenApiDocument) {
  const folders = new Map<string, ReturnType<typeof itemOf>[]>();
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      const tag = operation.tags?.[0] ?? 'Operations';
      folders.set(tag, [...(folders.get(tag) ?? []), itemOf(path, method, operation)]);
    }
  }
  const tagDescriptions = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
  return {
    info: {
      _postman_id: stableId(`${document.info.title} collection`),
      name: document.info.title,
      description: `${document.info.description ?? ''}\n\nGenerated from the service's OpenAPI document (GET /openapi.json, version ${document.info.version}) by \`npm run postman\`. `
        + 'Select the environment and set `token` to an access token (`airorder token issue`).',
      schema: COLLECTION_SCHEMA,
    },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}', type: 'string' }] },
    item: [...folders].map(([name, item]) => ({ name, description: tagDescriptions.get(name) ?? '', item })),
  };
}

export function postmanEnvironment(document: OpenApiDocument) {
  return {
    id: stableId(`${document.info.title} environment`),
    name: `${document.info.title} (local)`,
    values: [
      { key: 'baseUrl', value: DEFAULT_BASE_URL, type: 'default', enabled: true },
      { key: 'token', value: '', type: 'secret', enabled: true },
    ],
    _postman_variable_scope: 'environment',
  };
}
