import { ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../src/db/embedded';

/**
 * The README's first command on a fresh machine: `labdesk serve` with no DATABASE_URL starts
 * its own PostgreSQL under DATA_DIR. This runs the built CLI as a real process.
 */
const CLI = path.resolve(__dirname, '..', 'dist', 'src', 'cli', 'main.js');

interface Served {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  url: string;
}

async function serve(dataDir: string, port: number): Promise<Served> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
  delete env.DATABASE_URL;
  delete env.BOOTSTRAP_ADMIN_TOKEN;
  const child = spawn(process.execPath, [CLI, 'serve'], { env });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`serve exited early (${child.exitCode}):\n${output}`);
    if (output.includes('labdesk listening')) return { child, output: () => output, url };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`serve did not start in time:\n${output}`);
}

const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

const postmasterPid = (dataDir: string) => Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

function alive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the embedded default database', () => {
  let dataDir: string;
  let port: number;
  beforeAll(async () => {
    if (!fs.existsSync(CLI)) throw new Error('dist/ is missing: run the tests with npm test (it builds first)');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-embedded-'));
    port = await freePort();
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('first start creates the admin, writes its token to a file the log names, and on SIGTERM finishes in-flight requests, then stops', async () => {
    const served = await serve(dataDir, port);
    const tokenFile = path.join(dataDir, 'admin-token');
    const token = fs.readFileSync(tokenFile, 'utf8').trim();
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    // The log names the file, never the token (`docker logs` would keep it).
    expect(served.output()).not.toContain(token);
    expect(served.output()).toContain(`"file":"${tokenFile}"`);

    expect((await fetch(`${served.url}/readyz`)).status).toBe(200);
    const me = await fetch(`${served.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toMatchObject({ email: 'admin@localhost', is_admin: true });
    const created = await fetch(`${served.url}/api/labs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Persisted' }),
    });
    expect(created.status).toBe(200);

    // A request in flight when SIGTERM arrives (its body still arriving) is finished, not cut.
    const body = JSON.stringify({ name: 'In flight' });
    const inFlight = new Promise<{ status?: number; text: string }>((resolve, reject) => {
      const req = http.request(`${served.url}/api/labs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 5));
      setTimeout(() => req.end(body.slice(5)), 500);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const pgPid = postmasterPid(dataDir);
    served.child.kill('SIGTERM');
    expect(await inFlight).toMatchObject({ status: 200 });
    expect(await exited(served.child)).toBe(0);
    expect(served.output()).toContain('labdesk stopped');
    expect(alive(pgPid)).toBe(false);
  });

  test('a restart keeps the data and the token, and prints no new token', async () => {
    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const served = await serve(dataDir, port);
    expect(served.output()).not.toContain('admin account admin@localhost created');
    const labs = await fetch(`${served.url}/api/labs`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await labs.json()) as { items: { name: string }[] }).items.map((l) => l.name).sort()).toEqual(['In flight', 'Persisted']);
    served.child.kill('SIGTERM');
    expect(await exited(served.child)).toBe(0);
  });

  test('after the service is killed (SIGKILL), the orphaned postgres is cleaned up on the next start', async () => {
    const first = await serve(dataDir, port);
    const orphan = postmasterPid(dataDir);
    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(alive(orphan)).toBe(true); // nothing stopped it

    const second = await serve(dataDir, port);
    expect(alive(orphan)).toBe(false);
    expect((await fetch(`${second.url}/readyz`)).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toBe(0);
  });

  test('while its postmaster is dead, requests that need the database answer 503 {detail} (REST and GraphQL), /healthz 200', async () => {
    const served = await serve(dataDir, port);
    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const me = () => fetch(`${served.url}/api/me`, { headers });
    const graphqlMe = () => fetch(`${served.url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: '{ me { id } }' }) });
    expect((await me()).status).toBe(200);

    const dead = postmasterPid(dataDir);
    process.kill(dead, 'SIGKILL');
    while (alive(dead)) await new Promise((resolve) => setTimeout(resolve, 20));
    const down = await me();
    expect({ status: down.status, body: await down.json() }).toEqual({ status: 503, body: { detail: expect.any(String) } });
    const graphqlDown = (await (await graphqlMe()).json()) as { errors: { extensions: { code: string } }[] };
    expect(graphqlDown.errors[0].extensions.code).toBe('UNAVAILABLE');
    expect((await fetch(`${served.url}/readyz`)).status).toBe(503);
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);

    // The service starts its postmaster again by itself, and the pool reconnects.
    let recovered = await me();
    for (let i = 0; i < 300 && recovered.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      recovered = await me();
    }
    expect(recovered.status).toBe(200);
    expect(postmasterPid(dataDir)).not.toBe(dead);
    expect(served.output()).toContain('embedded PostgreSQL is running again');
    served.child.kill('SIGTERM');
    expect(await exited(served.child)).toBe(0);
  }, 90_000);

  test('labdesk migrate beside a running service migrates through its database and leaves it running; a second serve is refused', async () => {
    const served = await serve(dataDir, port);
    const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8').trim();
    const pgPid = postmasterPid(dataDir);
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;

    const migrated = spawnSync(process.execPath, [CLI, 'migrate'], { env, encoding: 'utf8' });
    expect({ status: migrated.status, stdout: migrated.stdout }).toEqual({ status: 0, stdout: 'database is up to date\n' });
    expect(alive(pgPid)).toBe(true);
    expect((await fetch(`${served.url}/api/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    const second = spawnSync(process.execPath, [CLI, 'serve'], {
      env: { ...env, PORT: String(await freePort()) },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`is in use: labdesk process ${served.child.pid} runs its embedded PostgreSQL`);
    expect(alive(pgPid)).toBe(true);
    expect((await fetch(`${served.url}/api/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    served.child.kill('SIGTERM');
    expect(await exited(served.child)).toBe(0);
    expect(alive(pgPid)).toBe(false);
  }, 90_000);
});
