/**
 * GET /openapi.json linted by Spectral's CLI with the `spectral:oas` ruleset, as an agency's CI
 * would: no error, no warning, not even a hint. The same lint of the document without its contact
 * does warn, so the check is a real one.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../helpers/cli.js';
import { servedOpenApiDocument, startTestService, type TestService } from '../helpers/test-service.js';

const SPECTRAL = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'spectral');

let service: TestService;
let dir: string;
let document: any;

before(async () => {
  service = await startTestService();
  document = await servedOpenApiDocument(service);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'airorder-spectral-'));
  fs.writeFileSync(path.join(dir, '.spectral.yaml'), 'extends: ["spectral:oas"]\n');
});
after(async () => {
  await service.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Finding {
  code: string;
  message: string;
  severity: number;
  path: string[];
}

/** Spectral's findings on a document, read from its JSON output (it exits non-zero when it finds any). */
async function lint(name: string, value: unknown): Promise<Finding[]> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
  const args = [
    'lint',
    '--ruleset',
    path.join(dir, '.spectral.yaml'),
    '--format',
    'json',
    '--fail-severity',
    'hint',
    '--quiet',
    file,
  ];
  const output = await promisify(execFile)(SPECTRAL, args, { cwd: dir }).catch(
    (error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw new Error(`spectral failed: ${error.stderr ?? String(error)}`);
      return { stdout: error.stdout };
    },
  );
  const text = output.stdout.trim();
  return text === '' ? [] : (JSON.parse(text) as Finding[]);
}

test('the served document has no finding of spectral:oas, of any severity', async () => {
  const findings = await lint('openapi.json', document);
  assert.deepEqual(
    findings.map((finding) => `${finding.code} at ${finding.path.join('.')}: ${finding.message}`),
    [],
  );
});

test('without its contact, the same lint warns: the check can fail', async () => {
  const withoutContact = structuredClone(document);
  delete withoutContact.info.contact;
  const findings = await lint('no-contact.json', withoutContact);
  assert.deepEqual(
    findings.map((finding) => finding.code),
    ['info-contact'],
  );
});
