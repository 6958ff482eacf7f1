import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { makeUser, startTestApp, TestApp, TestUser } from './support/app';
import { s3Env, startS3 } from './support/s3';

/**
 * Releases and the model catalog (docs/api/releases.md): publishing with the release token, the release
 * store (file and s3), downloads with byte ranges and validators, the electron-updater feed,
 * download counts, the s3 store's on-disk cache, and the public model catalog.
 */

const RELEASE_TOKEN = 'rel_test_token_0123456789abcdefghijklmnop';

const sha256Hex = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const sha512Base64 = (bytes: Buffer | string) => createHash('sha512').update(bytes).digest('base64');

// ---------------------------------------------------------------------------------------------
// Raw HTTP: exact paths (no URL normalization), any Host header, bytes as received.

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function raw(
  base: string,
  method: string,
  requestPath: string,
  opts: { headers?: Record<string, string>; body?: Buffer } = {},
): Promise<RawReply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path: requestPath, headers: opts.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const downloadPath = (product: string, version: string, filename: string) =>
  `/admin/api/public/app/${product}/download/${version}/${filename}`;

const download = (t: TestApp, product: string, version: string, filename: string, headers: Record<string, string> = {}, method = 'GET') =>
  raw(t.url, method, downloadPath(product, version, filename), { headers });

const upload = (t: TestApp, product: string, version: string, filename: string, bytes: Buffer, token: string | null = RELEASE_TOKEN) =>
  raw(t.url, 'PUT', `/admin/api/release/${product}/files/${version}/${filename}`, {
    headers: { 'content-type': 'application/octet-stream', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    body: bytes,
  });

const json = (reply: RawReply) => JSON.parse(reply.body.toString('utf8'));

async function uploadOk(t: TestApp, product: string, version: string, filename: string, bytes: Buffer) {
  const reply = await upload(t, product, version, filename, bytes);
  if (reply.status !== 201) throw new Error(`upload ${filename}: ${reply.status} ${reply.body.toString()}`);
  return json(reply);
}

interface ManifestFileIn {
  filename: string;
  size: number;
  sha256?: string;
  signature?: string;
  platform?: string;
  arch?: string;
}

/** Publishes a manifest; `token` null sends no Authorization header. */
const publish = (
  t: TestApp,
  product: string,
  body: Record<string, unknown>,
  token: string | null = RELEASE_TOKEN,
  headers?: Record<string, string>,
) => t.call('PUT', `/admin/api/release/${product}/manifest`, { token: token ?? undefined, body, headers });

async function publishOk(t: TestApp, product: string, body: Record<string, unknown>) {
  const reply = await publish(t, product, body);
  if (reply.status !== 200) throw new Error(`publish ${product} ${String(body.version)}: ${reply.status} ${reply.text}`);
  return reply.body;
}

const coreFile = (filename: string, bytes: Buffer, extra: Partial<ManifestFileIn> = {}): ManifestFileIn => ({
  filename,
  size: bytes.length,
  sha256: sha256Hex(bytes),
  ...extra,
});

const desktopFile = (filename: string, bytes: Buffer, extra: Partial<ManifestFileIn> = {}): ManifestFileIn => ({
  filename,
  size: bytes.length,
  signature: `sig-${filename}`,
  ...extra,
});

/** `multipart/byteranges` parts: each part's headers (lower-cased) and bytes. */
function parseByteranges(body: Buffer, contentType: string): { headers: Record<string, string>; data: Buffer }[] {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  if (!boundary) throw new Error(`no boundary in ${contentType}`);
  const delimiter = Buffer.from(`--${boundary}`);
  const between = Buffer.from(`\r\n--${boundary}`);
  const parts: { headers: Record<string, string>; data: Buffer }[] = [];
  let pos = body.indexOf(delimiter);
  if (pos < 0) throw new Error('no delimiter in the body');
  for (;;) {
    pos += delimiter.length;
    const after = body.subarray(pos, pos + 2).toString('latin1');
    if (after === '--') break;
    if (after !== '\r\n') throw new Error(`malformed delimiter line at ${pos}`);
    pos += 2;
    const headEnd = body.indexOf('\r\n\r\n', pos);
    const headers: Record<string, string> = {};
    for (const line of body.subarray(pos, headEnd).toString('latin1').split('\r\n')) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const start = headEnd + 4;
    const next = body.indexOf(between, start);
    if (next < 0) throw new Error('unterminated part');
    parts.push({ headers, data: body.subarray(start, next) });
    pos = next + 2;
  }
  return parts;
}

/** The small YAML subset electron-updater feeds use here: scalars, one list of flat mappings. */
function parseFeed(text: string): Record<string, any> {
  const scalar = (value: string): string | number => {
    const v = value.trim();
    if (v.startsWith("'")) {
      if (!v.endsWith("'")) throw new Error(`unterminated quoted scalar: ${v}`);
      return v.slice(1, -1).replace(/''/g, "'");
    }
    if (v.startsWith('"')) return JSON.parse(v);
    return /^\d+$/.test(v) ? Number(v) : v;
  };
  const result: Record<string, any> = {};
  let list: Record<string, unknown>[] | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let m: RegExpExecArray | null;
    if ((m = /^([A-Za-z0-9_]+):\s*(.*)$/.exec(line))) {
      if (m[2] === '') result[m[1]] = list = [];
      else {
        result[m[1]] = scalar(m[2]);
        list = undefined;
      }
    } else if ((m = /^\s+-\s+([A-Za-z0-9_]+):\s*(.*)$/.exec(line)) && list) {
      list.push({ [m[1]]: scalar(m[2]) });
    } else if ((m = /^\s+([A-Za-z0-9_]+):\s*(.*)$/.exec(line)) && list?.length) {
      list[list.length - 1][m[1]] = scalar(m[2]);
    } else {
      throw new Error(`unexpected feed line: ${JSON.stringify(line)}`);
    }
  }
  return result;
}

const gql = (t: TestApp, query: string, token = t.adminToken) => t.call('POST', '/graphql', { token, body: { query } });

async function downloadCounts(t: TestApp, product: string): Promise<Map<string, number>> {
  const reply = await gql(t, `query { releaseFiles(product: "${product}") { filename version downloads } }`);
  if (reply.status !== 200 || reply.body.errors) throw new Error(`releaseFiles: ${reply.status} ${reply.text}`);
  return new Map(
    (reply.body.data.releaseFiles as { filename: string; version: string; downloads: number }[]).map((f) => [
      `${f.version}/${f.filename}`,
      f.downloads,
    ]),
  );
}

/**
 * A download is counted once its response is out, so the count may trail the client by a moment:
 * wait (by polling, a bounded number of times) until it reaches `expected`, then return it.
 */
async function countOnceSettled(
  t: TestApp,
  product: string,
  version: string,
  filename: string,
  expected: number,
): Promise<number | undefined> {
  let count: number | undefined;
  for (let i = 0; i < 100; i++) {
    count = (await downloadCounts(t, product)).get(`${version}/${filename}`);
    if (count !== undefined && count >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return count;
}

/** Files of a directory with their sizes (none when it does not exist). */
function filesIn(dir: string): { name: string; size: number }[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((name) => ({ name, size: fs.statSync(path.join(dir, name)).size }));
}

// ---------------------------------------------------------------------------------------------

let s3: Awaited<ReturnType<typeof startS3>>;

beforeAll(async () => {
  s3 = await startS3();
});

afterAll(async () => {
  await s3?.close();
});

// Both stores run in one process and the s3 apps share one bucket: every app names its files
// with its own prefix, so no two apps ever touch the same key (or the same published file).
describe.each(['file', 's3'] as const)('release publishing and downloads (%s store)', (store) => {
  let t: TestApp;
  // Deployed behind a trusted proxy: URLs follow its X-Forwarded-Host/-Proto.
  const envOf = () => ({ RELEASE_TOKEN, TRUST_PROXY: 'true', ...(store === 's3' ? s3Env(s3.settings) : { BLOB_STORE: 'file' }) });
  const name = (base: string) => `${store}-${base}`;

  // core 1.0.0: A (tgz) and B (bin); more versions are made by the tests that need them.
  const A = randomBytes(300_001);
  const B = randomBytes(200_000);
  const FILE_A = name('core-linux-x64.tgz');
  const FILE_B = name('core-data.bin');
  let published: any;

  beforeAll(async () => {
    t = await startTestApp(envOf());
  });

  afterAll(async () => {
    await t?.close();
  });

  test('no manifest yet: 204 with an empty body; an unknown product is 404', async () => {
    for (const product of ['core', 'desktop']) {
      const reply = await t.call('GET', `/admin/api/public/app/${product}/manifest`);
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');
    }
    const unknown = await t.call('GET', '/admin/api/public/app/mobile/manifest');
    expect(unknown.status).toBe(404);
    expect(typeof unknown.body.detail).toBe('string');
    expect((await t.call('GET', '/admin/api/public/app/desktop/update/latest.yml')).status).toBe(404);
  });

  test('publishing and uploading need the release token: missing or wrong → 401', async () => {
    const body = { version: '1.0.0', files: [coreFile(FILE_A, A)] };
    for (const token of [null, 'wrong-token', `${RELEASE_TOKEN}x`, RELEASE_TOKEN.slice(0, -1), t.adminToken]) {
      const reply = await publish(t, 'core', body, token);
      expect(reply.status).toBe(401);
      expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    const basicScheme = await t.call('PUT', '/admin/api/release/core/manifest', {
      body,
      headers: { authorization: `Basic ${RELEASE_TOKEN}` },
    });
    expect(basicScheme.status).toBe(401);

    for (const token of [null, 'wrong-token', t.adminToken]) {
      const reply = await upload(t, 'core', '1.0.0', FILE_A, A, token);
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toMatch(/^Bearer/);
    }
    // Nothing was stored by the refused requests.
    expect(await t.sql(`select * from release_files`)).toEqual([]);
    expect((await t.call('GET', '/admin/api/public/app/core/manifest')).status).toBe(204);
  });

  test('an unknown product is 404 for publishing and uploading', async () => {
    expect((await publish(t, 'mobile', { version: '1.0.0', files: [coreFile('x.bin', A)] })).status).toBe(404);
    expect((await upload(t, 'mobile', '1.0.0', 'x.bin', A)).status).toBe(404);
  });

  test('upload answers 201 with the size and SHA-256 of the bytes received', async () => {
    const a = await upload(t, 'core', '1.0.0', FILE_A, A);
    expect(a.status).toBe(201);
    expect(json(a)).toEqual({ product: 'core', version: '1.0.0', filename: FILE_A, size: A.length, sha256: sha256Hex(A) });
    expect(await uploadOk(t, 'core', '1.0.0', FILE_B, B)).toEqual({
      product: 'core',
      version: '1.0.0',
      filename: FILE_B,
      size: B.length,
      sha256: sha256Hex(B),
    });
  });

  test('the upload mutation keeps only a file its own request received: over /graphql it names none, and nothing is stored', async () => {
    const before = await t.sql(`select product, version, filename from release_files order by filename`);
    const mutation = `mutation { releaseUpload(product: "core", version: "1.0.0", filename: "${name('posted.bin')}", upload: "file") { size } }`;
    const reply = await gql(t, mutation, RELEASE_TOKEN);
    expect(reply.body.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    expect(reply.body.errors[0].message).toMatch(/names no file this request sent/);
    // Without the release token it is refused first, as the upload route is.
    expect((await gql(t, mutation, t.adminToken)).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await t.sql(`select product, version, filename from release_files order by filename`)).toEqual(before);
  });

  test('upload refuses a bad version or file name (422 at its path location)', async () => {
    const badVersion = await upload(t, 'core', '1.0', FILE_A, A);
    expect(badVersion.status).toBe(422);
    expect(json(badVersion).detail).toEqual([expect.objectContaining({ loc: ['path', 'version'] })]);
    // A `v`, build metadata, and a number that cannot be compared exactly (2^53 + 1) are not release versions.
    for (const version of ['v1.0.0', '1.0.0+build.5', '9007199254740993.0.0', '1.0.0-01']) {
      expect([version, (await upload(t, 'core', version, FILE_A, A)).status]).toEqual([version, 422]);
    }
    for (const filename of ['.hidden', '..%2F..%2Fescape.bin', 'a%2Fb.bin']) {
      const reply = await upload(t, 'core', '1.0.0', filename, A);
      expect(reply.status).toBe(422);
      expect(json(reply).detail).toEqual([expect.objectContaining({ loc: ['path', 'filename'] })]);
    }
  });

  test('an unpublished upload is not downloadable', async () => {
    expect((await download(t, 'core', '1.0.0', FILE_A)).status).toBe(404);
    expect((await download(t, 'core', '1.0.0', FILE_A, {}, 'HEAD')).status).toBe(404);
  });

  test('publish checks every listed file against the store: 422 naming the file', async () => {
    const missing = await publish(t, 'core', { version: '1.0.0', files: [coreFile(FILE_A, A), coreFile(name('not-uploaded.bin'), B)] });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toHaveLength(1);
    expect(missing.body.detail[0].loc).toEqual(['body', 'files', 1, 'filename']);
    expect(missing.body.detail[0].msg).toContain(name('not-uploaded.bin'));

    const wrongSize = await publish(t, 'core', {
      version: '1.0.0',
      files: [coreFile(FILE_B, B), coreFile(FILE_A, A, { size: A.length - 1 })],
    });
    expect(wrongSize.status).toBe(422);
    expect(wrongSize.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'files', 1, 'size'] })]);

    const wrongDigest = await publish(t, 'core', { version: '1.0.0', files: [coreFile(FILE_A, A, { sha256: sha256Hex(B) })] });
    expect(wrongDigest.status).toBe(422);
    expect(wrongDigest.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'files', 0, 'sha256'] })]);

    // A file uploaded under another version is not this version's file.
    const otherVersion = await publish(t, 'core', { version: '1.0.1', files: [coreFile(FILE_A, A)] });
    expect(otherVersion.status).toBe(422);
    expect(otherVersion.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'files', 0, 'filename'] })]);

    // Core files need a SHA-256.
    const noDigest = coreFile(FILE_A, A);
    delete noDigest.sha256;
    const noSha = await publish(t, 'core', { version: '1.0.0', files: [noDigest] });
    expect(noSha.status).toBe(422);
    expect(noSha.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'files', 0, 'sha256'] })]);

    const badVersion = await publish(t, 'core', { version: 'v1', files: [coreFile(FILE_A, A)] });
    expect(badVersion.status).toBe(422);
    expect(badVersion.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'version'] })]);

    expect((await t.call('GET', '/admin/api/public/app/core/manifest')).status).toBe(204);
  });

  test('desktop files need a signature', async () => {
    const bytes = randomBytes(1000);
    await uploadOk(t, 'desktop', '0.9.0', name('sig.exe'), bytes);
    const reply = await publish(t, 'desktop', {
      version: '0.9.0',
      files: [{ filename: name('sig.exe'), size: bytes.length, sha256: sha256Hex(bytes) }],
    });
    expect(reply.status).toBe(422);
    expect(reply.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'files', 0, 'signature'] })]);
    expect((await t.call('GET', '/admin/api/public/app/desktop/manifest')).status).toBe(204);
  });

  test('publish answers the manifest with each file URL on this host; GET serves it', async () => {
    const pubDate = '2026-11-20T08:30:00.000Z';
    published = await publishOk(t, 'core', {
      version: '1.0.0',
      notes: 'First release',
      pub_date: pubDate,
      files: [coreFile(FILE_A, A, { platform: 'linux', arch: 'x64' }), coreFile(FILE_B, B)],
    });
    expect(published).toEqual({
      product: 'core',
      version: '1.0.0',
      notes: 'First release',
      pub_date: pubDate,
      files: [
        {
          filename: FILE_A,
          size: A.length,
          sha256: sha256Hex(A),
          signature: null,
          platform: 'linux',
          arch: 'x64',
          url: `${t.url}${downloadPath('core', '1.0.0', FILE_A)}`,
        },
        {
          filename: FILE_B,
          size: B.length,
          sha256: sha256Hex(B),
          signature: null,
          platform: null,
          arch: null,
          url: `${t.url}${downloadPath('core', '1.0.0', FILE_B)}`,
        },
      ],
    });
    const got = await t.call('GET', '/admin/api/public/app/core/manifest');
    expect(got.status).toBe(200);
    expect(got.body).toEqual(published);
    // Public: no credentials needed, and the desktop product is still empty.
    expect((await t.call('GET', '/admin/api/public/app/desktop/manifest')).status).toBe(204);
  });

  test('behind a trusted proxy (TRUST_PROXY=true), manifest URLs follow X-Forwarded-Host/-Proto, else Host; no-cache, varying by those headers', async () => {
    const forwarded = await t.call('GET', '/admin/api/public/app/core/manifest', {
      headers: { 'x-forwarded-host': 'downloads.example.com', 'x-forwarded-proto': 'https' },
    });
    expect(forwarded.body.files.map((f: { url: string }) => f.url)).toEqual([
      `https://downloads.example.com${downloadPath('core', '1.0.0', FILE_A)}`,
      `https://downloads.example.com${downloadPath('core', '1.0.0', FILE_B)}`,
    ]);
    expect(forwarded.headers.get('cache-control')).toBe('no-cache');
    expect(forwarded.headers.get('vary')).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');

    const hosted = await raw(t.url, 'GET', '/admin/api/public/app/core/manifest', { headers: { host: 'localhost:8443' } });
    expect(hosted.status).toBe(200);
    expect(json(hosted).files[0].url).toBe(`http://localhost:8443${downloadPath('core', '1.0.0', FILE_A)}`);
  });

  test('without TRUST_PROXY (the default), forwarded headers are ignored: an anonymous caller cannot pick the download host', async () => {
    const direct = await startTestApp({ ...envOf(), TRUST_PROXY: 'false' }, { sameDatabaseAs: t });
    try {
      const reply = await direct.call('GET', '/admin/api/public/app/core/manifest', {
        headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      });
      expect(reply.body.files.map((f: { url: string }) => f.url)).toEqual([
        `${direct.url}${downloadPath('core', '1.0.0', FILE_A)}`,
        `${direct.url}${downloadPath('core', '1.0.0', FILE_B)}`,
      ]);
      expect(reply.headers.get('cache-control')).toBe('no-cache');
      expect(reply.headers.get('vary')).toBe('Host');
      const none = await direct.call('GET', '/admin/api/public/app/desktop/manifest');
      expect(none.status).toBe(204);
      expect(none.headers.get('cache-control')).toBe('no-cache');
    } finally {
      await direct.close();
    }
  });

  test('PUBLIC_URL, when set, wins over the request host', async () => {
    const second = await startTestApp({ ...envOf(), PUBLIC_URL: 'https://labdesk.example.net/' }, { sameDatabaseAs: t });
    try {
      const reply = await second.call('GET', '/admin/api/public/app/core/manifest', {
        headers: { 'x-forwarded-host': 'downloads.example.com', 'x-forwarded-proto': 'http' },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.files[0].url).toBe(`https://labdesk.example.net${downloadPath('core', '1.0.0', FILE_A)}`);
      const hosted = await raw(second.url, 'GET', '/admin/api/public/app/core/manifest', { headers: { host: 'mirror.example.org' } });
      expect(json(hosted).files[1].url).toBe(`https://labdesk.example.net${downloadPath('core', '1.0.0', FILE_B)}`);
    } finally {
      await second.close();
    }
  });

  const publishedFiles = () => [coreFile(FILE_A, A, { platform: 'linux', arch: 'x64' }), coreFile(FILE_B, B)];

  test('re-publishing the same version identically → 200 with the same manifest', async () => {
    const same = await publish(t, 'core', {
      version: '1.0.0',
      notes: 'First release',
      pub_date: published.pub_date,
      files: publishedFiles(),
    });
    expect([same.status, same.body]).toEqual([200, published]);
    // Without pub_date the stored one is kept.
    const sameNoDate = await publish(t, 'core', { version: '1.0.0', notes: 'First release', files: publishedFiles() });
    expect([sameNoDate.status, sameNoDate.body]).toEqual([200, published]);
  });

  test('re-publishing the same version differently → 409; the manifest stays', async () => {
    const files = publishedFiles();
    const changes: Record<string, unknown>[] = [
      { notes: 'Edited notes', files },
      { notes: 'First release', files: [files[0]] },
      { notes: 'First release', files: [files[0], { ...files[1], platform: 'win32' }] },
      { notes: 'First release', files: [files[0], { ...files[1], arch: 'arm64' }] },
      { notes: 'First release', pub_date: '2027-01-01T00:00:00.000Z', files },
    ];
    for (const change of changes) {
      const reply = await publish(t, 'core', { version: '1.0.0', ...change });
      expect(reply.status).toBe(409);
      expect(typeof reply.body.detail).toBe('string');
    }
    expect((await t.call('GET', '/admin/api/public/app/core/manifest')).body).toEqual(published);
  });

  test('files of a published version cannot be replaced (409); the bytes stay', async () => {
    const replaced = await upload(t, 'core', '1.0.0', FILE_A, randomBytes(1000));
    expect(replaced.status).toBe(409);
    const added = await upload(t, 'core', '1.0.0', name('late.bin'), randomBytes(1000));
    expect(added.status).toBe(409);
    const reply = await download(t, 'core', '1.0.0', FILE_A);
    expect(reply.status).toBe(200);
    expect(reply.body.equals(A)).toBe(true);
  });

  describe('downloads', () => {
    test('GET: the whole file with validators, never a Content-Encoding', async () => {
      const reply = await download(t, 'core', '1.0.0', FILE_A, { 'accept-encoding': 'gzip, deflate, br' });
      expect(reply.status).toBe(200);
      expect(reply.body.length).toBe(A.length);
      expect(reply.body.equals(A)).toBe(true);
      expect(reply.headers['accept-ranges']).toBe('bytes');
      expect(reply.headers['content-length']).toBe(String(A.length));
      expect(reply.headers.etag).toBe(`"${sha256Hex(A)}"`);
      expect(reply.headers['content-encoding']).toBeUndefined();
      expect(reply.headers['content-type']).toBe('application/gzip');
      expect(reply.headers['content-disposition']).toBe(`attachment; filename="${FILE_A}"`);
      const lastModified = reply.headers['last-modified']!;
      expect(new Date(lastModified).toUTCString()).toBe(lastModified);

      const other = await download(t, 'core', '1.0.0', FILE_B, { 'accept-encoding': 'gzip' });
      expect(other.status).toBe(200);
      expect(other.body.equals(B)).toBe(true);
      expect(other.headers.etag).toBe(`"${sha256Hex(B)}"`);
      expect(other.headers['content-type']).toBe('application/octet-stream');
      expect(other.headers['content-encoding']).toBeUndefined();
    });

    test('HEAD: the same headers, no body', async () => {
      const get = await download(t, 'core', '1.0.0', FILE_A);
      const head = await download(t, 'core', '1.0.0', FILE_A, { 'accept-encoding': 'gzip' }, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const header of ['accept-ranges', 'content-length', 'etag', 'last-modified', 'content-type', 'content-disposition']) {
        expect([header, head.headers[header]]).toEqual([header, get.headers[header]]);
      }
      expect(head.headers['content-encoding']).toBeUndefined();

      const ranged = await download(t, 'core', '1.0.0', FILE_A, { range: 'bytes=10-19' }, 'HEAD');
      expect(ranged.status).toBe(206);
      expect(ranged.headers['content-range']).toBe(`bytes 10-19/${A.length}`);
      expect(ranged.headers['content-length']).toBe('10');
      expect(ranged.body.length).toBe(0);
    });

    test('single ranges: bounded, suffix, open-ended, clipped at the end', async () => {
      const size = A.length;
      const cases: [string, number, number][] = [
        ['bytes=0-0', 0, 0],
        ['bytes=100-199', 100, 199],
        ['bytes=-500', size - 500, size - 1],
        ['bytes=1000-', 1000, size - 1],
        [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
        [`bytes=-${size * 2}`, 0, size - 1],
      ];
      for (const [range, start, end] of cases) {
        const reply = await download(t, 'core', '1.0.0', FILE_A, { range });
        expect([range, reply.status]).toEqual([range, 206]);
        expect(reply.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
        expect(reply.headers['content-length']).toBe(String(end - start + 1));
        expect(reply.headers.etag).toBe(`"${sha256Hex(A)}"`);
        expect(reply.body.equals(A.subarray(start, end + 1))).toBe(true);
      }
    });

    test('several ranges: multipart/byteranges, every part with its bytes', async () => {
      const size = A.length;
      const reply = await download(t, 'core', '1.0.0', FILE_A, { range: 'bytes=0-9, 5000-5099, 150000-150999, -20' });
      expect(reply.status).toBe(206);
      const contentType = reply.headers['content-type']!;
      expect(contentType).toMatch(/^multipart\/byteranges;\s*boundary=/);
      expect(reply.headers['content-range']).toBeUndefined();
      expect(Number(reply.headers['content-length'])).toBe(reply.body.length);
      const parts = parseByteranges(reply.body, contentType);
      const expected: [number, number][] = [
        [0, 9],
        [5000, 5099],
        [150000, 150999],
        [size - 20, size - 1],
      ];
      expect(parts).toHaveLength(expected.length);
      parts.forEach((part, i) => {
        const [start, end] = expected[i];
        expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
        expect(part.headers['content-type']).toBe('application/gzip');
        expect(part.data.equals(A.subarray(start, end + 1))).toBe(true);
      });

      // Overlapping ranges are coalesced into one.
      const merged = await download(t, 'core', '1.0.0', FILE_A, { range: 'bytes=100-199,150-299' });
      expect(merged.status).toBe(206);
      expect(merged.headers['content-range']).toBe(`bytes 100-299/${size}`);
      expect(merged.body.equals(A.subarray(100, 300))).toBe(true);
    });

    test('an unsatisfiable range is 416 with Content-Range: bytes */size', async () => {
      for (const range of [`bytes=${A.length}-`, `bytes=${A.length + 10}-${A.length + 20}`, 'bytes=-0']) {
        const reply = await download(t, 'core', '1.0.0', FILE_A, { range });
        expect([range, reply.status]).toEqual([range, 416]);
        expect(reply.headers['content-range']).toBe(`bytes */${A.length}`);
      }
      // A malformed Range header is ignored: the whole file.
      const malformed = await download(t, 'core', '1.0.0', FILE_A, { range: 'bytes=20-10' });
      expect(malformed.status).toBe(200);
      expect(malformed.body.equals(A)).toBe(true);
    });

    test('If-Range: a matching validator keeps the range, a stale one gets the whole file', async () => {
      const etag = `"${sha256Hex(A)}"`;
      const matching = await download(t, 'core', '1.0.0', FILE_A, { range: 'bytes=200-299', 'if-range': etag });
      expect(matching.status).toBe(206);
      expect(matching.body.equals(A.subarray(200, 300))).toBe(true);

      const stale = await download(t, 'core', '1.0.0', FILE_A, { range: 'bytes=200-299', 'if-range': `"${sha256Hex(B)}"` });
      expect(stale.status).toBe(200);
      expect(stale.headers['content-range']).toBeUndefined();
      expect(stale.body.equals(A)).toBe(true);

      const weak = await download(t, 'core', '1.0.0', FILE_A, { range: 'bytes=200-299', 'if-range': `W/${etag}` });
      expect(weak.status).toBe(200);
      expect(weak.body.equals(A)).toBe(true);

      const lastModified = matching.headers['last-modified']!;
      const byDate = await download(t, 'core', '1.0.0', FILE_A, { range: 'bytes=200-299', 'if-range': lastModified });
      expect(byDate.status).toBe(206);
      expect(byDate.body.equals(A.subarray(200, 300))).toBe(true);
    });

    test('If-None-Match with the ETag → 304 without a body', async () => {
      const etag = `"${sha256Hex(A)}"`;
      for (const ifNoneMatch of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
        const reply = await download(t, 'core', '1.0.0', FILE_A, { 'if-none-match': ifNoneMatch });
        expect([ifNoneMatch, reply.status]).toEqual([ifNoneMatch, 304]);
        expect(reply.body.length).toBe(0);
        expect(reply.headers.etag).toBe(etag);
      }
      const changed = await download(t, 'core', '1.0.0', FILE_A, { 'if-none-match': `"${sha256Hex(B)}"` });
      expect(changed.status).toBe(200);
      expect(changed.body.equals(A)).toBe(true);
    });

    test('unknown files, versions and products are 404', async () => {
      expect((await download(t, 'core', '1.0.0', name('nope.bin'))).status).toBe(404);
      expect((await download(t, 'core', '9.9.9', FILE_A)).status).toBe(404);
      expect((await download(t, 'desktop', '1.0.0', FILE_A)).status).toBe(404);
      expect((await download(t, 'mobile', '1.0.0', FILE_A)).status).toBe(404);
    });

    test('path traversal attempts are 404', async () => {
      const attempts = [
        `/admin/api/public/app/core/download/1.0.0/..%2F..%2F..%2F..%2Fetc%2Fpasswd`,
        `/admin/api/public/app/core/download/1.0.0/..%2f1.0.0%2f${FILE_A}`,
        `/admin/api/public/app/core/download/1.0.0/%2e%2e`,
        `/admin/api/public/app/core/download/1.0.0/..`,
        `/admin/api/public/app/core/download/../../../../../etc/passwd`,
        `/admin/api/public/app/core/download/1.0.0/../1.0.0/${FILE_A}`,
        `/admin/api/public/app/core/download/..%2F1.0.0/${FILE_A}`,
        `/admin/api/public/app/..%2Fcore/download/1.0.0/${FILE_A}`,
        `/admin/api/public/app/core/download/1.0.0/%2Fetc%2Fpasswd`,
        `/admin/api/public/app/core/download/1.0.0/${FILE_A}%00`,
        `/admin/api/public/app/core/download/1.0.0/..%5C..%5Cetc%5Cpasswd`,
      ];
      for (const attempt of attempts) {
        const reply = await raw(t.url, 'GET', attempt);
        expect([attempt, reply.status]).toEqual([attempt, 404]);
        expect(reply.body.equals(A)).toBe(false);
        expect(reply.headers['content-type']).toMatch(/^application\/json/);
      }
    });

    test('an uploaded file not listed in the published manifest is 404', async () => {
      const listed = randomBytes(5000);
      const unlisted = randomBytes(6000);
      await uploadOk(t, 'core', '0.5.0', name('listed.bin'), listed);
      await uploadOk(t, 'core', '0.5.0', name('unlisted.bin'), unlisted);
      // Older than 1.0.0: refused without force.
      const older = await publish(t, 'core', { version: '0.5.0', files: [coreFile(name('listed.bin'), listed)] });
      expect(older.status).toBe(409);
      expect(older.body.current_version).toBe('1.0.0');
      await publishOk(t, 'core', { version: '0.5.0', force: true, files: [coreFile(name('listed.bin'), listed)] });
      const ok = await download(t, 'core', '0.5.0', name('listed.bin'));
      expect(ok.status).toBe(200);
      expect(ok.body.equals(listed)).toBe(true);
      expect((await download(t, 'core', '0.5.0', name('unlisted.bin'))).status).toBe(404);
      expect((await download(t, 'core', '0.5.0', name('unlisted.bin'), {}, 'HEAD')).status).toBe(404);
    });
  });

  describe('DOWNLOAD_OFFLOAD: the proxy in front sends the bytes', () => {
    const key = () => `releases/core/1.0.0/${FILE_A}`;
    /** Another instance on this one's database (and, with the file store, its DATA_DIR: the same stored files). */
    const offloading = (env: Record<string, string>) =>
      startTestApp({ ...envOf(), ...(store === 'file' ? { DATA_DIR: t.app.services.config.dataDir } : {}), ...env }, { sameDatabaseAs: t });

    test('x-accel-redirect: after the checks, an empty 200 naming the stored file under the prefix, with the download headers; ranges left to the proxy', async () => {
      const proxied = await offloading({ DOWNLOAD_OFFLOAD: 'x-accel-redirect', DOWNLOAD_OFFLOAD_PREFIX: '/_labdesk_files/' });
      try {
        const direct = await download(t, 'core', '1.0.0', FILE_A);
        const reply = await download(proxied, 'core', '1.0.0', FILE_A);
        if (store === 's3') {
          // Nothing different: the instance's own cache holds the bytes, which the proxy cannot reach.
          expect(reply.status).toBe(200);
          expect(reply.headers['x-accel-redirect']).toBeUndefined();
          expect(reply.body.equals(A)).toBe(true);
          return;
        }
        expect(reply.status).toBe(200);
        expect(reply.body.length).toBe(0);
        expect(reply.headers['content-length']).toBe('0');
        expect(reply.headers['x-accel-redirect']).toBe(`/_labdesk_files/${key()}`);
        // What nginx's internal location maps the prefix to: DATA_DIR/blobs/.
        expect(fs.readFileSync(path.join(t.app.services.config.dataDir, 'blobs', key())).equals(A)).toBe(true);
        for (const header of ['content-type', 'content-disposition', 'etag', 'last-modified', 'cache-control', 'accept-ranges']) {
          expect([header, reply.headers[header]]).toEqual([header, direct.headers[header]]);
        }
        // Without the setting, the bytes as before and no such header.
        expect(direct.headers['x-accel-redirect']).toBeUndefined();
        expect(direct.body.equals(A)).toBe(true);

        for (const range of ['bytes=100-199', 'bytes=0-9,1000-1009', `bytes=${A.length}-`]) {
          const ranged = await download(proxied, 'core', '1.0.0', FILE_A, { range });
          expect([range, ranged.status, ranged.headers['content-range'], ranged.body.length]).toEqual([range, 200, undefined, 0]);
          expect(ranged.headers['x-accel-redirect']).toBe(`/_labdesk_files/${key()}`);
        }
        const head = await download(proxied, 'core', '1.0.0', FILE_A, {}, 'HEAD');
        expect([head.status, head.headers['x-accel-redirect']]).toEqual([200, `/_labdesk_files/${key()}`]);
        // A client with a current copy still gets its 304 here, and the proxy nothing to send.
        const fresh = await download(proxied, 'core', '1.0.0', FILE_A, { 'if-none-match': `"${sha256Hex(A)}"` });
        expect([fresh.status, fresh.headers['x-accel-redirect'], fresh.body.length]).toEqual([304, undefined, 0]);
        // The checks come first: nothing unpublished or unknown is handed to the proxy.
        for (const [version, filename] of [
          ['0.5.0', name('unlisted.bin')],
          ['1.0.0', name('nope.bin')],
          ['1.0.0', '..'],
        ]) {
          const refused = await download(proxied, 'core', version, filename);
          expect([filename, refused.status, refused.headers['x-accel-redirect']]).toEqual([filename, 404, undefined]);
        }
      } finally {
        await proxied.close();
      }
    });

    test('a handed-off download counts as one served from the first byte (200, or 206 whose first range starts at 0)', async () => {
      if (store === 's3') return;
      const proxied = await offloading({ DOWNLOAD_OFFLOAD: 'x-accel-redirect', DOWNLOAD_OFFLOAD_PREFIX: '/_labdesk_files/' });
      try {
        const countKey = `1.0.0/${FILE_A}`;
        const before = (await downloadCounts(t, 'core')).get(countKey)!;
        for (const headers of [
          { range: 'bytes=100-199' },
          { range: `bytes=${A.length}-` },
          { 'if-none-match': `"${sha256Hex(A)}"` },
        ] as Record<string, string>[])
          await download(proxied, 'core', '1.0.0', FILE_A, headers);
        await download(proxied, 'core', '1.0.0', FILE_A, {}, 'HEAD');
        await download(proxied, 'core', '1.0.0', FILE_A);
        expect((await countOnceSettled(t, 'core', '1.0.0', FILE_A, before + 1))! - before).toBe(1);
        await download(proxied, 'core', '1.0.0', FILE_A, { range: 'bytes=0-99' });
        expect((await countOnceSettled(t, 'core', '1.0.0', FILE_A, before + 2))! - before).toBe(2);
      } finally {
        await proxied.close();
      }
    });

    test('x-sendfile: the absolute path of the stored file instead', async () => {
      const proxied = await offloading({ DOWNLOAD_OFFLOAD: 'x-sendfile' });
      try {
        const reply = await download(proxied, 'core', '1.0.0', FILE_B);
        if (store === 's3') {
          expect([reply.status, reply.headers['x-sendfile']]).toEqual([200, undefined]);
          expect(reply.body.equals(B)).toBe(true);
          return;
        }
        expect([reply.status, reply.body.length]).toEqual([200, 0]);
        const file = reply.headers['x-sendfile'] as string;
        expect(file).toBe(path.join(t.app.services.config.dataDir, 'blobs', 'releases', 'core', '1.0.0', FILE_B));
        expect(path.isAbsolute(file)).toBe(true);
        expect(fs.readFileSync(file).equals(B)).toBe(true);
        expect(reply.headers.etag).toBe(`"${sha256Hex(B)}"`);
        expect(reply.headers['content-disposition']).toBe(`attachment; filename="${FILE_B}"`);
        expect(reply.headers['x-accel-redirect']).toBeUndefined();
      } finally {
        await proxied.close();
      }
    });
  });

  test('an older version → 409 unless force; the most recently published is current', async () => {
    const v110 = randomBytes(2000);
    await uploadOk(t, 'core', '1.1.0', name('core.bin'), v110);
    // The publish answer's URLs are on the host the publisher used, too.
    const newerReply = await publish(t, 'core', { version: '1.1.0', files: [coreFile(name('core.bin'), v110)] }, RELEASE_TOKEN, {
      'x-forwarded-host': 'ci.example.com',
      'x-forwarded-proto': 'https',
    });
    expect(newerReply.status).toBe(200);
    const newer = newerReply.body;
    expect(newer.version).toBe('1.1.0');
    expect(newer.files[0].url).toBe(`https://ci.example.com${downloadPath('core', '1.1.0', name('core.bin'))}`);
    const current = await t.call('GET', '/admin/api/public/app/core/manifest');
    expect(current.body).toEqual({
      ...newer,
      files: [{ ...newer.files[0], url: `${t.url}${downloadPath('core', '1.1.0', name('core.bin'))}` }],
    });

    const v105 = randomBytes(3000);
    await uploadOk(t, 'core', '1.0.5', name('core.bin'), v105);
    const refused = await publish(t, 'core', { version: '1.0.5', files: [coreFile(name('core.bin'), v105)] });
    expect(refused.status).toBe(409);
    expect(refused.body.current_version).toBe('1.1.0');
    const refusedToo = await publish(t, 'core', { version: '1.0.5', force: false, files: [coreFile(name('core.bin'), v105)] });
    expect(refusedToo.status).toBe(409);
    // The version order is checked before the files: an older version whose files are not in the store is 409 too, not 422.
    const notUploaded = await publish(t, 'core', { version: '1.0.4', files: [coreFile(name('never-uploaded.bin'), randomBytes(10))] });
    expect(notUploaded.status).toBe(409);
    expect(notUploaded.body.current_version).toBe('1.1.0');
    // Authentication comes before both.
    expect(
      (await publish(t, 'core', { version: '1.0.4', files: [coreFile(name('never-uploaded.bin'), randomBytes(10))] }, 'wrong-token'))
        .status,
    ).toBe(401);
    // A pre-release of the current version is older too.
    await uploadOk(t, 'core', '1.1.0-beta.1', name('core.bin'), v105);
    expect((await publish(t, 'core', { version: '1.1.0-beta.1', files: [coreFile(name('core.bin'), v105)] })).status).toBe(409);
    expect((await t.call('GET', '/admin/api/public/app/core/manifest')).body.version).toBe('1.1.0');

    const forced = await publishOk(t, 'core', { version: '1.0.5', force: true, files: [coreFile(name('core.bin'), v105)] });
    expect(forced.version).toBe('1.0.5');
    expect((await t.call('GET', '/admin/api/public/app/core/manifest')).body.version).toBe('1.0.5');
    // Both published versions stay downloadable.
    expect((await download(t, 'core', '1.1.0', name('core.bin'))).body.equals(v110)).toBe(true);
    expect((await download(t, 'core', '1.0.5', name('core.bin'))).body.equals(v105)).toBe(true);
  });

  test('download counts: GETs from byte 0 (200, or 206 whose first range starts at 0); not HEAD, not later ranges', async () => {
    const etag = `"${sha256Hex(B)}"`;
    const key = `1.0.0/${FILE_B}`;
    // Earlier tests downloaded this file already: counts are relative to what it has now.
    const before = (await downloadCounts(t, 'core')).get(key)!;
    expect(Number.isInteger(before)).toBe(true);
    const settled = async (added: number) => (await countOnceSettled(t, 'core', '1.0.0', FILE_B, before + added))! - before;

    // None of these count.
    expect((await download(t, 'core', '1.0.0', FILE_B, {}, 'HEAD')).status).toBe(200);
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=0-99' }, 'HEAD')).status).toBe(206);
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=100-199' })).status).toBe(206);
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=-100' })).status).toBe(206);
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=1000-' })).status).toBe(206);
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=500-509,1000-1009' })).status).toBe(206);
    expect((await download(t, 'core', '1.0.0', FILE_B, { 'if-none-match': etag })).status).toBe(304);
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: `bytes=${B.length}-` })).status).toBe(416);
    // Then one that does: the others, had they counted, would show here as well.
    expect((await download(t, 'core', '1.0.0', FILE_B)).status).toBe(200);
    expect(await settled(1)).toBe(1);

    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=0-99' })).status).toBe(206);
    expect(await settled(2)).toBe(2);
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=0-9,1000-1009' })).status).toBe(206);
    expect(await settled(3)).toBe(3);
    // A stale If-Range turns a later range into a whole download: counted.
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=100-', 'if-range': '"stale"' })).status).toBe(200);
    expect(await settled(4)).toBe(4);
    // More non-counting requests, then a last counting one.
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=1-' })).status).toBe(206);
    expect((await download(t, 'core', '1.0.0', FILE_B, {}, 'HEAD')).status).toBe(200);
    expect((await download(t, 'core', '1.0.0', FILE_B, { range: 'bytes=0-' })).status).toBe(206);
    expect(await settled(5)).toBe(5);
    // Refused downloads (404) count for nothing; a file downloaded once whole counts one.
    const counts = await downloadCounts(t, 'core');
    expect(counts.get(`0.5.0/${name('unlisted.bin')}`)).toBe(0);
    expect(counts.get(`0.5.0/${name('listed.bin')}`)).toBe(1);

    // The admin query is for admins only.
    const user: TestUser = await makeUser(t);
    const denied = await gql(t, `query { releaseFiles(product: "core") { filename downloads } }`, user.token);
    expect(denied.body.data).toBeUndefined(); // refused before execution: no data at all
    expect(denied.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  test('electron-updater feeds: latest.yml, latest-mac.yml, latest-linux.yml by platform', async () => {
    const win = randomBytes(250_000);
    const mac = randomBytes(260_000);
    const macZip = randomBytes(100_000);
    const linux = randomBytes(270_000);
    const common = randomBytes(4_000);
    const winName = name("Lab Desk's Setup.exe").replace(/[ ']/g, '_');
    const files = [
      { bytes: win, file: desktopFile(winName, win, { platform: 'win32', arch: 'x64' }) },
      { bytes: mac, file: desktopFile(name('labdesk.dmg'), mac, { platform: 'darwin', arch: 'arm64' }) },
      { bytes: macZip, file: desktopFile(name('labdesk-mac.zip'), macZip, { platform: 'macos' }) },
      { bytes: linux, file: desktopFile(name('labdesk.AppImage'), linux, { platform: 'linux' }) },
      { bytes: common, file: desktopFile(name('common.json'), common) },
    ];
    for (const { bytes, file } of files) await uploadOk(t, 'desktop', '2.0.0', file.filename, bytes);
    const pubDate = '2026-12-01T12:00:00.000Z';
    const manifest = await publishOk(t, 'desktop', {
      version: '2.0.0',
      notes: "it's out",
      pub_date: pubDate,
      files: files.map((f) => f.file),
    });
    expect(manifest.files.map((f: { signature: string }) => f.signature)).toEqual(files.map((f) => f.file.signature));
    expect(manifest.files.map((f: { sha256: string }) => f.sha256)).toEqual(files.map((f) => sha256Hex(f.bytes)));

    const feeds: Record<string, number[]> = {
      'latest.yml': [0, 4],
      'latest-mac.yml': [1, 2, 4],
      'latest-linux.yml': [3, 4],
    };
    for (const [feed, indexes] of Object.entries(feeds)) {
      const reply = await t.call('GET', `/admin/api/public/app/desktop/update/${feed}`);
      expect([feed, reply.status]).toEqual([feed, 200]);
      expect(reply.headers.get('content-type')).toMatch(/yaml/);
      const parsed = parseFeed(reply.text);
      const expectedFiles = indexes.map((i) => ({
        url: `${t.url}${downloadPath('desktop', '2.0.0', files[i].file.filename)}`,
        sha512: sha512Base64(files[i].bytes),
        size: files[i].bytes.length,
      }));
      expect(parsed).toEqual({
        version: '2.0.0',
        files: expectedFiles,
        path: expectedFiles[0].url,
        sha512: expectedFiles[0].sha512,
        releaseDate: pubDate,
      });
      // Each listed URL serves exactly the bytes the digest names.
      for (const entry of parsed.files as { url: string; sha512: string; size: number }[]) {
        const bytes = Buffer.from(await (await fetch(entry.url)).arrayBuffer());
        expect(bytes.length).toBe(entry.size);
        expect(sha512Base64(bytes)).toBe(entry.sha512);
      }
    }

    // URLs on the host the updater used.
    const forwarded = await t.call('GET', '/admin/api/public/app/desktop/update/latest-linux.yml', {
      headers: { 'x-forwarded-host': 'updates.example.com', 'x-forwarded-proto': 'https' },
    });
    expect(parseFeed(forwarded.text).path).toBe(`https://updates.example.com${downloadPath('desktop', '2.0.0', files[3].file.filename)}`);

    expect((await t.call('GET', '/admin/api/public/app/desktop/update/latest-windows.yml')).status).toBe(404);
    expect((await t.call('GET', '/admin/api/public/app/core/update/latest.yml')).status).toBe(404);
  });

  test('feed platform aliases: win/windows, mac, and files without a platform in every feed', async () => {
    const winA = randomBytes(1000);
    const winB = randomBytes(1100);
    const macA = randomBytes(1200);
    await uploadOk(t, 'desktop', '2.1.0', name('a.exe'), winA);
    await uploadOk(t, 'desktop', '2.1.0', name('b.msi'), winB);
    await uploadOk(t, 'desktop', '2.1.0', name('c.dmg'), macA);
    await publishOk(t, 'desktop', {
      version: '2.1.0',
      files: [
        desktopFile(name('a.exe'), winA, { platform: 'win' }),
        desktopFile(name('b.msi'), winB, { platform: 'windows' }),
        desktopFile(name('c.dmg'), macA, { platform: 'mac' }),
      ],
    });
    const win = parseFeed((await t.call('GET', '/admin/api/public/app/desktop/update/latest.yml')).text);
    expect(win.version).toBe('2.1.0');
    expect(win.files.map((f: { sha512: string }) => f.sha512)).toEqual([sha512Base64(winA), sha512Base64(winB)]);
    const mac = parseFeed((await t.call('GET', '/admin/api/public/app/desktop/update/latest-mac.yml')).text);
    expect(mac.files.map((f: { size: number }) => f.size)).toEqual([macA.length]);
    // No linux file and none without a platform: no linux feed.
    expect((await t.call('GET', '/admin/api/public/app/desktop/update/latest-linux.yml')).status).toBe(404);
  });

  test('Linux feeds per architecture (latest-linux-<arch>.yml); blockmaps are never listed; platform files come first', async () => {
    const bytes = [5000, 5100, 5200, 5300, 5400].map((size) => randomBytes(size));
    const files = [
      desktopFile(name('notes.json'), bytes[0]),
      desktopFile(name('labdesk-arm64.AppImage.blockmap'), bytes[1], { platform: 'linux', arch: 'arm64' }),
      desktopFile(name('labdesk-arm64.AppImage'), bytes[2], { platform: 'linux', arch: 'aarch64' }),
      desktopFile(name('labdesk.AppImage'), bytes[3], { platform: 'linux' }),
      desktopFile(name('labdesk-armhf.deb'), bytes[4], { platform: 'Linux', arch: 'armhf' }),
    ];
    for (const [i, file] of files.entries()) await uploadOk(t, 'desktop', '2.2.0', file.filename, bytes[i]);
    await publishOk(t, 'desktop', { version: '2.2.0', files });
    const listed = async (feed: string) => {
      const reply = await t.call('GET', `/admin/api/public/app/desktop/update/${feed}`);
      expect([feed, reply.status]).toEqual([feed, 200]);
      const parsed = parseFeed(reply.text);
      expect(parsed.path).toBe(parsed.files[0].url);
      expect(parsed.sha512).toBe(parsed.files[0].sha512);
      return parsed.files.map((f: { url: string; sha512: string }) => {
        const index = files.findIndex((file) => f.url.endsWith(`/${file.filename}`));
        expect(f.sha512).toBe(sha512Base64(bytes[index]));
        return index;
      });
    };
    // A Linux file without an arch is x64's; a file without a platform is in every feed, after the platform's own.
    expect(await listed('latest-linux.yml')).toEqual([3, 0]);
    expect(await listed('latest-linux-arm64.yml')).toEqual([2, 0]);
    // electron-builder publishes armv7l; electron-updater on 32-bit ARM asks with Node's name, arm.
    expect(await listed('latest-linux-armv7l.yml')).toEqual([4, 0]);
    expect(await listed('latest-linux-arm.yml')).toEqual([4, 0]);
    expect(await listed('latest.yml')).toEqual([0]);
    // The blockmap stays downloadable beside its file, where electron-updater looks for it.
    expect((await download(t, 'desktop', '2.2.0', files[1].filename)).body.equals(bytes[1])).toBe(true);
    for (const feed of ['latest-linux-.yml', 'latest-linux-arm64.yaml', 'latest-linux-a/b.yml', 'latest-linux-arm64']) {
      expect([feed, (await t.call('GET', `/admin/api/public/app/desktop/update/${encodeURIComponent(feed)}`)).status]).toEqual([feed, 404]);
    }
  });

  test('a file put straight into the release store can be published (hashed at publish time)', async () => {
    const bytes = randomBytes(150_000);
    const tmp = path.join(t.app.services.config.dataDir, 'tmp', `direct-${store}.bin`);
    fs.writeFileSync(tmp, bytes);
    await t.app.services.blobs.store!.putFile(`releases/core/3.0.0/${name('direct.bin')}`, tmp);

    const wrong = await publish(t, 'core', { version: '3.0.0', files: [coreFile(name('direct.bin'), bytes, { sha256: sha256Hex(A) })] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'files', 0, 'sha256'] })]);

    await publishOk(t, 'core', { version: '3.0.0', files: [coreFile(name('direct.bin'), bytes)] });
    const reply = await download(t, 'core', '3.0.0', name('direct.bin'));
    expect(reply.status).toBe(200);
    expect(reply.headers.etag).toBe(`"${sha256Hex(bytes)}"`);
    expect(reply.body.equals(bytes)).toBe(true);
    const ranged = await download(t, 'core', '3.0.0', name('direct.bin'), { range: 'bytes=149990-' });
    expect(ranged.body.equals(bytes.subarray(149990))).toBe(true);
  });

  test('a published file that has gone from the store (an operator deleted it) → 404 {detail}, never a 500', async () => {
    const bytes = randomBytes(120_000);
    const filename = name('vanished.bin');
    await uploadOk(t, 'core', '3.5.0', filename, bytes);
    await publishOk(t, 'core', { version: '3.5.0', files: [coreFile(filename, bytes)] });
    await t.app.services.blobs.store!.delete(`releases/core/3.5.0/${filename}`);
    for (const headers of [{}, { range: 'bytes=0-9' }, { range: 'bytes=0-1,5-6' }] as Record<string, string>[]) {
      const reply = await download(t, 'core', '3.5.0', filename, headers);
      expect({ status: reply.status, body: json(reply) }).toEqual({ status: 404, body: { detail: expect.any(String) } });
    }
  });

  test('two uploads of one unpublished file at once leave a row matching the bytes served', async () => {
    for (let round = 0; round < 3; round++) {
      const version = `4.0.${round}`;
      const filename = name('race.bin');
      const first = randomBytes(220_000 + round);
      const second = randomBytes(180_000 + round);
      const [r1, r2] = await Promise.all([upload(t, 'core', version, filename, first), upload(t, 'core', version, filename, second)]);
      expect([r1.status, r2.status]).toEqual([201, 201]);
      expect(json(r1).sha256).toBe(sha256Hex(first));
      expect(json(r2).sha256).toBe(sha256Hex(second));

      const [row] = await t.sql<{ size: string; sha256: string; sha512: string }>(
        `select size::text as size, sha256, sha512 from release_files where product = 'core' and version = $1 and filename = $2`,
        [version, filename],
      );
      const winner = row.sha256 === sha256Hex(first) ? first : second;
      expect([sha256Hex(first), sha256Hex(second)]).toContain(row.sha256);
      expect(Number(row.size)).toBe(winner.length);
      expect(row.sha512).toBe(sha512Base64(winner));

      await publishOk(t, 'core', { version, files: [{ filename, size: Number(row.size), sha256: row.sha256 }] });
      const served = await download(t, 'core', version, filename);
      expect(served.status).toBe(200);
      expect(served.body.length).toBe(Number(row.size));
      expect(sha256Hex(served.body)).toBe(row.sha256);
      expect(served.headers.etag).toBe(`"${row.sha256}"`);
      // Counted once (and settled before the app closes after this last test).
      expect(await countOnceSettled(t, 'core', version, filename, 1)).toBe(1);
    }
  });
});

describe('release store on s3: the on-disk cache', () => {
  let t: TestApp;
  const SIZE = 250_000;
  // Room for two files, not three.
  const BOUND = 2 * SIZE + 50_000;
  const files = Array.from({ length: 5 }, (_, i) => ({ filename: `cache-f${i}.bin`, bytes: randomBytes(SIZE) }));
  const cacheDir = () => path.join(t.app.services.config.dataDir, 'release-cache');
  const cacheName = (filename: string) => sha256Hex(`releases/core/1.0.0/${filename}`);

  beforeAll(async () => {
    t = await startTestApp({ RELEASE_TOKEN, ...s3Env(s3.settings), RELEASE_CACHE_BYTES: String(BOUND) });
    for (const { filename, bytes } of files) await uploadOk(t, 'core', '1.0.0', filename, bytes);
    await publishOk(t, 'core', { version: '1.0.0', files: files.map(({ filename, bytes }) => coreFile(filename, bytes)) });
  });

  afterAll(async () => {
    await t?.close();
  });

  test('uploads and publishing leave the cache empty', () => {
    expect(filesIn(cacheDir())).toEqual([]);
  });

  test('20 concurrent first GETs of a file all get its bytes; the cache holds one copy', async () => {
    const { filename, bytes } = files[0];
    const replies = await Promise.all(Array.from({ length: 20 }, () => download(t, 'core', '1.0.0', filename)));
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(reply.body.length).toBe(bytes.length);
      expect(reply.body.equals(bytes)).toBe(true);
    }
    const cached = filesIn(cacheDir());
    expect(cached).toEqual([{ name: cacheName(filename), size: SIZE }]);
    expect(fs.readFileSync(path.join(cacheDir(), cached[0].name)).equals(bytes)).toBe(true);
    expect(await countOnceSettled(t, 'core', '1.0.0', filename, 20)).toBe(20);
  });

  test('concurrent first ranged GETs of another file get the right bytes', async () => {
    const { filename, bytes } = files[1];
    const ranges: [number, number][] = Array.from({ length: 10 }, (_, i) => [i * 20_000, i * 20_000 + 9_999]);
    const replies = await Promise.all(
      ranges.map(([start, end]) => download(t, 'core', '1.0.0', filename, { range: `bytes=${start}-${end}` })),
    );
    replies.forEach((reply, i) => {
      const [start, end] = ranges[i];
      expect(reply.status).toBe(206);
      expect(reply.body.equals(bytes.subarray(start, end + 1))).toBe(true);
    });
    expect(
      filesIn(cacheDir())
        .map((f) => f.name)
        .sort(),
    ).toEqual([cacheName(files[0].filename), cacheName(filename)].sort());
  });

  test('the cache stays within RELEASE_CACHE_BYTES as more files are downloaded', async () => {
    const order = [2, 3, 0, 4, 1, 2, 0];
    for (const i of order) {
      const { filename, bytes } = files[i];
      const whole = await download(t, 'core', '1.0.0', filename);
      expect(whole.status).toBe(200);
      expect(whole.body.equals(bytes)).toBe(true);
      const tail = await download(t, 'core', '1.0.0', filename, { range: 'bytes=-1000' });
      expect(tail.body.equals(bytes.subarray(SIZE - 1000))).toBe(true);

      const cached = filesIn(cacheDir());
      expect(cached.every((f) => /^[0-9a-f]{64}$/.test(f.name))).toBe(true);
      expect(cached.reduce((sum, f) => sum + f.size, 0)).toBeLessThanOrEqual(BOUND);
      // The file just served is the one kept.
      expect(cached.map((f) => f.name)).toContain(cacheName(filename));
      for (const f of cached) {
        const source = files.find((file) => cacheName(file.filename) === f.name)!;
        expect(fs.readFileSync(path.join(cacheDir(), f.name)).equals(source.bytes)).toBe(true);
      }
    }
  });

  test('concurrent downloads of several files under a small bound all get their bytes', async () => {
    const picks = [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 4, 3];
    // The previous test's counts land after their bytes: read the baseline once they have.
    await Promise.allSettled(t.app.services.background);
    const before = await downloadCounts(t, 'core');
    const replies = await Promise.all(picks.map((i) => download(t, 'core', '1.0.0', files[i].filename)));
    replies.forEach((reply, k) => {
      expect(reply.status).toBe(200);
      expect(reply.body.equals(files[picks[k]].bytes)).toBe(true);
    });
    // Every one counted (and settled before the app closes after this last test).
    for (const [i, { filename }] of files.entries()) {
      const expected = before.get(`1.0.0/${filename}`)! + picks.filter((pick) => pick === i).length;
      expect(await countOnceSettled(t, 'core', '1.0.0', filename, expected)).toBe(expected);
    }
    // Every fill has finished (and evicted) before its response started: no temp files, within the bound.
    const cached = filesIn(cacheDir());
    expect(cached.filter((f) => f.name.endsWith('.tmp'))).toEqual([]);
    expect(cached.reduce((sum, f) => sum + f.size, 0)).toBeLessThanOrEqual(BOUND);
  });
});

test('DOWNLOAD_OFFLOAD: bad settings are refused at start, each saying what it must be', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig({ DATA_DIR: os.tmpdir(), ...env });
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };
  expect(refusal({ DOWNLOAD_OFFLOAD: 'nginx' })).toBe(
    'Invalid configuration:\n  - DOWNLOAD_OFFLOAD must be one of off, x-accel-redirect, x-sendfile (got "nginx")',
  );
  expect(refusal({ DOWNLOAD_OFFLOAD: 'x-accel-redirect' })).toBe(
    'Invalid configuration:\n  - DOWNLOAD_OFFLOAD_PREFIX is required when DOWNLOAD_OFFLOAD=x-accel-redirect (the internal nginx location that maps to DATA_DIR/blobs/, e.g. /_labdesk_files/)',
  );
  for (const prefix of ['_labdesk_files/', '/_labdesk_files', '/', '/a/../b/', '/a b/', '/x?y/', 'http://proxy/files/']) {
    expect([prefix, refusal({ DOWNLOAD_OFFLOAD: 'x-accel-redirect', DOWNLOAD_OFFLOAD_PREFIX: prefix })]).toEqual([
      prefix,
      `Invalid configuration:\n  - DOWNLOAD_OFFLOAD_PREFIX must be the path of an internal location, starting and ending with / (e.g. /_labdesk_files/) (got "${prefix}")`,
    ]);
  }
  for (const mode of [undefined, 'off', 'x-sendfile']) {
    expect(refusal({ ...(mode ? { DOWNLOAD_OFFLOAD: mode } : {}), DOWNLOAD_OFFLOAD_PREFIX: '/_labdesk_files/' })).toBe(
      `Invalid configuration:\n  - DOWNLOAD_OFFLOAD_PREFIX is only read with DOWNLOAD_OFFLOAD=x-accel-redirect (DOWNLOAD_OFFLOAD is ${mode ?? 'off'})`,
    );
  }
  expect(refusal({ DOWNLOAD_OFFLOAD: 'x-sendfile', DATA_DIR: '/srv/données' })).toBe(
    'Invalid configuration:\n  - DOWNLOAD_OFFLOAD=x-sendfile puts file paths in a header, so DATA_DIR must be printable ASCII (got "/srv/données")',
  );

  expect(loadConfig({}).downloadOffload).toBeUndefined();
  expect(loadConfig({ DOWNLOAD_OFFLOAD: 'off' }).downloadOffload).toBeUndefined();
  expect(loadConfig({ DOWNLOAD_OFFLOAD: ' x-accel-redirect ', DOWNLOAD_OFFLOAD_PREFIX: '/internal/labdesk/' }).downloadOffload).toEqual({
    header: 'X-Accel-Redirect',
    prefix: '/internal/labdesk/',
  });
  expect(loadConfig({ DOWNLOAD_OFFLOAD: 'x-sendfile' }).downloadOffload).toEqual({ header: 'X-Sendfile' });
});

describe('a server without RELEASE_TOKEN', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ BLOB_STORE: 'file' });
  });

  afterAll(async () => {
    await t?.close();
  });

  test('refuses every publishing request with 403', async () => {
    const bytes = randomBytes(100);
    const body = { version: '1.0.0', files: [coreFile('x.bin', bytes)] };
    for (const token of [null, 'anything', t.adminToken]) {
      const reply = await publish(t, 'core', body, token);
      expect(reply.status).toBe(403);
      expect(typeof reply.body.detail).toBe('string');
    }
    expect((await publish(t, 'mobile', body, 'anything')).status).toBe(403);
    for (const token of [null, 'anything', t.adminToken]) {
      expect((await upload(t, 'core', '1.0.0', 'x.bin', bytes, token)).status).toBe(403);
    }
    expect(await t.sql(`select * from release_files`)).toEqual([]);
  });

  test('reading stays public', async () => {
    expect((await t.call('GET', '/admin/api/public/app/core/manifest')).status).toBe(204);
    expect((await t.call('GET', '/admin/api/public/models')).status).toBe(200);
  });
});

describe('model catalog', () => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await startTestApp({ BLOB_STORE: 'none' });
    user = await makeUser(t);
  });

  afterAll(async () => {
    await t?.close();
  });

  const MODEL_MEMBERS = ['capabilities', 'context_window', 'id', 'input_price', 'name', 'output_price', 'provider'];

  test('GET /admin/api/public/models: the catalog; the manifest digests its exact bytes', async () => {
    const catalog = await t.call('GET', '/admin/api/public/models');
    expect(catalog.status).toBe(200);
    expect(catalog.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(catalog.body).sort()).toEqual(['models', 'version']);
    expect(typeof catalog.body.version).toBe('string');
    expect(catalog.body.models.length).toBeGreaterThan(0);
    for (const model of catalog.body.models) {
      expect(Object.keys(model).sort()).toEqual(MODEL_MEMBERS);
      expect(typeof model.id).toBe('string');
      expect(typeof model.provider).toBe('string');
      expect(typeof model.name).toBe('string');
      expect(Number.isInteger(model.context_window)).toBe(true);
      expect(typeof model.input_price).toBe('number');
      expect(typeof model.output_price).toBe('number');
      expect(Array.isArray(model.capabilities)).toBe(true);
    }

    const manifest = await t.call('GET', '/admin/api/public/models/manifest');
    expect(manifest.status).toBe(200);
    expect(Object.keys(manifest.body).sort()).toEqual(['count', 'sha256', 'updated_at', 'version']);
    expect(manifest.body.version).toBe(catalog.body.version);
    expect(manifest.body.count).toBe(catalog.body.models.length);
    expect(manifest.body.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(manifest.body.sha256).toBe(sha256Hex(catalog.text));
    // The raw bytes on the wire, not a re-serialization.
    const rawCatalog = await raw(t.url, 'GET', '/admin/api/public/models', { headers: { 'accept-encoding': 'identity' } });
    expect(sha256Hex(rawCatalog.body)).toBe(manifest.body.sha256);
  });

  test('If-None-Match on the catalog → 304', async () => {
    const catalog = await t.call('GET', '/admin/api/public/models');
    const etag = catalog.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await t.call('GET', '/admin/api/public/models', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await t.call('GET', '/admin/api/public/models', { headers: { 'if-none-match': '"something-else"' } })).status).toBe(200);
  });

  const replacement = {
    version: '2026-12-15',
    models: [
      {
        id: 'test-model-large',
        provider: 'acme',
        name: 'Acme Large',
        context_window: 1_000_000,
        input_price: 2.5,
        output_price: 12,
        capabilities: ['tools', 'long_context'],
      },
      {
        id: 'test-model-small',
        provider: 'acme',
        name: 'Acme Small – “é”',
        context_window: 32_000,
        input_price: 0.1,
        output_price: 0.4,
        capabilities: [],
      },
    ],
  };

  test('PUT /api/admin/models: admins only', async () => {
    expect((await t.call('PUT', '/api/admin/models', { body: replacement })).status).toBe(401);
    expect((await t.call('PUT', '/api/admin/models', { token: user.token, body: replacement })).status).toBe(403);
    const duplicate = await t.call('PUT', '/api/admin/models', {
      token: t.adminToken,
      body: { ...replacement, models: [replacement.models[0], replacement.models[0]] },
    });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'models', 1, 'id'] })]);
    expect((await t.call('GET', '/admin/api/public/models')).body.version).not.toBe(replacement.version);
  });

  test('PUT replaces the catalog; both endpoints (on every instance) reflect it', async () => {
    const old = await t.call('GET', '/admin/api/public/models');
    const oldEtag = old.headers.get('etag')!;

    const reply = await t.call('PUT', '/api/admin/models', { token: t.adminToken, body: replacement });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ version: replacement.version, count: 2 });

    const catalog = await t.call('GET', '/admin/api/public/models');
    expect(catalog.status).toBe(200);
    expect(catalog.body).toEqual(replacement);
    const manifest = await t.call('GET', '/admin/api/public/models/manifest');
    expect(manifest.body).toEqual({
      version: replacement.version,
      updated_at: reply.body.updated_at,
      sha256: sha256Hex(catalog.text),
      count: 2,
    });
    expect(reply.body.sha256).toBe(sha256Hex(catalog.text));
    expect(new Date(manifest.body.updated_at).getTime()).toBeGreaterThan(new Date('2026-11-01T00:00:00.000Z').getTime() - 1);

    // The old validator no longer matches; the new one does.
    expect((await t.call('GET', '/admin/api/public/models', { headers: { 'if-none-match': oldEtag } })).status).toBe(200);
    expect((await t.call('GET', '/admin/api/public/models', { headers: { 'if-none-match': catalog.headers.get('etag')! } })).status).toBe(
      304,
    );

    const second = await startTestApp({ BLOB_STORE: 'none' }, { sameDatabaseAs: t });
    try {
      const otherCatalog = await second.call('GET', '/admin/api/public/models');
      expect(otherCatalog.text).toBe(catalog.text);
      const otherManifest = await second.call('GET', '/admin/api/public/models/manifest');
      expect(otherManifest.body).toEqual(manifest.body);
      expect(otherManifest.body.sha256).toBe(sha256Hex(otherCatalog.text));
    } finally {
      await second.close();
    }
  });
});
