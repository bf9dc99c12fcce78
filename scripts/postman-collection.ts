/**
 * Turns the service's OpenAPI document into a Postman collection (v2.1) and an environment: one
 * folder per tag, one request per operation (body: the operation's first request example with the
 * order and reference as variables that `serve --demo` prints, bearer auth from {{token}}, URL under
 * {{baseUrl}}), a test script on every request made from the response schema (status, the
 * envelope's required fields, every item SUCCESS), and every response example of the document
 * saved as an example response. Deterministic, so that the committed files change only with the
 * document. test/e2e/postman-newman.test.ts runs it with Newman against `serve --demo`.
 */
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { DEMO_VARIABLES } from '../src/cli/postman-variables.js';

interface Example {
  summary?: string;
  value: unknown;
}
interface Schema {
  $ref?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
}
interface Media {
  schema?: Schema;
  examples?: Record<string, Example>;
}
interface Header {
  description?: string;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { in: string; name: string; description?: string }[];
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<
    string,
    { description?: string; headers?: Record<string, Header>; content?: Record<string, Media> }
  >;
}
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
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

/** Every variable of the environment besides baseUrl and token, in a stable order. */
export const DEMO_VARIABLE_NAMES = [
  ...new Set(Object.values(DEMO_VARIABLES).flatMap((names) => [names.orderId, names.reference])),
];

/** The first request example with the demo booking's variables in place of the sample order. */
function requestBody(operation: Operation, example: unknown): unknown {
  const names = DEMO_VARIABLES[String(operation.operationId)];
  if (!names || typeof example !== 'object' || example === null) return example;
  const [root, content] = Object.entries(example as Record<string, { Query?: object }>)[0]!;
  // AirOrderRefund confirms the quote the AirOrderRefundQuote request before it kept in {{quoteId}}.
  const quote = operation.operationId === 'AirOrderRefund' ? { QuoteID: '{{quoteId}}' } : {};
  return {
    [root]: {
      ...content,
      Query: {
        ...content.Query,
        OrderID: `{{${names.orderId}}}`,
        GdsBookingReference: [`{{${names.reference}}}`],
        ...quote,
      },
    },
  };
}

function resolveSchema(document: OpenApiDocument, schema: Schema | undefined): Schema {
  const name = schema?.$ref ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  const found = name ? document.components?.schemas?.[name] : schema;
  if (!found) throw new Error(`The document has no schema ${schema?.$ref ?? ''}`);
  return found;
}

/**
 * The test script of a request, made from the 200 response's schema: what a client may rely on on
 * success. Each pm.test is one assertion in Newman's summary.
 */
function testScript(document: OpenApiDocument, operation: Operation): string[] {
  const ok = resolveSchema(document, operation.responses?.['200']?.content?.['application/json']?.schema);
  const [root, envelopeRef] = Object.entries(ok.properties ?? {})[0]!;
  const envelope = resolveSchema(document, envelopeRef);
  const required = envelope.required ?? [];
  const resultKey = required.find((field) => envelope.properties?.[field]?.type === 'array');
  if (!resultKey)
    throw new Error(`${String(operation.operationId)}: no result array among the envelope's required fields`);
  const item = resolveSchema(document, envelope.properties?.[resultKey]?.items);
  const names = DEMO_VARIABLES[String(operation.operationId)];
  const lines = [
    `// Made from the document's ${String(operation.operationId)} 200 response (npm run postman).`,
    `const root = ${JSON.stringify(root)};`,
    `const resultKey = ${JSON.stringify(resultKey)};`,
    `const requiredFields = ${JSON.stringify(required)};`,
    `const itemFields = ${JSON.stringify(item.required ?? [])};`,
    'const body = pm.response.json();',
    'const envelope = body[root] || {};',
    'const items = Array.isArray(envelope[resultKey]) ? envelope[resultKey] : [];',
    'pm.test(`HTTP 200 with the ${root} envelope`, () => {',
    '  pm.response.to.have.status(200);',
    '  pm.expect(Object.keys(body)).to.eql([root]);',
    '});',
    "pm.test(`${root} has every required field: ${requiredFields.join(', ')}`, () => {",
    '  for (const field of requiredFields) pm.expect(envelope, field).to.have.property(field);',
    "  pm.expect(envelope.Document.Name).to.be.a('string').and.not.empty;",
    "  pm.expect(envelope.Party.Sender.TravelAgencySender.AgencyID).to.be.a('string').and.not.empty;",
    '});',
    "pm.test('Success is {} and there are no Errors', () => {",
    '  pm.expect(envelope.Success, JSON.stringify(envelope.Errors)).to.eql({});',
    "  pm.expect(envelope).to.not.have.property('Errors');",
    '});',
    "pm.test(`${resultKey}: at least one item, each with ${itemFields.join(', ')}`, () => {",
    '  pm.expect(items).to.have.length.above(0);',
    '  for (const item of items) for (const field of itemFields) pm.expect(item, field).to.have.property(field);',
    '});',
  ];
  if (item.properties?.Status) {
    lines.push(
      "pm.test('every item Status is SUCCESS', () => {",
      "  for (const item of items) pm.expect(item.Status, item.Msg || item.ErrorMsg).to.equal('SUCCESS');",
      '});',
    );
  }
  if (names) {
    lines.push(
      "pm.test('the items are the requested booking of the requested order', () => {",
      `  const orderId = pm.variables.get(${JSON.stringify(names.orderId)});`,
      `  const reference = pm.variables.get(${JSON.stringify(names.reference)});`,
      "  pm.expect(orderId, 'the environment names the order').to.be.a('string').and.not.empty;",
      '  for (const item of items) {',
      '    pm.expect(item.OrderID).to.equal(orderId);',
      '    pm.expect([].concat(item.GdsBookingReference)).to.eql([reference.toUpperCase()]);',
      '  }',
      '});',
    );
  }
  if (operation.operationId === 'AirOrderCancel') {
    lines.push(
      "pm.test('the booking is CANCELED', () => { for (const item of items) pm.expect(item.BookingStatus).to.equal('CANCELED'); });",
    );
  }
  if (operation.operationId === 'AirOrderInvoluntaryCancel') {
    lines.push(
      "pm.test('RefundAmount is the sum of RefundPaxWiseFare, one per ticket named in RefundText', () => {",
      '  for (const item of items) {',
      '    const amounts = item.RefundPaxWiseFare.map((fare) => fare.Amount);',
      '    pm.expect(item.RefundAmount).to.be.above(0);',
      '    pm.expect(Math.abs(amounts.reduce((sum, amount) => sum + amount, 0) - item.RefundAmount)).to.be.below(1e-6);',
      '    for (const fare of item.RefundPaxWiseFare) pm.expect(item.RefundText).to.include(`TicketNumber:${fare.TicketNumber} `);',
      '  }',
      '});',
    );
  }
  if (operation.operationId === 'AirOrderRefundQuote' || operation.operationId === 'AirOrderRefund') {
    lines.push(
      "pm.test('Amount = Fare + Taxes - Penalty per ticket, and RefundAmount their sum', () => {",
      '  for (const item of items) {',
      '    let total = 0;',
      '    for (const fare of item.RefundPaxWiseFare) {',
      '      pm.expect(Math.abs(fare.Fare + fare.Taxes - fare.Penalty - fare.Amount)).to.be.below(1e-6);',
      '      total += fare.Amount;',
      '    }',
      '    pm.expect(Math.abs(total - item.RefundAmount)).to.be.below(1e-6);',
      '    pm.expect(item.QuoteID).to.match(/^rfq_/);',
      '  }',
      '});',
    );
  }
  if (operation.operationId === 'AirOrderRefundQuote') {
    lines.push("if (items[0] && items[0].QuoteID) pm.collectionVariables.set('quoteId', items[0].QuoteID);");
  }
  if (operation.operationId === 'AirOrderRefund') {
    lines.push(
      "pm.test('the refund confirms the quote just made', () => { for (const item of items) pm.expect(item.QuoteID).to.equal(pm.variables.get('quoteId')); });",
    );
  }
  if (operation.operationId === 'AirOrderRetrieve') {
    lines.push(
      "pm.test('Order shows the booking, CANCELED with its refunds', () => {",
      '  pm.expect(envelope.Order.OrderID).to.equal(items[0].OrderID);',
      '  pm.expect(envelope.Order.Bookings.map((booking) => booking.GdsBookingReference)).to.eql([items[0].GdsBookingReference]);',
      "  pm.expect(envelope.Order.Bookings[0].BookingStatus).to.equal('CANCELED');",
      '  pm.expect(envelope.Order.Bookings[0].Refunds).to.have.length.above(0);',
      '});',
    );
  }
  if (operation.operationId === 'AirOrderEventList') {
    lines.push(
      "pm.test('NextAfter is the last event id', () => { pm.expect(envelope.NextAfter).to.equal(items[items.length - 1].EventID); });",
    );
  }
  lines.push(
    "pm.test('X-Request-Id equals ShoppingResponseId', () => { pm.expect(pm.response.headers.get('X-Request-Id')).to.equal(envelope.ShoppingResponseId); });",
  );
  return lines;
}

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

function itemOf(document: OpenApiDocument, path: string, method: string, operation: Operation) {
  const requestExamples = Object.values(operation.requestBody?.content?.['application/json']?.examples ?? {});
  const body = requestBody(operation, requestExamples[0]?.value ?? {});
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
    })),
  );
  return {
    id: stableId(`${operation.operationId} request`),
    name: operation.summary ? `${operation.operationId} — ${operation.summary}` : String(operation.operationId),
    request,
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: testScript(document, operation) } }],
    response: responses,
  };
}

export function postmanCollection(document: OpenApiDocument) {
  const folders = new Map<string, ReturnType<typeof itemOf>[]>();
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(pathItem)) {
      const tag = operation.tags?.[0] ?? 'Operations';
      folders.set(tag, [...(folders.get(tag) ?? []), itemOf(document, path, method, operation)]);
    }
  }
  const tagDescriptions = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description ?? '']));
  return {
    info: {
      _postman_id: stableId(`${document.info.title} collection`),
      name: document.info.title,
      description:
        `${document.info.description ?? ''}\n\nGenerated from the service's OpenAPI document (GET /openapi.json, version ${document.info.version}) by \`npm run postman\`. ` +
        'Select the environment and set `token` to an access token (`airorder token issue`), and the order ids and ' +
        'references to bookings of that agency: `serve --demo` prints a `newman run` line with all of them. Every request ' +
        'has tests; `newman run` reports each.',
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
      ...DEMO_VARIABLE_NAMES.map((key) => ({ key, value: '', type: 'default', enabled: true })),
    ],
    _postman_variable_scope: 'environment',
  };
}
