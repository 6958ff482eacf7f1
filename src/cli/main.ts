#!/usr/bin/env node
// First: tracing, when on, must be started before the modules it patches are required (./tracing says why).
import './tracing';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, redactUrl } from '../config';
import { migrate, openDatabase } from '../db/orm';
import { createSchemaMigration, snapshotExists } from '../db/schema-migrations';
import { A2A_COMMANDS } from './a2a';
import { Command, fail, Flags, serviceDatabase } from './command';
import { BACKUP_COMMANDS } from './backup';
import { USER_COMMANDS } from './users';
import { stopTracing } from '../telemetry';
// The app, the schema and the facade load only for the commands that use them: a quick command
// (`a2a key list`, `--help`) starts in a fraction of the time.
/* eslint-disable @typescript-eslint/no-require-imports */
const appModule = () => require('../app') as typeof import('../app');
const loggerModule = () => require('../logger') as typeof import('../logger');
const schemaModule = () => require('../schema') as typeof import('../schema');
const schemaOf = () => schemaModule().buildAppSchema((require('../pubsub') as typeof import('../pubsub')).makePubSub());

/** Every flag of every command (`node:util` `parseArgs`); anything else is refused, so a misspelled flag is never ignored. */
const OPTIONS = {
  help: { type: 'boolean' },
  url: { type: 'string' },
  token: { type: 'string' },
  email: { type: 'string' },
  name: { type: 'string' },
  plan: { type: 'string' },
  admin: { type: 'boolean' },
  'token-label': { type: 'string' },
  server: { type: 'string' },
  'claim-token': { type: 'string' },
  interval: { type: 'string' },
  check: { type: 'boolean' },
  owner: { type: 'string' },
  label: { type: 'string' },
  out: { type: 'string' },
  from: { type: 'string' },
} as const;

/** @throws TypeError (the code ERR_PARSE_ARGS_…) naming a flag that no command has, or a value missing */
function parseFlags(args: string[]): Flags {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
  return { ...values, _: positionals };
}

const text = (flags: Flags, key: string) => (typeof flags[key] === 'string' ? flags[key] : undefined);

const CREDENTIALS_FILE = path.join(process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'labdesk', 'credentials.json');

interface SavedLogin {
  url: string;
  access_token: string;
  refresh_token: string;
  expires_at: string;
}

/**
 * The server the CLI talks to: --url, then LABDESK_URL, then the server of the saved login, then
 * the service's own settings (PUBLIC_URL, else HOST and PORT), then http://127.0.0.1:8080.
 */
function serverUrl(flags: Flags): string {
  const given = text(flags, 'url') ?? process.env.LABDESK_URL ?? savedLogin()?.url;
  if (given) return given;
  try {
    return loadConfig().publicUrl;
  } catch {
    return 'http://127.0.0.1:8080';
  }
}

function savedLogin(): SavedLogin | undefined {
  try {
    return JSON.parse(fs.readFileSync(CREDENTIALS_FILE, 'utf8')) as SavedLogin;
  } catch {
    return undefined;
  }
}

/** A token for API calls: --token, LABDESK_TOKEN, a saved login, or the local admin token file. */
function findToken(flags: Flags): string | undefined {
  const given = text(flags, 'token') ?? process.env.LABDESK_TOKEN;
  if (given) return given;
  const saved = savedLogin();
  if (saved && new Date(saved.expires_at) > new Date()) return saved.access_token;
  try {
    return fs.readFileSync(path.join(loadConfig().dataDir, 'admin-token'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Why a request never got an answer, in words (fetch itself only says "fetch failed"). */
function unreachable(url: string, error: unknown): Error {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? '';
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused (is the service running there?)'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host name does not resolve'
        : code === 'ECONNRESET'
          ? 'the connection was reset'
          : code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT'
            ? 'the connection timed out'
            : /CERT|TLS|SSL|SELF_SIGNED/.test(code)
              ? `TLS failed (${cause?.message ?? code})`
              : (cause?.message ?? (error instanceof Error ? error.message : String(error)));
  return new Error(`cannot reach ${redactUrl(url)}: ${redactUrl(reason)}. Choose the server with --url or LABDESK_URL.`);
}

async function api(url: string, method: string, route: string, body?: unknown, token?: string) {
  const base = url.replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}${route}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw unreachable(base, error);
  }
  const payload = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: response.status, payload };
}

/**
 * The server's error in the CLI's words: `flagOf` names the flag behind a body member, so a
 * complaint about `plan_code` reads as one about `--plan`.
 */
function explain(payload: Record<string, unknown>, flagOf: Record<string, string> = {}): string {
  const detail = payload.detail;
  if (Array.isArray(detail)) {
    return detail
      .map((d: { loc: unknown[]; msg: string }) => {
        const member = d.loc.slice(1).join('.');
        return `${flagOf[member] ?? member}: ${d.msg}`;
      })
      .join('; ');
  }
  if (typeof detail === 'string') return detail;
  return detail === undefined || detail === null ? 'unknown error' : JSON.stringify(detail);
}

/** `users create` flags by the body member they fill. */
const USER_FLAGS: Record<string, string> = { email: '--email', name: '--name', plan_code: '--plan', is_admin: '--admin' };

const COMMANDS: Record<string, Command> = {
  serve: {
    usage: 'labdesk serve',
    help: 'Runs the service. Without DATABASE_URL it starts an embedded PostgreSQL under DATA_DIR.\nSettings come from the environment (HOST, PORT, DATA_DIR, DATABASE_URL, REDIS_URL, …; see README).',
    async run() {
      const config = loadConfig();
      const { logProcessWarnings, makeLogger } = loggerModule();
      const logger = makeLogger(config.logLevel);
      // Before anything awaits: a warning raised while the modules loaded is emitted on the next tick.
      logProcessWarnings(logger);
      const app = await appModule().startApp(config, logger);
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: `${signal}: shutting down` })}\n`);
        // The last spans go out after the last requests and jobs have ended.
        app.close().then(
          () => stopTracing().then(() => process.exit(0)),
          () => stopTracing().then(() => process.exit(1)),
        );
      };
      process.on('SIGTERM', () => stop('SIGTERM'));
      process.on('SIGINT', () => stop('SIGINT'));
      return new Promise<number>(() => undefined); // runs until a signal
    },
  },
  migrate: {
    usage: 'labdesk migrate',
    help: 'Applies pending database migrations (to DATABASE_URL, or the embedded database under DATA_DIR) and exits.',
    async run() {
      const config = loadConfig();
      // Beside a running service, migrate through its database rather than stopping it.
      const database = await serviceDatabase(config);
      const orm = await openDatabase(database.url, { migrate: false });
      try {
        const applied = await migrate(orm);
        process.stdout.write(
          applied.length
            ? `applied ${applied.length} migration(s):\n${applied.map((m: string) => `  ${m}`).join('\n')}\n`
            : 'database is up to date\n',
        );
      } finally {
        await orm.close(true);
        await database.stop();
      }
      return 0;
    },
  },
  'migration create': {
    usage: 'labdesk migration create NAME',
    help:
      'For developers: writes migrations/Migration<timestamp>_NAME.ts from the difference between the entities and the\n' +
      'snapshot of the schema (migrations/.snapshot-labdesk.json), and moves the snapshot to the entities. Without a\n' +
      'snapshot, the difference is taken from the database (DATABASE_URL or the embedded one), migrated first.',
    async run(flags) {
      const name = flags._[2];
      if (!name || !/^[a-z][a-z0-9_]{0,60}$/.test(name)) return fail('migration create needs a NAME of lower-case letters, digits and _');
      let database: Awaited<ReturnType<typeof serviceDatabase>> | undefined;
      try {
        let url = 'postgres://localhost/unused'; // not connected to: the snapshot is the difference's other side
        if (!snapshotExists()) {
          database = await serviceDatabase(loadConfig());
          url = database.url;
          await (await openDatabase(url)).close(true);
        }
        const created = await createSchemaMigration(url, name);
        process.stdout.write(
          created
            ? `wrote migrations/${created.fileName} (${created.statements} statement(s)) and the snapshot\n`
            : 'the entities match the snapshot: no migration needed\n',
        );
      } finally {
        await database?.stop();
      }
      return 0;
    },
  },
  'users create': {
    usage:
      'labdesk users create --email EMAIL --name NAME [--plan free|pro|lab|enterprise] [--admin] [--token-label LABEL] [--url URL] [--token TOKEN]',
    help: 'Creates a user through the API (needs an admin token: --token, LABDESK_TOKEN, your login, or DATA_DIR/admin-token).\nWith --token-label it also mints a personal access token for the new user and prints it once.',
    async run(flags) {
      const email = text(flags, 'email');
      const name = text(flags, 'name');
      if (!email || !name) return fail('users create needs --email and --name (see --help)');
      const url = serverUrl(flags);
      const token = findToken(flags);
      if (!token) return fail('no admin token: pass --token or set LABDESK_TOKEN');
      const created = await api(
        url,
        'POST',
        '/api/admin/users',
        { email, name, plan_code: text(flags, 'plan'), is_admin: flags.admin === true || undefined },
        token,
      );
      if (created.status !== 201) return fail(`could not create the user (${created.status}): ${explain(created.payload, USER_FLAGS)}`);
      process.stdout.write(`created ${String(created.payload.user_id)} <${String(created.payload.email)}>\n`);
      const label = text(flags, 'token-label');
      if (label) {
        const minted = await api(url, 'POST', `/api/admin/users/${String(created.payload.user_id)}/tokens`, { label }, token);
        if (minted.status !== 201)
          return fail(`user created, but no token (${minted.status}): ${explain(minted.payload, { label: '--token-label' })}`);
        process.stdout.write(`token ${String(minted.payload.token_id)} (shown once): ${String(minted.payload.token)}\n`);
      }
      return 0;
    },
  },
  login: {
    usage: 'labdesk login [--url URL]',
    help: `Signs this machine in with the device flow: shows a code to approve while signed in elsewhere,\nthen saves the tokens to ${CREDENTIALS_FILE} (mode 0600).`,
    async run(flags) {
      const url = serverUrl(flags);
      const started = await api(url, 'POST', '/api/auth/cli/start');
      if (started.status !== 200) return fail(`could not start the login (${started.status}): ${explain(started.payload)}`);
      const { device_code, user_code, verification_url, interval, expires_in } = started.payload as {
        device_code: string;
        user_code: string;
        verification_url: string;
        interval: number;
        expires_in: number;
      };
      const page = `${verification_url}?code=${encodeURIComponent(user_code)}`;
      process.stdout.write(
        `To sign in, open ${page}\nand approve code ${user_code} (check that the page shows the same code).\n(or: POST ${url}/api/auth/cli/approve {"user_code": "${user_code}"} with your token)\nWaiting`,
      );
      const deadline = Date.now() + expires_in * 1000;
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, interval * 1000));
        const polled = await api(url, 'POST', '/api/auth/cli/poll', { device_code });
        if (polled.status === 403) return fail(`\nthe login was denied on the approval page (${explain(polled.payload)})`);
        if (polled.status !== 200) return fail(`\nlogin failed (${polled.status}): ${explain(polled.payload)}`);
        if (polled.payload.status === 'approved') {
          const saved: SavedLogin = {
            url,
            access_token: polled.payload.access_token as string,
            refresh_token: polled.payload.refresh_token as string,
            expires_at: new Date(Date.now() + (polled.payload.expires_in as number) * 1000).toISOString(),
          };
          fs.mkdirSync(path.dirname(CREDENTIALS_FILE), { recursive: true, mode: 0o700 });
          fs.writeFileSync(CREDENTIALS_FILE, JSON.stringify(saved, null, 2), { mode: 0o600 });
          process.stdout.write(`\nSigned in. Tokens saved to ${CREDENTIALS_FILE}\n`);
          return 0;
        }
        process.stdout.write('.');
      }
      return fail('\nthe login code expired before it was approved; run labdesk login again');
    },
  },
  'sandbox run': {
    usage: 'labdesk sandbox run --server URL [--claim-token TOKEN] [--interval SECONDS]',
    help: 'The sandbox runtime: exchanges the single-use claim token (--claim-token or LABDESK_CLAIM_TOKEN),\nthen heartbeats every --interval seconds (default 60). Pauses when told to, exits when the lease ends.',
    async run(flags) {
      const server = text(flags, 'server') ?? process.env.LABDESK_URL;
      const claimToken = text(flags, 'claim-token') ?? process.env.LABDESK_CLAIM_TOKEN;
      const intervalSeconds = Number(text(flags, 'interval') ?? 60);
      if (!server || !claimToken) return fail('sandbox run needs --server and a claim token (--claim-token or LABDESK_CLAIM_TOKEN)');
      if (!Number.isFinite(intervalSeconds) || intervalSeconds <= 0) return fail('--interval must be a positive number of seconds');
      return (require('./sandbox') as typeof import('./sandbox')).runSandbox({ server, claimToken, intervalSeconds });
    },
  },
  openapi: {
    usage: 'labdesk openapi [--out FILE]',
    help: 'Writes the OpenAPI 3.1 document (what GET /openapi.json serves) to FILE, else to standard output.',
    async run(flags) {
      const document = `${JSON.stringify((require('../../facade/openapi') as typeof import('../../facade/openapi')).buildOpenApi(schemaOf(), (require('../../facade/routes') as typeof import('../../facade/routes')).ROUTES), null, 2)}\n`;
      const out = text(flags, 'out');
      if (out) fs.writeFileSync(out, document);
      else process.stdout.write(document);
      return 0;
    },
  },
  schema: {
    usage: 'labdesk schema [--check]',
    help: 'Writes the GraphQL schema to schema/schema.graphql (for codegen). With --check, exits 1 if the file is stale.',
    async run(flags) {
      const { printAppSchema, SCHEMA_FILE } = schemaModule();
      const sdl = printAppSchema(schemaOf());
      const current = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
      if (flags.check) {
        if (current === sdl) return 0;
        process.stderr.write(`${SCHEMA_FILE} is stale: run npm run schema:emit\n`);
        return 1;
      }
      fs.writeFileSync(SCHEMA_FILE, sdl);
      process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
      return 0;
    },
  },
  ...USER_COMMANDS,
  ...A2A_COMMANDS,
  ...BACKUP_COMMANDS,
};

function usage(): string {
  return `labdesk: the labdesk server and its tools\n\nCommands:\n${Object.values(COMMANDS)
    .map((c) => `  ${c.usage}`)
    .join('\n')}\n\nRun labdesk <command> --help for details.\n`;
}

async function main(argv: string[]): Promise<number> {
  let flags: Flags;
  try {
    flags = parseFlags(argv);
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const flag = /'(-[^' ]+)/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag) return fail(`unknown flag ${flag}; see labdesk <command> --help`);
    return fail(message);
  }
  const name = [flags._.slice(0, 3).join(' '), flags._.slice(0, 2).join(' '), flags._[0]].find(
    (candidate) => candidate && COMMANDS[candidate],
  );
  // A group's name alone (`labdesk users`, with or without --help) lists the group's commands.
  const group = flags._.length === 1 ? Object.entries(COMMANDS).filter(([key]) => key.startsWith(`${flags._[0]} `)) : [];
  if (!name && group.length) {
    process.stdout.write(group.map(([, c]) => `usage: ${c.usage}\n\n${c.help}\n`).join('\n'));
    return flags.help ? 0 : 2;
  }
  if (!name) {
    if (flags._.length > 0) process.stderr.write(`labdesk: unknown command "${flags._.join(' ')}"\n\n`);
    process.stdout.write(usage());
    return flags._.length === 0 ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (flags.help) {
    process.stdout.write(`usage: ${command.usage}\n\n${command.help}\n`);
    return 0;
  }
  return command.run(flags);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ConfigError) process.stderr.write(`${error.message}\n`);
    else process.stderr.write(`labdesk: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
