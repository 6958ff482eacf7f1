import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp, RunningApp } from '../../src/app';
import { Config, loadConfig } from '../../src/config';
import type { Logger } from '../../src/logger';
import { createTestDatabase, query } from './databases';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Sent as is (for malformed JSON tests). */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
}

export interface TestApp {
  url: string;
  app: RunningApp;
  adminToken: string;
  databaseUrl: string;
  call: <T = any>(method: string, path: string, opts?: CallOptions) => Promise<Reply<T>>;
  /** A query on this app's database, to arrange or inspect state directly. */
  sql: <T = any>(text: string, params?: unknown[]) => Promise<T[]>;
  close: () => Promise<void>;
}

/** A response as the tests read it: status, headers, the text, and the body parsed when it is JSON. */
export async function replyOf<T = any>(response: Response): Promise<Reply<T>> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T, headers: response.headers, text };
}

/** `call` for a service at `url` over real HTTP (JSON bodies, a bearer token if given). */
export function httpCaller(url: string) {
  return async <T = any>(method: string, route: string, opts: CallOptions = {}): Promise<Reply<T>> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const target = new URL(route, url);
    for (const [name, value] of Object.entries(opts.query ?? {})) if (value !== undefined) target.searchParams.set(name, String(value));
    const body = opts.rawBody ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    return replyOf<T>(await fetch(target, { method, headers, body }));
  };
}

let counter = 0;

/**
 * A real service on a loopback port, on its own fresh database copied from the migrated
 * template. Requests go over real HTTP.
 */
/**
 * The suites make many model requests a minute from one user or key; test/model-limits.test.ts
 * tests the limits, with their defaults.
 */
export const NO_MODEL_LIMITS = {
  LLM_USER_REQUESTS_PER_MINUTE: '0',
  LLM_USER_TOKENS_PER_DAY: '0',
  A2A_KEY_REQUESTS_PER_MINUTE: '0',
  A2A_KEY_TOKENS_PER_DAY: '0',
};
/**
 * The suites send thousands of requests a minute from 127.0.0.1, and with REDIS_URL every app
 * would count them together: test/rate-limits.test.ts tests the request limits, with their defaults.
 */
export const NO_RATE_LIMITS = { RATE_LIMIT_TOKEN_PER_MINUTE: '0', RATE_LIMIT_ADDRESS_PER_MINUTE: '0', RATE_LIMIT_AUTH_PER_MINUTE: '0' };

export async function startTestApp(
  env: Record<string, string> = {},
  opts: { sameDatabaseAs?: TestApp; logger?: Logger } = {},
): Promise<TestApp> {
  // A second instance on the same database shares the first one's admin and leaves the drop to it.
  const database = opts.sameDatabaseAs ? { url: opts.sameDatabaseAs.databaseUrl, drop: async () => undefined } : await createTestDatabase();
  const adminToken = opts.sameDatabaseAs?.adminToken ?? `ldk_pat_testadmin${process.pid}x${++counter}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'labdesk-test-'));
  const config: Config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    BOOTSTRAP_ADMIN_TOKEN: adminToken,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...NO_MODEL_LIMITS,
    ...NO_RATE_LIMITS,
    ...env,
  });
  const app = await startApp(config, opts.logger);
  const call = async <T = any>(method: string, route: string, opts: CallOptions = {}): Promise<Reply<T>> => {
    const url = new URL(route, app.url);
    for (const [key, value] of Object.entries(opts.query ?? {})) if (value !== undefined) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | undefined = opts.rawBody;
    if (opts.body !== undefined) payload = JSON.stringify(opts.body);
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    return replyOf<T>(await fetch(url, { method, headers, body: payload }));
  };
  return {
    url: app.url,
    app,
    adminToken,
    databaseUrl: database.url,
    call,
    sql: (text, params) => query(database.url, text, params),
    close: async () => {
      await app.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh app for the enclosing file or describe block: started before its tests, closed after
 * them. Use the returned object only inside tests and hooks.
 */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(env);
  });
  afterAll(async () => {
    await app?.close();
  });
  return new Proxy({} as TestApp, {
    get: (_target, key) => {
      if (!app) throw new Error('the test app is not started yet: use it inside tests and hooks');
      return app[key as keyof TestApp];
    },
  });
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
}

/** Creates a user through the admin API and mints a personal access token for them. */
export async function makeUser(t: TestApp, overrides: Record<string, unknown> = {}): Promise<TestUser> {
  const email = `u${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}@example.org`;
  const created = await t.call('POST', '/api/admin/users', { token: t.adminToken, body: { email, name: 'Test User', ...overrides } });
  if (created.status !== 201) throw new Error(`makeUser: ${created.status} ${created.text}`);
  const minted = await t.call('POST', `/api/admin/users/${created.body.user_id}/tokens`, { token: t.adminToken, body: { label: 'test' } });
  if (minted.status !== 201) throw new Error(`makeUser token: ${minted.status} ${minted.text}`);
  return { id: created.body.user_id, email: created.body.email, token: minted.body.token };
}

export interface TestLab {
  id: string;
  code: string;
  owner: TestUser;
}

/** A lab owned by a fresh user (or `owner`), with an optional seat quota set by the admin. */
export async function makeLab(t: TestApp, opts: { owner?: TestUser; seatQuota?: number; name?: string } = {}): Promise<TestLab> {
  const owner = opts.owner ?? (await makeUser(t));
  const created = await t.call('POST', '/api/labs', { token: owner.token, body: { name: opts.name ?? 'Test Lab' } });
  if (created.status !== 200) throw new Error(`makeLab: ${created.status} ${created.text}`);
  if (opts.seatQuota !== undefined) {
    const patched = await t.call('PATCH', `/api/admin/labs/${created.body.lab_id}`, {
      token: t.adminToken,
      body: { seat_quota: opts.seatQuota },
    });
    if (patched.status !== 200) throw new Error(`makeLab quota: ${patched.status} ${patched.text}`);
  }
  return { id: created.body.lab_id, code: created.body.invitation_code, owner };
}

/** Adds `user` to the lab through the real join + approve flow, optionally as mentor. */
/** A lab with two active members: a session's `owner` and a `member` who can view what the owner shares. */
export async function labOfTwo(t: TestApp): Promise<{ lab: TestLab; owner: TestUser; member: TestUser }> {
  const lab = await makeLab(t);
  const [owner, member] = await Promise.all([makeUser(t, { name: 'Owner' }), makeUser(t, { name: 'Member' })]);
  await addMember(t, lab, owner);
  await addMember(t, lab, member);
  return { lab, owner, member };
}

export async function addMember(t: TestApp, lab: TestLab, user: TestUser, role: 'member' | 'mentor' = 'member') {
  const joined = await t.call('POST', '/api/labs/join', { token: user.token, body: { code: lab.code } });
  if (joined.status !== 200) throw new Error(`addMember join: ${joined.status} ${joined.text}`);
  const approved = await t.call('PATCH', `/api/labs/${lab.id}/members/${user.id}`, {
    token: lab.owner.token,
    body: { status: 'active', role },
  });
  if (approved.status !== 200) throw new Error(`addMember approve: ${approved.status} ${approved.text}`);
}
