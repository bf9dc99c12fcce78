/**
 * The types an agency generates from GET /openapi.json with openapi-typescript guard what the
 * service promises: a program that relies on the required fields, the enums and the accepted
 * request variants compiles (TypeScript's compiler API, strict), and programs that misspell a
 * Status, use a code the operation never answers, or treat an optional field as always there do not.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { servedOpenApiDocument, startTestService, type TestService } from '../helpers/test-service.js';

let service: TestService;
let dir: string;

before(async () => {
  service = await startTestService();
  const document = await servedOpenApiDocument(service);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-types-'));
  const generated = astToString(await openapiTS(document));
  fs.writeFileSync(path.join(dir, 'airorder.d.ts'), generated);
});
after(async () => {
  await service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const HEADER = `import type { components } from './airorder.js';
type Schemas = components['schemas'];
type CancelRS = Schemas['AirOrderCancelResponse']['OrderViewRS'];
type InvoluntaryCancelRS = Schemas['AirOrderInvoluntaryCancelResponse']['OrderInvoluntaryCancelRS'];
type EventListRS = Schemas['AirOrderEventListResponse']['OrderEventListRS'];
declare const cancel: CancelRS;
declare const refund: InvoluntaryCancelRS;
declare const feed: EventListRS;
`;

/** The diagnostics of one program against the generated types, compiled strict. */
function diagnosticsOf(name: string, source: string): string[] {
  const file = path.join(dir, `${name}.ts`);
  fs.writeFileSync(file, HEADER + source);
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: false,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${path.basename(diagnostic.file.fileName)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

test('a program relying on what the document promises compiles against the generated types', () => {
  const diagnostics = diagnosticsOf(
    'relies',
    `
// Always present: no optional chaining, no undefined.
const requestId: string = cancel.ShoppingResponseId;
const version: string = cancel.Document.ReferenceVersion;
const agency: string = cancel.Party.Sender.TravelAgencySender.AgencyID;
for (const item of cancel.Response) {
  const status: 'SUCCESS' | 'FAILED' = item.Status;
  const booking: 'CONFIRMED' | 'CANCELED' | '' = item.BookingStatus;
  const reference: string = item.GdsBookingReference;
  if (item.Status === 'FAILED') console.log(item.Msg, status, booking, reference);
}
for (const item of refund.Result) {
  const amount: number = item.RefundAmount;
  const perTicket: number[] = item.RefundPaxWiseFare.map((fare) => fare.Amount);
  const references: string[] = item.GdsBookingReference;
  console.log(amount, perTicket, references, item.RefundText, item.ErrorMsg);
}
// The error codes each operation can answer.
const notFound: NonNullable<CancelRS['Errors']>[number]['Code'] = 'ORDER_NOT_FOUND';
const reused: NonNullable<CancelRS['Errors']>[number]['Code'] = 'IDEMPOTENCY_KEY_REUSED';
const item: NonNullable<InvoluntaryCancelRS['Errors']>[number]['Code'] = 'NO_PENDING_CHANGE';
const next: string | undefined = feed.NextAfter;
// What a request may send: one reference or several, the version as a string or a number.
const one: Schemas['AirOrderCancelRequest'] = { OrderCancelRQ: { Query: { OrderID: 'ORD-1', GdsBookingReference: 'ABC123' } } };
const several: Schemas['AirOrderCancelRequest'] = {
  OrderCancelRQ: { Document: { ReferenceVersion: 1 }, Query: { OrderID: 'ORD-1', GdsBookingReference: ['ABC123', 'DEF456'] } },
};
const asText: Schemas['AirOrderInvoluntaryCancelRequest'] = {
  OrderInvoluntaryCancelRQ: { Document: { ReferenceVersion: '1.0' }, Query: { OrderID: 'ORD-1', GdsBookingReference: ['ABC123'] } },
};
console.log(requestId, version, agency, notFound, reused, item, next, one, several, asText);
`,
  );
  assert.deepEqual(diagnostics, []);
});

const MUST_NOT_COMPILE: { name: string; source: string; expected: RegExp }[] = [
  {
    name: 'misspelt-status',
    source: "for (const item of cancel.Response) if (item.Status === 'SUCCES') console.log(item);\n",
    expected: /SUCCES/,
  },
  {
    name: 'misspelt-booking-status',
    source: "for (const item of cancel.Response) if (item.BookingStatus === 'CANCELLED') console.log(item);\n",
    expected: /CANCELLED/,
  },
  {
    name: 'code-the-feed-never-answers',
    source: "const code: NonNullable<EventListRS['Errors']>[number]['Code'] = 'ORDER_NOT_FOUND';\nconsole.log(code);\n",
    expected: /ORDER_NOT_FOUND/,
  },
  {
    name: 'errors-taken-as-always-there',
    source: 'const first: string = cancel.Errors[0].Code;\nconsole.log(first);\n',
    expected: /possibly 'undefined'/,
  },
];

for (const { name, source, expected } of MUST_NOT_COMPILE) {
  test(`a program that must not compile does not: ${name}`, () => {
    const diagnostics = diagnosticsOf(name, source);
    assert.ok(diagnostics.length > 0, `${name} compiled`);
    assert.ok(
      diagnostics.some((text) => expected.test(text)),
      diagnostics.join('\n'),
    );
  });
}
