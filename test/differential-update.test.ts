import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http, { ClientRequest, RequestOptions } from 'node:http';
import net, { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { appBuilderPath } from 'app-builder-bin';
import { BlockMap, CancellationToken, HttpExecutor } from 'builder-util-runtime';
import { GenericDifferentialDownloader } from 'electron-updater/out/differentialDownloader/GenericDifferentialDownloader';
import { findFile } from 'electron-updater/out/providers/Provider';
import { GenericProvider } from 'electron-updater/out/providers/GenericProvider';
import { startTestApp, TestApp } from './support/app';

/**
 * electron-updater's own differential download against this service, without Electron: its
 * generic provider reads the Linux arm64 feed, and its `GenericDifferentialDownloader` fetches the
 * changed blocks of an AppImage as multipart byte ranges, over Node's HTTP (as electron-builder's
 * own updater tests do). Blockmaps are made by the `app-builder` binary electron-builder uses.
 */

const RELEASE_TOKEN = 'rel_test_token_differential_0123456789abcd';
const FILE_BYTES = 12 * 1024 * 1024;
/** One byte changed every 80 KiB: far apart enough that most blocks between stay the same. */
const CHANGE_EVERY = 80 * 1024;
const OLD_VERSION = '1.0.0';
const NEW_VERSION = '1.1.0';
const fileName = (version: string) => `labdesk-${version}-arm64.AppImage`;

/** builder-util's NodeHttpExecutor, less its proxy support: every request also recorded here. */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  readonly ranges: string[] = [];

  createRequest(options: RequestOptions, callback: (response: http.IncomingMessage) => void): ClientRequest {
    const headers = (options.headers ?? {}) as http.OutgoingHttpHeaders;
    const range = headers.Range ?? headers.range;
    if (typeof range === 'string') this.ranges.push(range);
    return http.request(options, callback);
  }
}

/** Pseudo-random bytes from a fixed seed (a failure reproduces). */
function seededBytes(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed;
  for (let i = 0; i < size; i += 4) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    bytes.writeInt32LE(x | 0, i);
  }
  return bytes;
}

/** A TCP relay in front of the service that counts the bytes the service sends. */
async function countingRelay(target: URL) {
  const relay = { url: '', fromServer: 0, close: async () => undefined as void };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    upstream.on('data', (chunk: Buffer) => (relay.fromServer += chunk.length));
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  relay.close = () => new Promise((resolve) => server.close(() => resolve()));
  return relay;
}

describe("electron-updater's differential download", () => {
  let t: TestApp;
  let tmp: string;
  let appBuilder: string;

  beforeAll(async () => {
    t = await startTestApp({ RELEASE_TOKEN, BLOB_STORE: 'file' });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-differential-'));
    // The package's binary may come without its executable bit (install scripts off): run a copy.
    appBuilder = path.join(tmp, 'app-builder');
    fs.copyFileSync(appBuilderPath, appBuilder);
    fs.chmodSync(appBuilder, 0o755);
  });

  afterAll(async () => {
    delete process.env.TEST_UPDATER_ARCH;
    await t?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Writes `bytes` and its blockmap (the real tool), uploads both and publishes them as `version` for Linux arm64. */
  async function release(version: string, bytes: Buffer): Promise<{ sha512: string }> {
    const file = path.join(tmp, fileName(version));
    fs.writeFileSync(file, bytes);
    const made = JSON.parse(execFileSync(appBuilder, ['blockmap', '--input', file, '--output', `${file}.blockmap`], { encoding: 'utf8' }));
    const files = [
      { filename: fileName(version), bytes },
      { filename: `${fileName(version)}.blockmap`, bytes: fs.readFileSync(`${file}.blockmap`) },
    ];
    for (const { filename, bytes: body } of files) {
      const reply = await fetch(`${t.url}/admin/api/release/desktop/files/${version}/${filename}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${RELEASE_TOKEN}`, 'content-type': 'application/octet-stream' },
        body,
      });
      expect(reply.status).toBe(201);
    }
    const manifest = {
      version,
      files: files.map(({ filename, bytes: body }) => ({
        filename,
        size: body.length,
        signature: `sig-${filename}`,
        platform: 'linux',
        arch: 'arm64',
      })),
    };
    const published = await t.call('PUT', '/admin/api/release/desktop/manifest', { token: RELEASE_TOKEN, body: manifest });
    expect(published.status).toBe(200);
    return made;
  }

  test('more than 100 changed blocks: one multipart request per batch, the new file byte for byte, a fraction of its bytes sent', async () => {
    const oldBytes = seededBytes(FILE_BYTES, 0x2545f491);
    const newBytes = Buffer.from(oldBytes);
    for (let at = CHANGE_EVERY / 2; at < FILE_BYTES; at += CHANGE_EVERY) newBytes[at] ^= 0xff;
    await release(OLD_VERSION, oldBytes);
    const made = await release(NEW_VERSION, newBytes);

    const relay = await countingRelay(new URL(t.url));
    try {
      const executor = new NodeHttpExecutor();
      // electron-updater names the feed by the running architecture: latest-linux-arm64.yml.
      process.env.TEST_UPDATER_ARCH = 'arm64';
      const provider = new GenericProvider(
        { provider: 'generic', url: `${relay.url}/admin/api/public/app/desktop/update` },
        { channel: null, isAddNoCacheQuery: false } as never,
        // Typed for Electron's executor; the provider only calls request() on it.
        { executor: executor as never, platform: 'linux', isUseMultipleRangeRequest: true },
      );
      const info = await provider.getLatestVersion();
      expect(info.version).toBe(NEW_VERSION);
      // The blockmap is fetched beside its file, never listed.
      expect(info.files.map((f) => f.url)).toEqual([expect.stringMatching(new RegExp(`/${fileName(NEW_VERSION).replace(/\./g, '\\.')}$`))]);
      expect(info.files[0].sha512).toBe(made.sha512);
      const file = findFile(provider.resolveFiles(info), 'AppImage', ['rpm', 'deb', 'pacman'])!;

      // As AppUpdater.differentialDownloadInstaller does: both blockmaps, gunzipped, then the download.
      const blockMapUrls = await provider.getBlockMapFiles(file.url, OLD_VERSION, NEW_VERSION);
      const [oldMap, newMap] = await Promise.all(
        blockMapUrls.map(
          async (url: URL) =>
            JSON.parse(
              gunzipSync(await executor.downloadToBuffer(url, { cancellationToken: new CancellationToken(), sha512: null })).toString(),
            ) as BlockMap,
        ),
      );
      const oldChecksums = new Set(oldMap.files[0].checksums);
      const changedBlocks = newMap.files[0].checksums.filter((checksum: string) => !oldChecksums.has(checksum)).length;
      expect(changedBlocks).toBeGreaterThan(100);

      const oldFile = path.join(tmp, fileName(OLD_VERSION));
      const newFile = path.join(tmp, 'downloaded.AppImage');
      const logged: string[] = [];
      const logger = {
        info: (m: unknown) => logged.push(String(m)),
        warn: (m: unknown) => logged.push(String(m)),
        error: (m: unknown) => logged.push(String(m)),
      };
      relay.fromServer = 0;
      executor.ranges.length = 0;
      await new GenericDifferentialDownloader(file.info, executor, {
        newUrl: file.url,
        oldFile,
        newFile,
        logger,
        requestHeaders: null,
        isUseMultipleRangeRequest: true,
        cancellationToken: new CancellationToken(),
      }).download(oldMap, newMap);

      const result = fs.readFileSync(newFile);
      expect(result.length).toBe(newBytes.length);
      expect(result.equals(newBytes)).toBe(true);
      expect(createHash('sha512').update(result).digest('base64')).toBe(made.sha512);
      // The changed blocks went out as ranges, more than 100 in one request.
      const rangesPerRequest = executor.ranges.map((header) => header.split(',').length);
      expect(Math.max(...rangesPerRequest)).toBeGreaterThan(100);
      // The changed blocks and multipart framing only: far from the whole file.
      expect(relay.fromServer).toBeLessThan(FILE_BYTES / 2);
      expect(relay.fromServer).toBeGreaterThan(0);
    } finally {
      await relay.close();
    }
  });
});
