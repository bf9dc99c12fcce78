/**
 * Requests made from an OpenAPI document's own request schemas, for fuzzing the service that serves
 * it: valid requests with each field at each bound the document allows (lengths, numbers, item
 * counts, enum values, strings matching each pattern, optional fields present and absent), and one
 * request per constraint with that constraint broken (wrong type, past a bound, pattern or format
 * broken, a required field missing, an undeclared field where the document closes an object), for
 * the body and for the declared headers. The document decides: every case is checked against it with
 * Ajv, so a valid case is one the document allows and a broken one is one it refuses. A keyword the
 * generator does not know makes it throw: a schema change it cannot follow fails loudly.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { patternExtremes } from './pattern-extremes.js';
import { seededRandom } from './seeded-random.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Schema = Record<string, any>;

/** One value of a schema node: valid, or with one constraint (`kind`, a JSON Schema keyword) broken at `path`. */
export interface Variant {
  value: unknown;
  /** The field the variant is about, e.g. `OrderCancelRQ.Query.GdsBookingReference[0]`; '' for the body. */
  path: string;
  kind: string;
  label: string;
}

export interface RequestCase {
  /** valid: the document allows the request; broken: it refuses it, for `kind` at `path`. */
  expect: 'valid' | 'broken';
  kind: string;
  path: string;
  label: string;
  body: unknown;
  headers: Record<string, string>;
}

export interface OperationCases {
  path: string;
  operationId: string;
  cases: RequestCase[];
}

export interface FuzzOptions {
  seed: number;
  /**
   * Values for fields whose valid values must name stored data (an event id, say): the document says
   * only their form, so every valid request carries the value given here. Broken cases still break
   * the form. Keyed by field path.
   */
  storedValues?: Record<string, unknown>;
  /**
   * Values the baseline carries for fields that name stored data (an order and its booking), so that
   * valid requests reach the operation itself; the fields' own bound values are still sent. Keyed by
   * field path.
   */
  baselineValues?: Record<string, unknown>;
  /** Requests with every field at a random valid value or absent, per operation. */
  randomRequests?: number;
}

/** What a keyword of the document is to the generator; any other keyword makes it throw. */
const CONSTRAINTS = new Set([
  'type',
  'enum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'required',
  'additionalProperties',
  'oneOf',
]);
const STRUCTURE = new Set(['properties', 'items']);
const ANNOTATIONS = new Set(['description', 'examples', 'default', 'title', 'deprecated', '$comment']);

/** The constraint keywords of a schema node (a `required` list counts once per field it names). */
export function constraintsOf(schema: Schema): string[] {
  const known = Object.keys(schema).filter(
    (keyword) => !keyword.startsWith('x-') && !ANNOTATIONS.has(keyword) && !STRUCTURE.has(keyword),
  );
  const unknown = known.filter((keyword) => !CONSTRAINTS.has(keyword));
  if (unknown.length > 0)
    throw new Error(`the fuzzer has no rule for ${unknown.join(', ')}: teach test/helpers/openapi-fuzz.ts`);
  return known.filter((keyword) => keyword !== 'additionalProperties' || schema.additionalProperties === false);
}

/**
 * Where a schema constrains its values, as field path and keyword: the broken cases the generator
 * owes. A oneOf owes a value none of its branches takes (a `type` case) besides its branches' own.
 */
export function constraintSites(schema: Schema, path = ''): { path: string; kind: string }[] {
  const sites: { path: string; kind: string }[] = [];
  for (const keyword of constraintsOf(schema)) {
    if (keyword === 'required')
      sites.push(...(schema.required as string[]).map((key) => ({ path: join(path, key), kind: 'required' })));
    else if (keyword === 'oneOf')
      sites.push(
        { path, kind: 'type' },
        ...(schema.oneOf as Schema[]).flatMap((branch) => constraintSites(branch, path)),
      );
    else sites.push({ path, kind: keyword });
  }
  for (const [key, child] of Object.entries<Schema>(schema.properties ?? {}))
    sites.push(...constraintSites(child, join(path, key)));
  if (schema.items) sites.push(...constraintSites(schema.items, `${path}[0]`));
  return sites;
}

/** Sample strings for formats, which patterns cannot say. */
const FORMAT_SAMPLES: Record<string, string[]> = { email: ['desk@agency.example', 'a@b.example'] };
/** Strings that are not of a format, tried in turn. */
const FORMAT_BREAKERS: Record<string, string[]> = {
  email: ['desk.agency.example', 'desk@', '@agency.example', 'desk@agency..example', 'desk @agency.example'],
};
/** Characters a broken pattern may gain, tried in turn: each is outside some class or other. */
const ODD_CHARACTERS = ['#', ' ', 'é', '-', '.', 'a', 'Z', '0', '\t', '_', '~', '\u00e9\u0301', '\u{1F600}'];

const typeOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
const json = (value: unknown) => JSON.stringify(value);

export class OpenApiFuzzer {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly validators = new WeakMap<Schema, ValidateFunction>();
  private readonly random: () => number;
  private readonly storedValues: Record<string, unknown>;
  private readonly baselineValues: Record<string, unknown>;

  constructor(
    private readonly document: any,
    private readonly options: FuzzOptions,
  ) {
    this.random = seededRandom(options.seed);
    this.storedValues = options.storedValues ?? {};
    this.baselineValues = { ...options.baselineValues, ...options.storedValues };
  }

  /** The cases of every operation of the document that takes a JSON body. */
  operations(): OperationCases[] {
    const out: OperationCases[] = [];
    for (const [path, item] of Object.entries<any>(this.document.paths ?? {})) {
      for (const operation of Object.values<any>(item)) {
        const bodySchema = operation?.requestBody?.content?.['application/json']?.schema;
        if (!bodySchema) continue;
        out.push({
          path,
          operationId: operation.operationId,
          cases: this.casesOf(this.resolve(bodySchema), operation.parameters ?? []),
        });
      }
    }
    return out;
  }

  /** A schema with every $ref into components/schemas replaced by what it names. */
  resolve(schema: any, depth = 0): any {
    if (depth > 50) throw new Error('$refs nest too deep (a cycle?)');
    if (Array.isArray(schema)) return schema.map((item) => this.resolve(item, depth + 1));
    if (typeof schema !== 'object' || schema === null) return schema;
    if (typeof schema.$ref === 'string') {
      const name = /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1];
      const target = name === undefined ? undefined : this.document.components?.schemas?.[name];
      if (!target) throw new Error(`${schema.$ref} does not resolve`);
      return this.resolve(target, depth + 1);
    }
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) => [key, key === 'examples' ? value : this.resolve(value, depth + 1)]),
    );
  }

  private casesOf(body: Schema, parameters: any[]): RequestCase[] {
    const { valid, broken } = this.variants(body, '');
    const cases: RequestCase[] = [
      ...valid.map((variant) => ({ expect: 'valid' as const, ...variant, body: variant.value, headers: {} })),
      {
        expect: 'valid',
        kind: 'optional',
        path: '',
        label: 'every optional field present',
        body: this.full(body, ''),
        headers: {},
      },
      ...broken.map((variant) => ({ expect: 'broken' as const, ...variant, body: variant.value, headers: {} })),
    ];
    for (let index = 0; index < (this.options.randomRequests ?? 0); index++) {
      const value = this.randomValid(body, '');
      if (this.validator(body)(value))
        cases.push({
          expect: 'valid',
          kind: 'random',
          path: '',
          label: `random valid request ${index + 1}`,
          body: value,
          headers: {},
        });
    }
    const baseline = this.baseline(body, '');
    for (const parameter of parameters.filter((candidate) => candidate.in === 'header' && candidate.schema)) {
      const schema = this.resolve(parameter.schema);
      const headerCases = this.variants(schema, parameter.name);
      for (const variant of headerCases.valid)
        cases.push({
          expect: 'valid',
          ...variant,
          body: baseline,
          headers: { [parameter.name]: String(variant.value) },
        });
      // A header is text: the broken values that are not strings, or that HTTP would not carry as
      // they are (surrounding white space is dropped, control characters refused), test nothing.
      for (const variant of headerCases.broken.filter(
        (candidate) => typeof candidate.value === 'string' && sendsAsIs(candidate.value),
      )) {
        cases.push({
          expect: 'broken',
          ...variant,
          body: baseline,
          headers: { [parameter.name]: variant.value as string },
        });
      }
    }
    this.check(
      body,
      cases.filter((candidate) => Object.keys(candidate.headers).length === 0),
    );
    return cases;
  }

  /** The generator's own check: the document allows every valid case and refuses every broken one. */
  private check(body: Schema, cases: RequestCase[]): void {
    const validate = this.validator(body);
    for (const candidate of cases) {
      if (validate(candidate.body) !== (candidate.expect === 'valid')) {
        throw new Error(
          `generator bug: ${candidate.label} at ${candidate.path} is ${candidate.expect} but the document says otherwise: ${json(candidate.body).slice(0, 300)}`,
        );
      }
    }
  }

  validator(schema: Schema): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.validators.set(schema, validate);
    }
    return validate;
  }

  /** The keywords of the errors the schema finds in a value; empty when it is valid. */
  private errorsOf(schema: Schema, value: unknown): string[] {
    const validate = this.validator(schema);
    return validate(value) ? [] : [...new Set((validate.errors ?? []).map((error) => error.keyword))];
  }

  /** A valid value with only what is required: the value every other field of a case keeps. */
  baseline(schema: Schema, path: string): unknown {
    if (path in this.baselineValues) return this.baselineValues[path];
    if (schema.oneOf) return this.baseline(schema.oneOf[0], path);
    switch (schema.type) {
      case 'object':
        return Object.fromEntries(
          (schema.required ?? []).map((key: string) => [
            key,
            this.baseline(schema.properties?.[key] ?? {}, join(path, key)),
          ]),
        );
      case 'array':
        return Array.from({ length: schema.minItems ?? 0 }, (_, index) =>
          this.baseline(schema.items ?? {}, `${path}[${index}]`),
        );
      default:
        return this.scalarValid(schema, path)[0]!.value;
    }
  }

  /** A valid value with every optional field present, at its baseline. */
  private full(schema: Schema, path: string): unknown {
    if (path in this.baselineValues) return this.baselineValues[path];
    if (schema.oneOf) return this.full(schema.oneOf[0], path);
    if (schema.type === 'object')
      return Object.fromEntries(
        Object.entries<Schema>(schema.properties ?? {}).map(([key, child]) => [key, this.full(child, join(path, key))]),
      );
    if (schema.type === 'array')
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, (_, index) =>
        this.full(schema.items ?? {}, `${path}[${index}]`),
      );
    return this.baseline(schema, path);
  }

  private randomValid(schema: Schema, path: string): unknown {
    if (path in this.storedValues) return this.storedValues[path];
    if (schema.oneOf) return this.randomValid(this.pick(schema.oneOf), path);
    if (schema.type === 'object') {
      const required = new Set<string>(schema.required ?? []);
      const entries = Object.entries<Schema>(schema.properties ?? {})
        .filter(([key]) => required.has(key) || this.random() < 0.5)
        .map(([key, child]) => [key, this.randomValid(child, join(path, key))]);
      return Object.fromEntries(entries);
    }
    if (schema.type === 'array') {
      const min = schema.minItems ?? 0;
      const length = min + Math.floor(this.random() * (Math.min(schema.maxItems ?? min + 3, min + 3) - min + 1));
      return Array.from({ length }, (_, index) => this.randomValid(schema.items ?? {}, `${path}[${index}]`));
    }
    return this.pick(this.scalarValid(schema, path)).value;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)]!;
  }

  /**
   * The valid and broken variants of a node: values of the node itself, a variant of a field below
   * placed in the baseline of the rest (its `path` says which field it is about).
   */
  variants(schema: Schema, path: string): { valid: Variant[]; broken: Variant[] } {
    constraintsOf(schema);
    if (schema.oneOf) return this.oneOfVariants(schema, path);
    const result =
      schema.type === 'object'
        ? this.objectVariants(schema, path)
        : schema.type === 'array'
          ? this.arrayVariants(schema, path)
          : { valid: this.scalarValid(schema, path), broken: this.scalarBroken(schema, path) };
    const broken = [...this.typeBroken(schema, path), ...result.broken];
    const valid =
      path in this.storedValues
        ? [{ value: this.storedValues[path], path, kind: 'stored', label: 'a value naming stored data' }]
        : result.valid;
    return { valid: unique(valid), broken: unique(broken) };
  }

  /** A value of another type than the node's, null among them: each is refused by the type check. */
  private typeBroken(schema: Schema, path: string): Variant[] {
    const candidates: unknown[] = [null, 1, 'x', true, {}, []];
    const foreign = candidates.filter((value) => this.errorsOf(schema, value).includes('type'));
    return foreign
      .slice(0, 3)
      .map((value) => ({ value, path, kind: 'type', label: `${typeOf(value)} instead of ${schema.type}` }));
  }

  private oneOfVariants(schema: Schema, path: string): { valid: Variant[]; broken: Variant[] } {
    const valid: Variant[] = [];
    const broken: Variant[] = [];
    for (const branch of schema.oneOf as Schema[]) {
      const own = this.variants(branch, path);
      // A value allowed by one branch may be allowed by another too, or refused by one and allowed by
      // another: the whole oneOf decides.
      valid.push(...own.valid.filter((variant) => this.validator(schema)(variant.value)));
      broken.push(...own.broken.filter((variant) => !this.validator(schema)(variant.value)));
    }
    return { valid: unique(valid), broken: unique(broken) };
  }

  private objectVariants(schema: Schema, path: string): { valid: Variant[]; broken: Variant[] } {
    const baseline = this.baseline(schema, path) as Record<string, unknown>;
    const valid: Variant[] = [{ value: baseline, path, kind: 'required', label: 'required fields only' }];
    const broken: Variant[] = [];
    for (const [key, child] of Object.entries<Schema>(schema.properties ?? {})) {
      const inner = this.variants(child, join(path, key));
      valid.push(...inner.valid.map((variant) => ({ ...variant, value: { ...baseline, [key]: variant.value } })));
      broken.push(...inner.broken.map((variant) => ({ ...variant, value: { ...baseline, [key]: variant.value } })));
    }
    for (const key of schema.required ?? []) {
      const rest = Object.fromEntries(Object.entries(baseline).filter(([name]) => name !== key));
      broken.push({ value: rest, path: join(path, key), kind: 'required', label: `${key} missing` });
    }
    const extra = unusedKey(schema);
    if (schema.additionalProperties === false)
      broken.push({
        value: { ...baseline, [extra]: 'x' },
        path,
        kind: 'additionalProperties',
        label: `undeclared field ${extra}`,
      });
    else
      valid.push({
        value: { ...baseline, [extra]: 'x' },
        path,
        kind: 'additionalProperties',
        label: `undeclared field ${extra} (ignored)`,
      });
    return { valid, broken };
  }

  private arrayVariants(schema: Schema, path: string): { valid: Variant[]; broken: Variant[] } {
    const items: Schema = schema.items ?? {};
    const min: number = schema.minItems ?? 0;
    const itemCases = this.variants(items, `${path}[0]`);
    // Filled with the item's valid values in turn, so that a full array is not one value repeated.
    const filled = (length: number) =>
      Array.from({ length }, (_, index) => itemCases.valid[index % itemCases.valid.length]!.value);
    const valid: Variant[] = [{ value: filled(min), path, kind: 'minItems', label: `${min} items` }];
    const broken: Variant[] = [];
    if (schema.maxItems !== undefined) {
      valid.push({ value: filled(schema.maxItems), path, kind: 'maxItems', label: `${schema.maxItems} items` });
      broken.push({
        value: filled(schema.maxItems + 1),
        path,
        kind: 'maxItems',
        label: `${schema.maxItems + 1} items`,
      });
    }
    if (min > 0) broken.push({ value: filled(min - 1), path, kind: 'minItems', label: `${min - 1} items` });
    // An item's variants as the first item, the others at their baseline.
    const rest = filled(Math.max(1, min)).slice(1);
    valid.push(...itemCases.valid.map((variant) => ({ ...variant, value: [variant.value, ...rest] })));
    broken.push(...itemCases.broken.map((variant) => ({ ...variant, value: [variant.value, ...rest] })));
    return { valid, broken };
  }

  /** Valid strings, numbers and booleans at the node's bounds, and random ones matching its pattern. */
  scalarValid(schema: Schema, path: string): Variant[] {
    const candidates: Variant[] = [];
    const add = (value: unknown, kind: string, label: string) => candidates.push({ value, path, kind, label });
    if (schema.enum) for (const value of schema.enum) add(value, 'enum', `enum value ${json(value)}`);
    if (schema.type === 'string') {
      for (const [value, kind, label] of this.stringSeeds(schema)) add(value, kind, label);
      for (const seed of candidates
        .filter((candidate) => typeof candidate.value === 'string')
        .map((candidate) => candidate.value as string)) {
        if (schema.minLength !== undefined)
          add(resize(seed, schema.minLength), 'minLength', `${schema.minLength} characters`);
        if (schema.maxLength !== undefined)
          add(resize(seed, schema.maxLength), 'maxLength', `${schema.maxLength} characters`);
      }
    }
    if (schema.type === 'number' || schema.type === 'integer') {
      for (const [value, kind, label] of numberBounds(schema)) add(value, kind, label);
    }
    if (schema.type === 'boolean') add(true, 'type', 'true');
    const valid = unique(candidates.filter((candidate) => this.validator(schema)(candidate.value)));
    if (valid.length === 0) throw new Error(`no valid value found for ${path || 'the body'}: ${json(schema)}`);
    return valid;
  }

  private stringSeeds(schema: Schema): [string, string, string][] {
    const seeds: [string, string, string][] = [];
    if (schema.pattern) {
      const extremes = patternExtremes(schema.pattern);
      if (extremes)
        seeds.push(
          [extremes.shortest, 'pattern', 'the shortest string of the pattern'],
          [extremes.longest, 'pattern', 'the longest string of the pattern'],
        );
      const samples = fc.sample(fc.stringMatching(new RegExp(schema.pattern, 'u')), {
        seed: this.options.seed,
        numRuns: 3,
      });
      seeds.push(
        ...samples.map((sample): [string, string, string] => [
          sample,
          'pattern',
          'a random string matching the pattern',
        ]),
      );
    }
    if (schema.format) {
      const samples = FORMAT_SAMPLES[schema.format];
      if (!samples) throw new Error(`the fuzzer has no sample of format ${schema.format}: add one to FORMAT_SAMPLES`);
      seeds.push(...samples.map((sample): [string, string, string] => [sample, 'format', `a ${schema.format}`]));
    }
    if (!schema.pattern && !schema.format) seeds.push(['Fuzz', 'type', 'a plain string']);
    return seeds;
  }

  private scalarBroken(schema: Schema, path: string): Variant[] {
    const broken: Variant[] = [];
    const keywords = constraintsOf(schema);
    const valid = this.scalarValid(schema, path).map((variant) => variant.value);
    // The candidate that breaks the keyword alone when there is one (a string one shorter than
    // minLength may also break the pattern), else the first that breaks it at all.
    const pickBreaking = (keyword: string, candidates: unknown[], label: (value: unknown) => string, count = 1) => {
      const failing = candidates.filter((value) => this.errorsOf(schema, value).includes(keyword));
      const alone = failing.filter((value) => this.errorsOf(schema, value).length === 1);
      const chosen = unique(
        [...alone, ...failing].map((value) => ({ value, path, kind: keyword, label: label(value) })),
      ).slice(0, count);
      if (chosen.length === 0) throw new Error(`the fuzzer found no value breaking ${keyword} alone at ${path}`);
      broken.push(...chosen);
    };
    const strings = valid.filter((value): value is string => typeof value === 'string');
    for (const keyword of keywords) {
      switch (keyword) {
        case 'type':
          break;
        case 'enum':
          pickBreaking(
            'enum',
            schema.enum.flatMap((value: unknown) =>
              typeof value === 'string' ? [`${value}X`, value.toLowerCase(), ''] : [json(value)],
            ),
            (value) => `${json(value)}, not in the enum`,
          );
          break;
        case 'minLength':
          pickBreaking(
            'minLength',
            strings.map((value) => resize(value, schema.minLength - 1)),
            (value) => `${(value as string).length} characters`,
          );
          break;
        case 'maxLength':
          pickBreaking(
            'maxLength',
            strings.map((value) => resize(value, schema.maxLength + 1)),
            (value) => `${(value as string).length} characters`,
          );
          break;
        case 'pattern':
          pickBreaking(
            'pattern',
            patternBreakers(strings),
            (value) => `${json(value).slice(0, 40)} breaks the pattern`,
            4,
          );
          break;
        case 'format':
          pickBreaking(
            'format',
            FORMAT_BREAKERS[schema.format] ?? [],
            (value) => `${json(value)} is no ${schema.format}`,
          );
          break;
        case 'minimum':
          pickBreaking(
            'minimum',
            [schema.type === 'integer' ? schema.minimum - 1 : nextDown(schema.minimum)],
            (value) => `${json(value)}, below the minimum`,
          );
          break;
        case 'maximum':
          pickBreaking(
            'maximum',
            [schema.type === 'integer' ? schema.maximum + 1 : nextUp(schema.maximum)],
            (value) => `${json(value)}, above the maximum`,
          );
          break;
        case 'exclusiveMinimum':
          pickBreaking(
            'exclusiveMinimum',
            [schema.exclusiveMinimum],
            (value) => `${json(value)}, the exclusive minimum`,
          );
          break;
        case 'exclusiveMaximum':
          pickBreaking(
            'exclusiveMaximum',
            [schema.exclusiveMaximum, schema.exclusiveMaximum * 1e12],
            (value) => `${json(value)}, at or past the exclusive maximum`,
            2,
          );
          break;
        default:
          throw new Error(`the fuzzer cannot break ${keyword} of a ${schema.type} at ${path}`);
      }
    }
    if (schema.type === 'integer')
      pickBreaking(
        'type',
        valid.map((value) => (value as number) + 0.5),
        (value) => `${json(value)}, not a whole number`,
      );
    return broken;
  }
}

/** Numbers at and just inside each bound (for numbers, the nearest double), and one between. */
function numberBounds(schema: Schema): [number, string, string][] {
  const integer = schema.type === 'integer';
  const step = (value: number, up: boolean) => (integer ? value + (up ? 1 : -1) : up ? nextUp(value) : nextDown(value));
  const low =
    schema.minimum ?? (schema.exclusiveMinimum === undefined ? undefined : step(schema.exclusiveMinimum, true));
  const high =
    schema.maximum ?? (schema.exclusiveMaximum === undefined ? undefined : step(schema.exclusiveMaximum, false));
  const out: [number, string, string][] = [];
  if (low !== undefined)
    out.push(
      [low, 'minimum', `${low}, the lowest allowed`],
      [step(low, true), 'minimum', `${step(low, true)}, just above the lowest`],
    );
  if (high !== undefined)
    out.push(
      [high, 'maximum', `${high}, the highest allowed`],
      [step(high, false), 'maximum', `${step(high, false)}, just below the highest`],
    );
  const middle = low !== undefined && high !== undefined ? (low + high) / 2 : (low ?? high ?? 0) + (integer ? 1 : 1.5);
  out.push([integer ? Math.floor(middle) : middle, 'type', `${middle}, within the bounds`]);
  if (!integer) out.push([1e-7, 'type', '1e-7, written with an exponent'], [17.2, 'type', '17.2']);
  return out;
}

/** Variants of valid strings that may break a pattern; the caller keeps those that do. */
function patternBreakers(valid: string[]): string[] {
  const out: string[] = [''];
  for (const value of valid) {
    out.push(value.slice(0, -1), value + value.slice(-1), value + value);
    for (const odd of ODD_CHARACTERS)
      out.push(odd + value.slice(1), value.slice(0, -1) + odd, `${value.slice(0, 1)}${odd}${value.slice(1)}`);
  }
  return out;
}

/** Whether HTTP carries a header value as it is: no surrounding white space, no control characters. */
function sendsAsIs(value: string): boolean {
  return /^([\x21-\x7E\x80-\xFF]([\t\x20-\x7E\x80-\xFF]*[\x21-\x7E\x80-\xFF])?)?$/.test(value);
}

/** A string of `length` characters made from `seed`: its first character repeated in front, or the start cut. */
function resize(seed: string, length: number): string {
  if (length < 0) return seed;
  if (seed.length >= length) return seed.slice(seed.length - length);
  return (seed[0] ?? 'x').repeat(length - seed.length) + seed;
}

function unusedKey(schema: Schema): string {
  let key = 'UndeclaredField';
  while (schema.properties && key in schema.properties) key += 'X';
  return key;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

function unique(variants: Variant[]): Variant[] {
  const seen = new Set<string>();
  return variants.filter((variant) => {
    const key = `${variant.path} ${json(variant.value)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const buffer = new DataView(new ArrayBuffer(8));

/** The next double above a finite number. */
export function nextUp(value: number): number {
  if (value === 0) return Number.MIN_VALUE;
  buffer.setFloat64(0, value);
  const bits = buffer.getBigUint64(0);
  buffer.setBigUint64(0, value > 0 ? bits + 1n : bits - 1n);
  return buffer.getFloat64(0);
}

/** The next double below a finite number. */
export function nextDown(value: number): number {
  return -nextUp(-value);
}
