import http from 'node:http';
import { createHash } from 'node:crypto';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { addMember, makeLab, makeUser, TestUser, useTestApp } from './support/app';

/**
 * Issue 10: every route of the service's own OpenAPI document, driven with generated bad input
 * (wrong types, huge and deep values, bad encodings, missing and extra members, bad path and
 * query values, bad headers), as an anonymous caller, a plain user, and the admin on admin
 * routes (the release token on release routes). Nothing may answer 5xx or leak a stack trace,
 * SQL or a source path; JSON errors have the documented shape; no write is accepted (every
 * generated write is invalid by construction: a write that succeeds is a generator bug or a
 * server that accepts bad input); and the database is the same afterwards.
 *
 * Deterministic: FUZZ_SEED picks the run (the seed is printed), FUZZ_PER_ROUTE the number of
 * requests per route and caller that may pass the route's auth gate. A failure prints the exact
 * request and its number in the run, so it can be replayed with curl or `http.request`.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 0x10f022);
const PER_ROUTE = Number(process.env.FUZZ_PER_ROUTE ?? 70);
/** Requests per route for a caller that the auth gate turns away (401/403): cheap, few needed. */
const PER_REFUSED_CALLER = Math.max(4, Math.round(PER_ROUTE / 8));
const IN_FLIGHT = 8;
const REQUEST_TIMEOUT_MS = 20_000;
const MIN_REQUESTS = 5000;

const RELEASE_TOKEN = 'release-token-for-the-fuzz-test-0123456789abcdef';
const SESSION_ID = 'fuzz-owned';

const t = useTestApp({ RELEASE_TOKEN, TRUST_PROXY: 'true', FIGURE_CDN_HOSTS: 'cdn.example' });

// ---------------------------------------------------------------------------------------------
// A seeded PRNG (mulberry32): the same seed sends the same requests in the same order.

type Rng = () => number;
function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const chance = (rng: Rng, p: number) => rng() < p;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => '0123456789abcdef'[int(rng, 0, 15)]).join('');

// ---------------------------------------------------------------------------------------------
// Values

/** Bytes spliced into a JSON text as they are: malformed numbers, escapes, invalid UTF-8. */
class Raw {
  constructor(readonly bytes: Buffer) {}
}
const raw = (value: string | Buffer) => new Raw(typeof value === 'string' ? Buffer.from(value, 'utf8') : value);

/** JSON text of `value`, with `Raw` parts spliced in. */
function encodeJson(value: unknown): Buffer {
  const out: Buffer[] = [];
  const walk = (v: unknown) => {
    if (v instanceof Raw) out.push(v.bytes);
    else if (Array.isArray(v)) {
      out.push(Buffer.from('['));
      v.forEach((item, i) => {
        if (i) out.push(Buffer.from(','));
        walk(item);
      });
      out.push(Buffer.from(']'));
    } else if (v !== null && typeof v === 'object') {
      out.push(Buffer.from('{'));
      Object.entries(v).forEach(([key, item], i) => {
        out.push(Buffer.from(`${i ? ',' : ''}${JSON.stringify(key)}:`));
        walk(item);
      });
      out.push(Buffer.from('}'));
    } else out.push(Buffer.from(JSON.stringify(v) ?? 'null'));
  };
  walk(value);
  return Buffer.concat(out);
}

/** An object with `key` as an own member, whatever the key (`__proto__` included). */
function withMember(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...object };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

const deepArray = (depth: number) => raw(`${'['.repeat(depth)}${']'.repeat(depth)}`);
const deepObject = (depth: number) => raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
const hugeString = (rng: Rng) => pick(rng, ['x', 'é', '💥', ' ']).repeat(pick(rng, [10_000, 100_000, 100_000, 1_000_000]));

/** Text values that are odd but well-typed strings: a server may accept them. */
const ODD_TEXT = [
  '',
  ' ',
  'null',
  'undefined',
  '0',
  '-1',
  '1e309',
  '[]',
  '{}',
  '💥',
  'é',
  'Ω≈ç√∫',
  '\u202egnp.exe',
  'a\u200bb',
  'e\u0301',
  "' or 1=1 --",
  '"; drop table users; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '\r\n\t',
  'x'.repeat(300),
  'x'.repeat(5000),
];
/** Strings no text field may hold: NUL, and a lone surrogate (escaped, so the JSON is valid). */
const UNSTORABLE = [raw('"a\\u0000b"'), raw('"\\u0000"'), raw('"\\ud800"'), raw('"x\\udfffy"')];
/** Invalid UTF-8 inside a JSON string: a lone continuation byte, an overlong '/', a surrogate, beyond U+10FFFF, truncated. */
const BAD_UTF8 = [[0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe0, 0xa4], [0xff, 0xfe]].map((bytes) =>
  raw(Buffer.concat([Buffer.from('"a'), Buffer.from(bytes), Buffer.from('b"')])),
);
const BAD_NUMBERS = [raw('1e400'), raw('-1e400'), 1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, raw('1' + '0'.repeat(400))];

// ---------------------------------------------------------------------------------------------
// The OpenAPI document

type Schema = Record<string, any>;
interface Operation {
  method: string;
  path: string;
  tags: string[];
  secured: boolean;
  parameters: { name: string; in: 'path' | 'query'; required: boolean; schema: Schema }[];
  body?: { required: boolean; mediaType: string; schema?: Schema };
}

let components: Record<string, Schema> = {};
const deref = (schema: Schema | undefined): Schema => {
  if (!schema) return {};
  if (typeof schema.$ref === 'string') return components[schema.$ref.split('/').pop()!] ?? {};
  return schema;
};
const nullable = (schema: Schema) => Array.isArray(deref(schema).anyOf) && deref(schema).anyOf.some((s: Schema) => s.type === 'null');
/** The schema without its `null` alternative. */
const core = (schema: Schema): Schema => {
  const s = deref(schema);
  if (Array.isArray(s.anyOf)) return deref(s.anyOf.find((x: Schema) => x.type !== 'null'));
  return s;
};
type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any';
const kindOf = (schema: Schema): Kind => (core(schema).type as Kind | undefined) ?? 'any';

function operationsOf(doc: Schema): Operation[] {
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, Schema>>(doc.paths)) {
    for (const [method, entry] of Object.entries(methods)) {
      const content = entry.requestBody?.content as Record<string, Schema> | undefined;
      const mediaType = content ? Object.keys(content)[0] : undefined;
      out.push({
        method: method.toUpperCase(),
        path,
        tags: entry.tags ?? [],
        secured: (entry.security ?? []).length > 0,
        parameters: entry.parameters ?? [],
        body: mediaType ? { required: entry.requestBody.required === true, mediaType, schema: content![mediaType].schema } : undefined,
      });
    }
  }
  return out;
}

/** A value of `schema` that passes its types (not necessarily the domain's checks). */
function plausible(rng: Rng, schema: Schema, depth = 0, every = false): unknown {
  const s = core(schema);
  if (Array.isArray(s.enum)) return pick(rng, s.enum);
  switch (s.type) {
    case 'string':
      return s.format === 'date-time' ? '2026-01-01T00:00:00.000Z' : pick(rng, ['fuzz', 'a', 'x-1']);
    case 'integer':
      return int(rng, 1, 5);
    case 'number':
      return 1.5;
    case 'boolean':
      return chance(rng, 0.5);
    case 'array':
      return depth > 3 ? [] : Array.from({ length: int(rng, 0, 2) }, () => plausible(rng, s.items ?? {}, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      const required: string[] = s.required ?? [];
      for (const [name, member] of Object.entries<Schema>(s.properties ?? {})) {
        if (required.includes(name) || (depth === 0 && every) || (depth < 3 && chance(rng, 0.3)))
          out[name] = plausible(rng, member, depth + 1);
      }
      return out;
    }
    default:
      return { any: 'json' };
  }
}

/** Values that are not of `schema`'s type (nor null). */
function wrongTypes(schema: Schema): unknown[] {
  const s = core(schema);
  const all: Record<Kind, unknown> = {
    string: 'text',
    integer: 7,
    number: 2.5,
    boolean: true,
    array: [1, 'x'],
    object: { a: 1 },
    any: null,
  };
  const ok = new Set<Kind>([kindOf(schema)]);
  if (s.type === 'number') ok.add('integer');
  const out = (Object.keys(all) as Kind[]).filter((k) => k !== 'any' && !ok.has(k)).map((k) => all[k]);
  if (Array.isArray(s.enum))
    out.push('NOT_A_MEMBER', s.enum[0].toUpperCase() === s.enum[0] ? s.enum[0].toLowerCase() : s.enum[0].toUpperCase(), ` ${s.enum[0]}`);
  if (s.format === 'date-time') out.push('yesterday', '2026-13-45T99:99:99Z', '0', '');
  return out;
}

interface Slot {
  /** Member names and indexes from the body's top. */
  path: (string | number)[];
  schema: Schema;
  /** Below a member stored as raw JSON text (records): types are not checked there. */
  opaque: boolean;
  required: boolean;
}

/** Every member and array element of `value`, with the schema that describes it. */
function slotsOf(value: unknown, schema: Schema, path: (string | number)[] = [], opaque = false, out: Slot[] = []): Slot[] {
  const s = core(schema);
  if (s.type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const name of Object.keys(value)) {
      const member = (s.properties ?? {})[name];
      if (!member) continue;
      const slot = { path: [...path, name], schema: member, opaque, required: (s.required ?? []).includes(name) };
      out.push(slot);
      slotsOf((value as Record<string, unknown>)[name], member, slot.path, opaque || name === 'records', out);
    }
  } else if (s.type === 'array' && Array.isArray(value)) {
    value.forEach((item, i) => {
      const slot = { path: [...path, i], schema: s.items ?? {}, opaque, required: false };
      out.push(slot);
      slotsOf(item, s.items ?? {}, slot.path, opaque, out);
    });
  }
  return out;
}

function setAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, i) => (i === head ? setAt(item, rest, replacement) : item));
  const object = value as Record<string, unknown>;
  return withMember(object, String(head), setAt(object[head as string], rest, replacement));
}
function removeAt(value: unknown, path: (string | number)[]): unknown {
  const [head, ...rest] = path;
  if (rest.length) return setAt(value, [head], removeAt((value as Record<string, unknown>)[head as string], rest));
  const kept = { ...(value as Record<string, unknown>) };
  delete kept[head as string];
  return kept;
}

// ---------------------------------------------------------------------------------------------
// Requests

type Caller = 'anonymous' | 'user' | 'admin' | 'release';

interface FuzzRequest {
  /** Its place in the run (the same for the same seed). */
  n?: number;
  caller: Caller;
  method: string;
  /** The request target exactly as sent (path and query, already percent-encoded or deliberately not). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the generator did: for the failure report. */
  what: string[];
  /** A write every step of which the server should accept is never generated: this request must be refused. */
  mustRefuse: boolean;
}

interface Fixtures {
  plain: TestUser;
  other: TestUser;
  labId: string;
  labCode: string;
  annotationId: string;
}
let f: Fixtures;

/** Real ids by path parameter name: a request that names them gets past the lookups. */
const realIds = (): Record<string, string[]> => ({
  lab_id: [f.labId],
  member_user_id: [f.other.id, f.plain.id],
  user_id: [f.plain.id, f.other.id],
  session_id: [SESSION_ID],
  annotation_id: [f.annotationId],
  product: ['desktop', 'core'],
  version: ['1.0.0'],
  filename: ['app.dmg'],
  feed: ['latest.yml', 'latest-mac.yml'],
});

/** Path segments as sent (percent-encoded, or broken on purpose). */
function badSegment(rng: Rng): { text: string; what: string } {
  const enc = (s: string) => ({ text: encodeURIComponent(s), what: JSON.stringify(s.length > 40 ? `${s.slice(0, 20)}…(${s.length})` : s) });
  const rawSegment = (s: string) => ({ text: s, what: `raw ${s.length > 40 ? `${s.slice(0, 20)}…(${s.length})` : s}` });
  return pick(rng, [
    () =>
      enc(
        pick(rng, ['0', '-1', '1.5', '1e309', '99999999999999999999999', 'NaN', 'null', 'undefined', 'true', '[]', '{}', ' ', 'a b', '+']),
      ),
    () =>
      enc(
        pick(
          rng,
          ODD_TEXT.filter((s) => s !== ''),
        ),
      ),
    () => enc('x'.repeat(pick(rng, [256, 1000, 4000]))),
    () =>
      rawSegment(
        pick(rng, ['%00', 'a%00b', '%ff', '%fe%ff', '%E0%A4%A', '%', '%%', '%zz', '%2', '%C0%AF', '%ED%A0%80', '%F4%90%80%80', '%c3%28']),
      ),
    () =>
      rawSegment(
        pick(rng, ['..', '.', '%2e%2e', '..%2f..%2fetc%2fpasswd', '%2e%2e%2f', '%2F', '%5c..%5c', '...', '%0d%0aSet-Cookie:%20x']),
      ),
    () => rawSegment(pick(rng, ['\u00ff', '\u00e9t\u00e9', 'a;b=c', 'a,b', '~', '$', '*', '@', "'", '!', '(', ')'])),
    () =>
      enc(
        pick(rng, [
          `lab_${hex(rng, 12)}`,
          `usr_${hex(rng, 12)}`,
          `ann_${hex(rng, 12)}`,
          randomUUIDFrom(rng),
          hex(rng, 64),
          `${int(rng, 0, 9)}.${int(rng, 0, 9)}`,
        ]),
      ),
  ])();
}
const randomUUIDFrom = (rng: Rng) => `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-8${hex(rng, 3)}-${hex(rng, 12)}`;

/** Query values for a parameter of `kind`, as sent. */
function badQueryValue(rng: Rng, schema: Schema): { text: string; what: string } {
  const enc = (s: string) => ({ text: encodeURIComponent(s), what: JSON.stringify(s.length > 40 ? `${s.slice(0, 20)}…(${s.length})` : s) });
  const kind = kindOf(schema);
  const typed: Record<string, string[]> = {
    integer: [
      'abc',
      '1.5',
      '-1',
      '0',
      '-99999999999',
      '99999999999999999999',
      '1e400',
      '0x10',
      ' 1',
      '',
      'NaN',
      'Infinity',
      '2147483648',
      '-2147483649',
      '１',
      '1,2',
      'null',
      'true',
      '5',
    ],
    number: ['abc', '-1', '1e400', 'NaN', '', '0x1p3', '5'],
    boolean: ['maybe', 'TRUE', 'yes', '2', '', 'null', '1', 'true', 'false'],
    string: ODD_TEXT,
  };
  return pick(rng, [
    () => enc(pick(rng, typed[kind] ?? ODD_TEXT)),
    () => enc(pick(rng, ODD_TEXT)),
    () => ({
      text: pick(rng, ['%ff', '%', '%E0%A4%A', '%00', 'a%00b', '%zz', '+%2B+', '%ED%A0%80', '&&', '==', '%26', '#']),
      what: 'raw bad encoding',
    }),
    () =>
      Array.isArray(core(schema).enum)
        ? enc(pick(rng, ['NOT_A_MEMBER', String(core(schema).enum[0]).toUpperCase(), '']))
        : enc('x'.repeat(pick(rng, [1000, 6000]))),
  ])();
}

/** Query names the stream routes read themselves, and other plausible ones. */
const EXTRA_QUERY = [
  'since',
  'download',
  'path',
  'expires',
  'type',
  'signature',
  'limit',
  'offset',
  'q',
  'cursor',
  'page',
  '__proto__',
  'constructor',
  'lab_id',
  'owner',
  'x'.repeat(300),
  '',
];

function queryOf(rng: Rng, op: Operation, what: string[]): string {
  const parts: string[] = [];
  const real: Record<string, string> = { code: f.labCode, lab_id: f.labId, owner: f.plain.id, limit: '5' };
  for (const p of op.parameters.filter((p) => p.in === 'query')) {
    const r = rng();
    if (r < 0.1 && real[p.name]) {
      // A good value beside bad ones elsewhere: the request gets further.
      parts.push(`${p.name}=${encodeURIComponent(real[p.name])}`);
      what.push(`query ${p.name}=a real value`);
    } else if (r < 0.45) {
      const v = badQueryValue(rng, p.schema);
      parts.push(`${p.name}=${v.text}`);
      what.push(`query ${p.name}=${v.what}`);
    } else if (r < 0.55) {
      parts.push(`${p.name}=${badQueryValue(rng, p.schema).text}`, `${p.name}=${badQueryValue(rng, p.schema).text}`);
      what.push(`query ${p.name} repeated`);
    } else if (r < 0.62) {
      parts.push(`${p.name}[]=1`, `${p.name}[x]=2`);
      what.push(`query ${p.name}[] array syntax`);
    } else if (r < 0.7) {
      parts.push(`${p.name}`);
      what.push(`query ${p.name} without a value`);
    }
  }
  if (chance(rng, 0.4)) {
    for (let i = int(rng, 1, 3); i > 0; i--) {
      const name = pick(rng, EXTRA_QUERY);
      const v = badQueryValue(rng, { type: pick(rng, ['string', 'integer', 'boolean']) });
      parts.push(`${encodeURIComponent(name)}=${v.text}`);
      what.push(`extra query ${name.slice(0, 20)}=${v.what}`);
    }
  }
  if (chance(rng, 0.01)) {
    parts.push(`pad=${'y'.repeat(20_000)}`);
    what.push('a 20 KB query string');
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Headers besides the caller's credentials: byte ranges, validators, forwarded host, client kind. */
function extraHeaders(rng: Rng, headers: Record<string, string>, what: string[]) {
  const choices: [string, string[]][] = [
    [
      'range',
      [
        'bytes=0-0',
        'bytes=abc',
        'bytes=-',
        'bytes=5-1',
        'bytes=-0',
        'bytes=999999999999999999999-',
        `bytes=0-${'9'.repeat(30)}`,
        `bytes=${Array(300).fill('0-0').join(',')}`,
        'items=0-1',
        'bytes=0-1,,,',
        'bytes=1e3-2e3',
        'bytes= 0 - 1',
        'bytes=0-1,0-1',
        'bytes=-99999999999999999999',
      ],
    ],
    ['if-none-match', ['*', '"x"', 'W/"', `"${'a'.repeat(5000)}"`, ',,,', 'W/W/"x"', '"a", "b", *']],
    ['if-modified-since', ['yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT', '99999999999', 'Mon, 32 Foo 99999 99:99:99 GMT', '']],
    ['if-range', ['"etag"', 'W/"weak"', 'Thu, 01 Jan 1970 00:00:00 GMT', 'garbage', '']],
    ['x-client-kind', ['cloud', 'CLOUD', 'desktop', 'x'.repeat(1000), '']],
    ['x-forwarded-host', ['evil.example', 'a b', '[::1', '', 'x'.repeat(300), 'a,b,c', 'évil.example']],
    ['x-forwarded-proto', ['ftp', 'https', '', 'HTTP', 'javascript']],
    ['x-request-id', ['', ' ', 'x'.repeat(500), '../..', 'é']],
    ['accept', ['*/*', 'text/html', 'application/x-ndjson', 'a'.repeat(4000), ';;;']],
    ['accept-encoding', ['gzip', 'br', 'deflate', 'x-garbage', '*;q=0']],
    ['origin', ['null', 'http://evil.example', 'x']],
  ];
  for (let i = int(rng, 0, 2); i > 0; i--) {
    const [name, values] = pick(rng, choices);
    // Latin-1 is all a header value carries: anything else goes as its UTF-8 bytes read as Latin-1.
    const value = Buffer.from(pick(rng, values), 'utf8').toString('latin1');
    headers[name] = value;
    what.push(`header ${name}: ${value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : value}`);
  }
}

function credentialsOf(rng: Rng, caller: Caller, headers: Record<string, string>, what: string[]) {
  const token = caller === 'user' ? f.plain.token : caller === 'admin' ? t.adminToken : caller === 'release' ? RELEASE_TOKEN : undefined;
  if (token) {
    headers.authorization = `Bearer ${token}`;
    return;
  }
  if (chance(rng, 0.3)) {
    const value = pick(rng, [
      'Bearer',
      'Bearer ',
      'Bearer x',
      `Bearer ${'a'.repeat(10_000)}`,
      'Basic Zm9vOmJhcg==',
      `bearer ${f.plain.token.slice(0, -1)}`,
      `Bearer ldk_pat_${hex(rng, 40)}`,
      `Bearer ldk_ct_${hex(rng, 40)}`,
      'Bearer ldk_rt_',
      `Bearer ${f.plain.token} ${f.plain.token}`,
      'Bearer \u00ff\u00fe',
      `Bearer ${RELEASE_TOKEN}x`,
    ]);
    headers.authorization = value;
    what.push(`authorization: ${value.length > 40 ? `${value.slice(0, 30)}…(${value.length})` : value}`);
  }
}

interface Body {
  bytes?: Buffer;
  headers: Record<string, string>;
  what: string;
  /** A route that reads this body must refuse it. */
  invalid: boolean;
  /** Refused before any route reads it: it cannot be decoded or parsed as JSON (implies `invalid`). */
  unreadable?: boolean;
}

/** What a member may be replaced with: [label, value, whether the server must refuse it]. */
function replacementsFor(rng: Rng, slot: Slot): [string, unknown, boolean][] {
  const kind = kindOf(slot.schema);
  const typed = !slot.opaque && kind !== 'any';
  const out: [string, unknown, boolean][] = [
    ...wrongTypes(slot.schema).map((v): [string, unknown, boolean] => [`wrong type ${JSON.stringify(v)}`, v, typed]),
    ['null', null, !slot.opaque && (slot.required || !nullable(slot.schema))],
    ['huge string', hugeString(rng), false],
    ['deep array', deepArray(pick(rng, [50, 1000, 100_000])), typed && kind !== 'array'],
    ['deep object', deepObject(pick(rng, [50, 1000, 100_000])), typed && kind !== 'object'],
  ];
  if (kind === 'integer' || kind === 'number') {
    out.push(
      ...BAD_NUMBERS.map((v): [string, unknown, boolean] => [
        `bad number ${v instanceof Raw ? v.bytes.toString() : v}`,
        v,
        typed && kind === 'integer',
      ]),
      ['negative', -1, false],
      ['zero', 0, false],
    );
  }
  if (kind === 'string' && !core(slot.schema).enum) {
    out.push(
      ['odd text', pick(rng, ODD_TEXT), false],
      ['unstorable text', pick(rng, UNSTORABLE), !slot.opaque],
      ['invalid UTF-8', pick(rng, BAD_UTF8), true],
    );
  }
  return out;
}

/** One body per (top-level member × replacement), per missing required member, and with an extra member: every member gets every kind of bad value. */
function sweepBodies(rng: Rng, schema: Schema): Body[] {
  const s = core(schema);
  const base = plausible(rng, s, 0, true) as Record<string, unknown>;
  const json = (value: unknown, what: string, invalid: boolean): Body => ({
    bytes: encodeJson(value),
    headers: { 'content-type': 'application/json' },
    what: `sweep: ${what}`,
    invalid,
  });
  const out: Body[] = [];
  for (const slot of slotsOf(base, s).filter((x) => x.path.length === 1)) {
    for (const [label, value, invalid] of replacementsFor(rng, slot))
      out.push(json(setAt(base, slot.path, value), `${label} at ${slot.path[0]}`, invalid));
  }
  for (const name of s.required ?? []) out.push(json(removeAt(base, [name]), `missing required ${name}`, true));
  out.push(json(withMember(base, 'extra', 1), 'extra member', s.additionalProperties === false));
  return out;
}

/** A JSON body for `schema`, broken in one way. */
function jsonBody(rng: Rng, schema: Schema, bodyRequired: boolean): Body {
  const s = core(schema);
  const base = plausible(rng, s) as Record<string, unknown>;
  const required: string[] = s.required ?? [];
  const json = (value: unknown, what: string, invalid: boolean): Body => ({
    bytes: encodeJson(value),
    headers: { 'content-type': 'application/json' },
    what,
    invalid,
  });
  const text = (body: string | Buffer, what: string, unreadable = true, invalid = unreadable): Body => ({
    bytes: Buffer.from(body),
    headers: { 'content-type': 'application/json' },
    what,
    invalid,
    unreadable,
  });

  const slots = slotsOf(base, s);
  const strategies: [number, () => Body][] = [
    [
      slots.length ? 6 : 0,
      () => {
        const slot = pick(rng, slots);
        const [label, value, invalid] = pick(rng, replacementsFor(rng, slot));
        return json(setAt(base, slot.path, value), `${label} at ${slot.path.join('.')}`, invalid);
      },
    ],
    [
      required.length ? 2 : 0,
      () => {
        const name = pick(rng, required);
        return json(removeAt(base, [name]), `missing required ${name}`, true);
      },
    ],
    [
      2,
      () => {
        const props = Object.keys(s.properties ?? {});
        const camel = props.find((p) => p.includes('_'))?.replace(/_(.)/g, (_m, c: string) => c.toUpperCase());
        const name = pick(rng, [
          'extra',
          '__proto__',
          'constructor',
          'toString',
          'x'.repeat(1000),
          '',
          props[0]?.toUpperCase() ?? 'X',
          camel ?? 'camelCase',
          'hasOwnProperty',
        ]);
        return json(
          withMember(base, name, pick(rng, [1, 'x', null, { a: 1 }, [] as unknown[]])),
          `extra member ${JSON.stringify(name.slice(0, 20))}`,
          s.additionalProperties === false,
        );
      },
    ],
    [
      2,
      () => {
        const [label, value, invalid] = pick(rng, [
          ['array body', [], true],
          ['array of the body', [base], true],
          ['string body', 'text', true],
          ['number body', 0, true],
          ['boolean body', true, true],
          ['null body', null, bodyRequired],
          ['deep array body', deepArray(pick(rng, [1000, 100_000])), true],
          ['deep object body', deepObject(pick(rng, [1000, 100_000])), s.additionalProperties === false],
        ] as [string, unknown, boolean][]);
        return json(value, label, invalid);
      },
    ],
    [
      2,
      () =>
        pick(rng, [
          () => text('{', 'malformed JSON: {'),
          () => text('{"a":}', 'malformed JSON: missing value'),
          () => text("{'a':1}", 'malformed JSON: single quotes'),
          () => text('{"a":1}}', 'malformed JSON: trailing brace'),
          () => text(`${encodeJson(base).toString()} x`, 'malformed JSON: trailing garbage'),
          () => text('NaN', 'malformed JSON: NaN'),
          () => text('tru', 'malformed JSON: tru'),
          () => text('\u0000', 'malformed JSON: NUL'),
          () => text('\uFEFF\uFEFF{}', 'malformed JSON: two byte-order marks'),
          () => text('[' + '['.repeat(int(rng, 1, 200_000)), 'malformed JSON: unclosed brackets'),
          () => text(`{"a":"${'x'.repeat(1000)}`, 'malformed JSON: unterminated string'),
          () => text(Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]), 'UTF-16 bytes'),
          () => text(Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]), 'invalid UTF-8 in a member name', false, true),
          () => text('', 'empty body', false, required.length > 0),
          () => text(' \n\t ', 'whitespace body', false, required.length > 0),
        ])(),
    ],
    [0.02, () => text(bigBody(), 'a 10.5 MB string body')],
  ];
  const total = strategies.reduce((sum, [w]) => sum + w, 0);
  let r = rng() * total;
  for (const [weight, make] of strategies) {
    if ((r -= weight) < 0) return make();
  }
  return strategies[0][1]();
}

const once = <T>(make: () => T) => {
  let value: T | undefined;
  return () => (value ??= make());
};
/** A body over the default 10 MB limit (made once). */
const bigBody = once(() => Buffer.from(`"${'z'.repeat(10.5 * 1024 * 1024)}"`));
const bombs = new Map<number, Buffer>();
/** `megabytes` of '[' gzipped to a few KB: inflated past the limit, or unparseable within it (made once per size). */
const gzipBomb = (megabytes: number) =>
  bombs.get(megabytes) ?? bombs.set(megabytes, gzipSync(Buffer.alloc(megabytes * 1024 * 1024, '['))).get(megabytes)!;

/** The media type and transfer coding of a body, broken in one way (or not). */
function encodingOf(rng: Rng, body: Body, bodyRequired: boolean): Body {
  if (!body.bytes) return body;
  const r = rng();
  if (r < 0.6) return body;
  const out = { ...body, headers: { ...body.headers } };
  const unparsed = (contentType: string | undefined, what: string): Body => {
    if (contentType === undefined) delete out.headers['content-type'];
    else out.headers['content-type'] = contentType;
    // The JSON parser leaves other media types alone: the body is then missing, which only a required body refuses.
    return { ...out, what: `${body.what}; ${what}`, invalid: bodyRequired, unreadable: false };
  };
  return pick(rng, [
    () => unparsed('text/plain', 'content-type text/plain'),
    () => unparsed('application/x-www-form-urlencoded', 'content-type form'),
    () => unparsed('multipart/form-data; boundary=x', 'content-type multipart'),
    () => unparsed(undefined, 'no content-type'),
    () => unparsed('application/jsonp', 'content-type application/jsonp'),
    () => ({
      ...out,
      headers: {
        ...out.headers,
        'content-type': pick(rng, [
          'application/json; charset=latin1',
          'application/json; charset=utf-16le',
          'application/json; charset=utf-32',
          'application/json; charset="x"',
          'application/json; charset=',
        ]),
      },
      what: `${body.what}; bad charset`,
      invalid: true,
      unreadable: true,
    }),
    () => ({
      ...out,
      headers: {
        ...out.headers,
        'content-type': pick(rng, ['APPLICATION/JSON', 'application/json; charset=UTF-8', 'application/json; x=y']),
      },
      what: `${body.what}; odd but JSON content-type`,
    }),
    () => ({
      ...out,
      headers: { ...out.headers, 'content-encoding': pick(rng, ['identity', 'IDENTITY', '']) },
      what: `${body.what}; identity content-encoding`,
    }),
    () => ({
      ...out,
      headers: { ...out.headers, 'content-encoding': pick(rng, ['gzip', 'deflate', 'br']) },
      what: `${body.what}; content-encoding claimed, body not encoded`,
      invalid: true,
      unreadable: true,
    }),
    () => ({
      ...out,
      headers: { ...out.headers, 'content-encoding': pick(rng, ['zstd', 'x-garbage', 'gzip, gzip', 'compress']) },
      what: `${body.what}; unknown content-encoding`,
      invalid: true,
      unreadable: true,
    }),
    () => {
      const coding = pick(rng, ['gzip', 'deflate', 'br']);
      const bytes =
        coding === 'gzip' ? gzipSync(body.bytes!) : coding === 'deflate' ? deflateSync(body.bytes!) : brotliCompressSync(body.bytes!);
      return { ...out, bytes, headers: { ...out.headers, 'content-encoding': coding }, what: `${body.what}; really ${coding}` };
    },
    () => ({
      ...out,
      bytes: gzipBomb(pick(rng, [12, 70])),
      headers: { ...out.headers, 'content-encoding': 'gzip' },
      what: 'a gzip bomb of brackets',
      invalid: true,
      unreadable: true,
    }),
    () => ({
      ...out,
      bytes: gzipSync(body.bytes!).subarray(0, 12),
      headers: { ...out.headers, 'content-encoding': 'gzip' },
      what: `${body.what}; truncated gzip`,
      invalid: true,
      unreadable: true,
    }),
  ])();
}

/** A multipart body for the figure upload, broken in one way. */
function multipartBody(rng: Rng): Body {
  const boundary = `fuzz${hex(rng, 8)}`;
  const part = (name: string, value: string, filename?: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename !== undefined ? `; filename="${filename}"` : ''}\r\n${filename !== undefined ? 'Content-Type: image/png\r\n' : ''}\r\n${value}\r\n`;
  const end = `--${boundary}--\r\n`;
  const file = part('file', 'PNGDATA', pick(rng, ['a.png', '../../x.png', '', 'é.png', 'x'.repeat(300)]));
  const type = `multipart/form-data; boundary=${boundary}`;
  const body = (text: string, what: string, contentType = type): Body => ({
    bytes: Buffer.from(text, 'latin1'),
    headers: { 'content-type': contentType },
    what,
    invalid: true,
  });
  return pick(rng, [
    () => body(part('canonical_path', '/a.png') + end, 'multipart without file'),
    () =>
      body(
        file + part('canonical_path', '/a.png') + part('compressed', pick(rng, ['maybe', '2', ''])) + end,
        'multipart with a bad compressed',
      ),
    () => body(file + part('canonical_path', '/a.png') + part('evil', 'x') + end, 'multipart with an unknown field'),
    () => body(file + file + part('canonical_path', '/a.png') + end, 'multipart with file twice'),
    () => body(file + part('canonical_path', '/a.png'), 'multipart without its closing boundary'),
    () => body(file.slice(0, int(rng, 5, file.length - 1)), 'multipart cut short'),
    () => body(file + part('canonical_path', pick(rng, ['', 'x'.repeat(9000), 'a\u0000b'])) + end, 'multipart with a bad canonical_path'),
    () => body(file + end, 'multipart without canonical_path'),
    () => body(file + part('canonical_path', '/a.png') + end, 'multipart without a boundary in content-type', 'multipart/form-data'),
    () => body(file + part('canonical_path', '/a.png') + end, 'multipart with another boundary', 'multipart/form-data; boundary=other'),
    () => body('{"file":"x"}', 'JSON where multipart is due', 'application/json'),
    () => body(Array.from({ length: 2000 }, (_v, i) => part(`f${i}`, 'x')).join('') + end, 'multipart with 2000 parts'),
  ])();
}

function generate(rng: Rng, op: Operation, caller: Caller, authorized: boolean, preset?: Body): FuzzRequest | undefined {
  const what: string[] = [];
  const headers: Record<string, string> = {};
  const write = op.method !== 'GET';
  /** A write this caller may make must be refused for its input: every generated write is invalid. */
  const mustBeInvalid = write && authorized;
  credentialsOf(rng, caller, headers, what);

  const pathParams = op.parameters.filter((p) => p.in === 'path');
  let body: Body | undefined;
  /** Whether the request is refused whatever its path names (real resources included). */
  let refusedByBody = false;
  // A made-up path id names nothing to act on, except where a PUT's path names what it creates
  // (a session by its client-chosen id): there the body must be invalid.
  const pathCanRefuse = pathParams.length > 0 && !(op.method === 'PUT' && op.body?.mediaType === 'application/json');
  if (preset) {
    if (mustBeInvalid && !preset.invalid && !pathCanRefuse) return undefined;
    body = preset;
    refusedByBody = preset.invalid;
  } else if (op.body?.mediaType === 'application/json' && op.body.schema) {
    // Drawn again until invalid where it must be (unless a made-up path refuses it): a valid body would be a real write.
    for (let tries = 0; ; tries++) {
      body = encodingOf(rng, jsonBody(rng, op.body.schema, op.body.required), op.body.required);
      if (!mustBeInvalid || body.invalid || pathCanRefuse || tries > 50) break;
    }
    refusedByBody = body.invalid;
  } else if (op.body?.mediaType === 'multipart/form-data') {
    body = multipartBody(rng);
    refusedByBody = body.invalid;
  } else if (op.body) {
    // Bytes the route streams in (a release binary): anything goes, the (never real) path refuses it.
    body = {
      bytes: pick(rng, [Buffer.alloc(0), Buffer.from('bytes'), gzipSync(Buffer.from('x'))]),
      headers: pick<Record<string, string>>(rng, [
        { 'content-type': op.body.mediaType },
        { 'content-type': 'application/json' },
        {},
        { 'content-encoding': 'gzip' },
      ]),
      what: 'binary body',
      invalid: false,
    };
  } else if (chance(rng, 0.35)) {
    // Routes without a body still parse one: an unreadable one is refused, any other is ignored.
    body = encodingOf(
      rng,
      jsonBody(rng, { type: 'object', properties: { stray: { type: 'string' } }, additionalProperties: false }, false),
      false,
    );
    refusedByBody = body.unreadable ?? false;
    if (!refusedByBody) body = { ...body, what: `${body.what} (a body the route ignores)` };
  }

  // A write's path may name real resources only when its body is refused anyway.
  const mayUseRealIds = !write || refusedByBody;
  let pathRefuses = false;
  let target = op.path;
  for (const p of pathParams) {
    const real = realIds()[p.name];
    let segment: { text: string; what: string };
    if (mayUseRealIds && real && chance(rng, 0.5)) segment = { text: pick(rng, real), what: 'a real id' };
    else {
      segment = badSegment(rng);
      if (pathCanRefuse) pathRefuses = true;
    }
    target = target.replace(`{${p.name}}`, segment.text);
    what.push(`path ${p.name}=${segment.what}`);
  }
  target += queryOf(rng, op, what);
  extraHeaders(rng, headers, what);

  if (mustBeInvalid && !refusedByBody && !pathRefuses) {
    // Nothing else in the request is invalid (a route without input): a body no route can read.
    body = pick<Body>(rng, [
      { headers: { 'content-type': 'application/json' }, bytes: Buffer.from('{"broken":'), what: 'malformed JSON body', invalid: true },
      {
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        bytes: Buffer.from('{}'),
        what: 'content-encoding gzip on a plain body',
        invalid: true,
      },
      {
        headers: { 'content-type': 'application/json; charset=utf-16le' },
        bytes: Buffer.from('{}', 'utf16le'),
        what: 'charset utf-16le',
        invalid: true,
      },
    ]);
  }
  if (body) {
    Object.assign(headers, body.headers);
    what.push(`body: ${body.what}`);
  }
  return { caller, method: op.method, target, headers, body: body?.bytes, what, mustRefuse: write };
}

// ---------------------------------------------------------------------------------------------
// Sending and judging

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

function send(agent: http.Agent, base: URL, req: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.target,
        headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) },
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          // Only the start of a long answer is judged.
          if (size < 256 * 1024) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
        // An answer cut off after its headers (a stream that failed half-way) is a failure too.
        res.on('close', () => !res.complete && reject(new Error(`the ${res.statusCode} answer was cut off after ${size} bytes`)));
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    request.on('error', (error) => {
      if (!answered) reject(error);
    });
    request.end(req.body);
  });
}

/** What a response must never show: stack frames, source paths, dependencies, SQL. */
const LEAKS: [string, RegExp][] = [
  ['stack frame', /\bat (?:async )?\S*? ?\(?[^\s()"]+\.(?:ts|js|mjs|cjs):\d+/],
  ['source path', /\.ts:\d|\/work\/|\/src\/|\/facade\/|\/dist\//],
  ['node_modules', /node_modules/],
  ['error class', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError|AggregateError|DriverException|QueryFailedError)\b/],
  ['SQL', /\bselect\b[^"]{0,200}\bfrom\b|\binsert\s+into\b|\bupdate\s+"?\w+"?\s+set\b|\bdelete\s+from\b/i],
  [
    'database message',
    /syntax error at or near|violates \w+(?:[ -]\w+)* constraint|relation "\w+" does not exist|duplicate key value|invalid input syntax for/i,
  ],
];

const ISSUE_PARTS = new Set(['body', 'query', 'path', 'header']);

/** Every way `answer` breaks the contract for `req` (empty when it is fine). */
function judge(req: FuzzRequest, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  if (req.mustRefuse && answer.status < 400) problems.push(`a generated write that must be refused answered ${answer.status}`);
  // Successful reads may carry fixture data; the leak check applies to every answer all the same.
  for (const [name, pattern] of LEAKS) if (pattern.test(answer.text)) problems.push(`${name} in the body`);
  if (answer.status >= 400 && answer.text.length > 0) {
    const contentType = String(answer.headers['content-type'] ?? '');
    if (!/^application\/json/.test(contentType)) problems.push(`error body is not JSON (${contentType || 'no content-type'})`);
    else {
      let body: any;
      try {
        body = JSON.parse(answer.text);
      } catch {
        problems.push('error body is not valid JSON');
      }
      if (body !== undefined) {
        if (answer.status === 422) {
          const detail = body?.detail;
          const ok =
            Object.keys(body ?? {}).join() === 'detail' &&
            Array.isArray(detail) &&
            detail.length > 0 &&
            detail.every(
              (issue: any) =>
                issue &&
                Object.keys(issue).sort().join() === 'loc,msg,type' &&
                Array.isArray(issue.loc) &&
                ISSUE_PARTS.has(issue.loc[0]) &&
                issue.loc.every((part: unknown) => typeof part === 'string' || typeof part === 'number') &&
                typeof issue.msg === 'string' &&
                typeof issue.type === 'string',
            );
          if (!ok) problems.push('422 body is not {detail: [{loc, msg, type}]}');
        } else {
          const ok = body && typeof body === 'object' && typeof body.detail === 'string' && body.detail.length > 0;
          // Only a 409 adds members to the detail (e.g. the server head).
          const extra = Object.keys(body ?? {}).filter((k) => k !== 'detail');
          if (!ok || (extra.length > 0 && answer.status !== 409)) problems.push(`${answer.status} body is not {detail: string}`);
        }
      }
    }
  }
  if (answer.status === 401 && !/^Bearer/.test(String(answer.headers['www-authenticate'] ?? '')))
    problems.push('401 without WWW-Authenticate: Bearer');
  return problems;
}

/** How to replay a request: method, target, headers and the start of the body. */
function describeRequest(req: FuzzRequest): string {
  const body = req.body ? req.body.subarray(0, 300) : undefined;
  const printable = body
    ? JSON.stringify(body.toString('latin1')) + (req.body!.length > 300 ? `…(${req.body!.length} bytes)` : '')
    : '(no body)';
  const headers = Object.entries(req.headers)
    .map(([k, v]) => `${k}: ${v.length > 80 ? `${v.slice(0, 60)}…(${v.length})` : v}`)
    .join(' | ');
  const target = req.target.length > 300 ? `${req.target.slice(0, 300)}…(${req.target.length})` : req.target;
  return `#${req.n} ${req.method} ${target}\n    as ${req.caller}; headers: ${headers}\n    body: ${printable}\n    generated: ${req.what.join('; ')}`;
}

// ---------------------------------------------------------------------------------------------
// The database, before and after

/**
 * Columns that change on authenticated requests or downloads, not data: activity is written at
 * most once a minute per token, so a run over a minute long sees the token's last use move.
 */
const ACTIVITY_COLUMNS = ['last_active_at', 'last_seen_at', 'last_used_at', 'downloads'];

/** Every table's rows as text (activity columns left out), sorted. */
async function fingerprint(): Promise<Map<string, string[]>> {
  const tables = await t.sql<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const out = new Map<string, string[]>();
  for (const { name } of tables) {
    const rows = await t.sql<{ row: string }>(`select (to_jsonb(r) - $1::text[])::text as row from "${name}" r order by 1`, [
      ACTIVITY_COLUMNS,
    ]);
    out.set(
      name,
      rows.map((r) => r.row),
    );
  }
  return out;
}

function differences(before: Map<string, string[]>, after: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const table of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(table) ?? [];
    const b = after.get(table) ?? [];
    const gone = a.filter((row) => !b.includes(row));
    const added = b.filter((row) => !a.includes(row));
    for (const row of gone.slice(0, 3)) out.push(`${table}: - ${row.slice(0, 400)}`);
    for (const row of added.slice(0, 3)) out.push(`${table}: + ${row.slice(0, 400)}`);
    if (gone.length + added.length > 6) out.push(`${table}: … ${gone.length} rows gone, ${added.length} added`);
  }
  return out;
}

const digest = (fp: Map<string, string[]>) =>
  createHash('sha256')
    .update(JSON.stringify([...fp]))
    .digest('hex')
    .slice(0, 16);

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  const plain = await makeUser(t, { name: 'Fuzz Plain' });
  const other = await makeUser(t, { name: 'Fuzz Other' });
  const lab = await makeLab(t, { owner: plain, name: 'Fuzz Lab' });
  await addMember(t, lab, other);
  const ok = async (what: string, reply: Promise<{ status: number; text: string; body: any }>) => {
    const r = await reply;
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.text}`);
    return r.body;
  };
  const as = { token: plain.token };
  const records = [
    {
      uuid: `${SESSION_ID}-1`,
      parentUuid: null,
      type: 'user',
      message: { content: 'hello', usage: { input_tokens: 3, output_tokens: 1 } },
    },
    { uuid: `${SESSION_ID}-2`, parentUuid: `${SESSION_ID}-1`, type: 'assistant', message: { content: 'see /fig.png' } },
  ];
  await ok(
    'session',
    t.call('PUT', `/api/trajectories/${SESSION_ID}/append`, { ...as, body: { base_uuid: null, records, lab_id: lab.id } }),
  );
  await ok('share', t.call('PATCH', `/api/trajectories/${SESSION_ID}/visibility`, { ...as, body: { visibility: 'lab' } }));
  const note = await ok(
    'annotation',
    t.call('POST', `/api/trajectories/${SESSION_ID}/annotations`, { ...as, body: { record_uuid: `${SESSION_ID}-1`, body: 'fuzz note' } }),
  );
  await ok(
    'figure',
    t.call('POST', `/api/trajectories/${SESSION_ID}/figures`, {
      ...as,
      body: { figures: [{ canonical_path: '/fig.png', cdn_url: 'https://cdn.example/fig.png' }] },
    }),
  );
  await ok(
    'release file',
    t.call('PUT', '/admin/api/release/desktop/files/1.0.0/app.dmg', {
      token: RELEASE_TOKEN,
      rawBody: 'release bytes',
      headers: { 'content-type': 'application/octet-stream' },
    }),
  );
  await ok(
    'publish',
    t.call('PUT', '/admin/api/release/desktop/manifest', {
      token: RELEASE_TOKEN,
      body: { version: '1.0.0', notes: 'fuzz', files: [{ filename: 'app.dmg', size: 13, signature: 'c2ln', platform: 'darwin' }] },
    }),
  );
  // Reads that set things up lazily on first use (credit accounts) happen before the fingerprint.
  for (const token of [plain.token, other.token, t.adminToken]) {
    await ok('me', t.call('GET', '/api/me', { token }));
    await ok('credits', t.call('GET', '/api/compute/credits', { token }));
  }
  f = { plain, other, labId: lab.id, labCode: lab.code, annotationId: note.annotation_id };
});

test('every route of the OpenAPI document, fuzzed: no 5xx, no leak, documented errors, no accepted write, no state change', async () => {
  const doc = await t.call('GET', '/openapi.json');
  expect(doc.status).toBe(200);
  components = doc.body.components?.schemas ?? {};
  const operations = operationsOf(doc.body);
  expect(operations.length).toBeGreaterThan(50);

  const rng = mulberry32(SEED);
  const requests: FuzzRequest[] = [];
  for (const op of operations) {
    const admin = op.tags.includes('admin');
    const release = op.secured && op.tags.includes('releases');
    // Who passes the auth gate: anyone on open routes, else the route's own kind of caller.
    const callers: [Caller, boolean][] = [
      ['anonymous', !op.secured],
      ['user', !op.secured || (!admin && !release)],
    ];
    if (admin) callers.push(['admin', true]);
    if (release) callers.push(['release', true]);
    for (const [caller, authorized] of callers) {
      const add = (req: FuzzRequest | undefined) => req && requests.push({ ...req, n: requests.length });
      for (let i = authorized ? PER_ROUTE : PER_REFUSED_CALLER; i > 0; i--) add(generate(rng, op, caller, authorized));
      if (authorized && op.body?.mediaType === 'application/json' && op.body.schema) {
        for (const body of sweepBodies(rng, op.body.schema)) add(generate(rng, op, caller, authorized, body));
      }
    }
  }

  const before = await fingerprint();
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const base = new URL(t.url);
  const failures: { req: FuzzRequest; problems: string[]; status?: number; text?: string }[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < requests.length) {
      const req = requests[next++];
      sent++;
      try {
        const answer = await send(agent, base, req);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const problems = judge(req, answer);
        if (problems.length) failures.push({ req, problems, status: answer.status, text: answer.text.slice(0, 500) });
      } catch (error) {
        failures.push({ req, problems: [`no answer: ${(error as Error).message}`] });
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  agent.destroy();
  const seconds = (Date.now() - started) / 1000;
  const after = await fingerprint();

  const byStatus = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  console.log(
    `fuzz: seed 0x${SEED.toString(16)} (FUZZ_SEED), ${sent} requests over ${operations.length} routes in ${seconds.toFixed(1)} s (${IN_FLIGHT} in flight); ` +
      `statuses ${byStatus}; ${failures.length} failing; database ${digest(before)} → ${digest(after)}`,
  );
  if (failures.length) {
    console.log(
      `fuzz failures (seed 0x${SEED.toString(16)}), first 25 of ${failures.length}:\n` +
        failures
          .slice(0, 25)
          .map(
            (x) =>
              `- ${x.problems.join(', ')}${x.status ? ` [${x.status}: ${(x.text ?? '').slice(0, 300)}]` : ''}\n    ${describeRequest(x.req)}`,
          )
          .join('\n'),
    );
  }
  const changed = differences(before, after);
  if (changed.length) console.log(`fuzz: the database changed (seed 0x${SEED.toString(16)}):\n${changed.join('\n')}`);

  expect(sent).toBeGreaterThanOrEqual(MIN_REQUESTS);
  expect(
    failures
      .map((x) => `${x.problems.join(', ')}: ${x.req.method} ${x.req.target.slice(0, 120)} (${x.req.what.join('; ').slice(0, 200)})`)
      .slice(0, 25),
  ).toEqual([]);
  expect(changed).toEqual([]);
}, 180_000);
