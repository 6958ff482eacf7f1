import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './blobs/s3-store';
import { LOG_LEVELS, type LogLevel } from './logger';
import type { RateLimitSettings } from './rate-limits';

/** Everything the process reads from its environment, validated once at start (README's configuration table). */
/** Model-backed requests per minute and model tokens per UTC day, for a user and for an A2A key; 0 is no limit. */
export interface ModelLimits {
  userRequestsPerMinute: number;
  userTokensPerDay: number;
  keyRequestsPerMinute: number;
  keyTokensPerDay: number;
}

export interface Config {
  /** Variables with our prefixes that are no setting (misspellings): logged at start. */
  warnings: string[];
  host: string;
  port: number;
  dataDir: string;
  /** `postgres://…`; undefined = embedded PostgreSQL under `dataDir`. */
  databaseUrl?: string;
  /** Connections this instance keeps to PostgreSQL at most. */
  databasePoolSize: number;
  /**
   * PostgreSQL's `statement_timeout` on the service's connections (`DATABASE_STATEMENT_TIMEOUT_MS`);
   * a connection that stays silent a little longer (a frozen or cut-off server) is closed. Not
   * on migrations, nor on the job queue's connections.
   */
  databaseStatementTimeoutMs: number;
  /** How long opening a connection to PostgreSQL may take (`DATABASE_CONNECT_TIMEOUT_MS`). */
  databaseConnectTimeoutMs: number;
  blobStore: 'file' | 's3' | 'none';
  /** Set when `blobStore` is `s3`. */
  s3?: S3Settings;
  /** Bound of the on-disk cache of release binaries kept from a remote store. */
  releaseCacheBytes: number;
  /**
   * Release downloads handed to the proxy in front (`DOWNLOAD_OFFLOAD`, file store only): after
   * its checks the download route answers with a header naming the stored file, which the proxy
   * sends itself (ranges included). Undefined: the service sends the bytes.
   */
  downloadOffload?: DownloadOffload;
  /** Largest figure file (each of `file` and `original`) an upload may carry. */
  maxFigureBytes: number;
  /** Largest release binary the publishing endpoint takes. */
  maxReleaseFileBytes: number;
  /**
   * Hosts `figures/raw` may redirect to for a figure's legacy `cdn_url` (`cdn.example.org`, or
   * `*.example.org` for its subdomains); https only. Empty: such figures are not redirected.
   */
  figureCdnHosts: string[];
  releaseToken?: string;
  /** The operator's key for sealing invitation codes (`SEAL_KEY`, or read from `SEAL_KEY_FILE`); else one kept in the database. */
  sealKey?: Buffer;
  bootstrapAdminToken?: string;
  publicUrl: string;
  /** Whether `PUBLIC_URL` was set; if not, URLs are built for the host each caller used. */
  publicUrlFromEnv: boolean;
  /** Whether a reverse proxy in front is trusted to say the caller's host (`X-Forwarded-Host`, `-Proto`). */
  trustProxy: boolean;
  redisUrl?: string;
  /** The language model (absent: model-backed features answer their no-provider form). */
  llm?: LlmConfig;
  /** Sandbox compute: idle and bootstrap limits, meter period, heartbeat period of local sandboxes, providers, open leases. */
  compute: {
    idleMinutes: number;
    bootstrapMinutes: number;
    meterSeconds: number;
    heartbeatSeconds: number;
    /** Who starts the sandbox of an approved plan; always one of `providers`. */
    provider: ComputeProvider;
    /** The providers a request may choose (`COMPUTE_PROVIDERS`). */
    providers: ComputeProvider[];
    /** Leases a user may hold open (awaiting a sandbox, ready or paused) at once. */
    maxOpenLeases: number;
  };
  /** Background summary jobs: one attempt's limit, further attempts, and the first retry's delay (doubling after). */
  summaryJobs: JobSettings;
  /** How long an instance may miss its job-queue heartbeat before its running jobs are failed over (`JOB_INSTANCE_TIMEOUT_SECONDS`). */
  jobInstanceTimeoutSeconds: number;
  /** How long a blocking A2A SendMessage waits for its task to settle (`A2A_WAIT_SECONDS`) before answering it WORKING. */
  a2aWaitSeconds: number;
  /**
   * A2A turns one instance runs at once (`A2A_TURNS_PER_INSTANCE`): a turn mostly waits on the
   * model, and its sandboxes are bounded apart (`AGENT_SANDBOX_CONCURRENCY`). Beyond it a turn
   * waits in the queue for a slot here or on another instance.
   */
  a2aTurnsPerInstance: number;
  /** Limits on model-backed requests and tokens, per user and per A2A key (0: no limit); counted in PostgreSQL. */
  modelLimits: ModelLimits;
  /** Requests per minute per token and per address over the whole API, and on sign-in endpoints (0: no limit). */
  rateLimits: RateLimitSettings;
  /** Origins of web tools allowed to call the API from a browser (CORS); none by default. */
  corsAllowedOrigins: string[];
  /** Browser sessions (the `labdesk_session` cookie): idle and absolute lifetimes. */
  sessions: { idleSeconds: number; maxSeconds: number };
  /** Where mail goes out (`SMTP_URL`, `SMTP_FROM`): set-password links; unset, nothing is mailed. */
  mail?: { url: string; from: string };
  /** Single sign-on through an OpenID Connect provider (`OIDC_*`); unset, people sign in with passwords only. */
  oidc?: OidcSettings;
  /** Bytes of file artifacts one A2A workspace and one A2A owner may hold; days a finished A2A context is kept (0: for ever). */
  a2aArtifacts: { perWorkspace: number; perOwner: number; retentionDays: number };
  /**
   * Push webhooks may point at loopback, private, link-local and CGNAT addresses
   * (`A2A_PUSH_ALLOW_PRIVATE`, default false): for development and tests only; cloud metadata
   * addresses and the service itself stay refused.
   */
  a2aPushAllowPrivate: boolean;
  /**
   * Push deliveries one A2A key may have in flight at once over all instances
   * (`A2A_PUSH_CONCURRENCY_PER_KEY`, 1-8, default 4; counted in the outbox): each instance makes 16
   * at once, so one key's slow webhooks never hold up every other key's.
   */
  a2aPushConcurrencyPerKey: number;
  /** How often an idle A2A event stream sends an SSE comment line (`A2A_KEEPALIVE_SECONDS`), so proxies and clients do not time it out. */
  a2aKeepaliveSeconds: number;
  /** How long a test of an outbound agent waits for its card (`A2A_AGENT_TEST_TIMEOUT_SECONDS`, 1-60, default 10), besides resolving its host. */
  a2aAgentTestTimeoutSeconds: number;
  /** How long each request of our agent to an outbound agent may take (`A2A_AGENT_CALL_TIMEOUT_SECONDS`, 1-120, default 20), besides resolving its host. */
  a2aAgentCallTimeoutSeconds: number;
  /** The analysis agent's code workspaces and their sandbox (docs/api/workspace.md). */
  agent: AgentWorkspaceConfig;
  /** Largest JSON body accepted by the facade and /graphql. */
  maxJsonBodyBytes: number;
  logLevel: LogLevel;
}

export class ConfigError extends Error {}

export const DOWNLOAD_OFFLOADS = ['off', 'x-accel-redirect', 'x-sendfile'] as const;
/**
 * `x-accel-redirect` (nginx): `X-Accel-Redirect: <prefix><key>`, the prefix being an internal
 * location mapped to `DATA_DIR/blobs/`; `x-sendfile` (Apache's mod_xsendfile, lighttpd):
 * `X-Sendfile: <absolute path>`.
 */
export type DownloadOffload = { header: 'X-Accel-Redirect'; prefix: string } | { header: 'X-Sendfile' };

/** Single sign-on (docs/api/single-sign-on.md). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Whether a first sign-in with an email no user has makes an account (`OIDC_ALLOW_SIGNUP`). */
  allowSignup: boolean;
  /** When not empty, new accounts only for emails in these domains (`OIDC_ALLOWED_DOMAINS`). */
  allowedDomains: string[];
}

export interface JobSettings {
  /** One attempt's limit (`SUMMARY_JOB_TIMEOUT_SECONDS`): an attempt still running then is abandoned and retried, on any instance. */
  timeoutSeconds: number;
  /** Further attempts after a failure or a time-out (`SUMMARY_JOB_RETRIES`) before the job is dead. */
  retries: number;
  /** Delay before the first retry (`SUMMARY_JOB_RETRY_DELAY_SECONDS`); each next one about doubles it. */
  retryDelaySeconds: number;
}

export const LLM_PROVIDERS = ['openai', 'anthropic'] as const;
export interface LlmConfig {
  /** `openai`: any OpenAI-compatible chat server (OpenAI, vLLM, Ollama, llama.cpp); `anthropic`: the Messages API. */
  provider: (typeof LLM_PROVIDERS)[number];
  /** Unset: the provider's public API. */
  baseUrl?: string;
  apiKey?: string;
  model: string;
  /** One attempt's limit (`LLM_TIMEOUT_SECONDS`). */
  timeoutSeconds: number;
  /** Further attempts after a 429, a 5xx, a time-out or a lost connection (`LLM_MAX_RETRIES`). */
  maxRetries: number;
}

/** Where the analysis agent's code runs and what bounds it; every limit has an `AGENT_…` setting. */
export interface AgentWorkspaceConfig {
  /** One directory per A2A context under it (`AGENT_WORKSPACE_DIR`, default `DATA_DIR/workspaces`). */
  rootDir: string;
  /** Total bytes of one workspace's files; writes, runs and jobs are refused beyond it. */
  maxWorkspaceBytes: number;
  /** Files and directories in one workspace at most. */
  maxWorkspaceFiles: number;
  /** Longest wall time a run may ask for (`timeoutSeconds` is 1…this). */
  maxRunSeconds: number;
  /** Wall time of a background job. */
  jobSeconds: number;
  /** Background jobs one workspace may have running at once, over all instances. */
  jobsPerWorkspace: number;
  /** CPU seconds of one process (RLIMIT_CPU), at most the wall time. */
  cpuSeconds: number;
  /** Address space of one process (RLIMIT_AS). */
  memoryBytes: number;
  /** Processes of one sandbox (RLIMIT_NPROC, counted in its own user namespace). */
  maxProcesses: number;
  /** Largest file the code may write (RLIMIT_FSIZE). */
  maxFileBytes: number;
  /** Bytes of stdout and of stderr kept per run; the rest is counted and dropped. */
  outputBytes: number;
  /** Bytes of a background job's log kept in the workspace. */
  jobLogBytes: number;
  /** Sandboxes (runs and jobs) this instance runs at once; beyond it a run is refused (UNAVAILABLE). */
  concurrency: number;
  /** Whether a run may be given the network at all (`AGENT_SANDBOX_NETWORK=allow`); off by default. */
  networkAllowed: boolean;
  /** The user code runs as when the service runs as root (`AGENT_SANDBOX_UID`, gid the same). */
  sandboxUid: number;
  /** Whether each sandbox gets its own cgroup (memory and process budget) where the host allows (`AGENT_SANDBOX_CGROUPS`, `auto`), or never (`off`). */
  cgroups: 'auto' | 'off';
}

/** `manual`: a person starts the sandbox runtime; `local`: this service starts it as its own child process. */
export const COMPUTE_PROVIDERS = ['manual', 'local'] as const;
export type ComputeProvider = (typeof COMPUTE_PROVIDERS)[number];

type Env = Record<string, string | undefined>;

/**
 * `text` with a URL's user-info (user and password) written `***`, for every message and log
 * line that shows a URL from the settings (or an error's text that holds one). It works on the
 * text, not on a parsed URL, so that a value that does not parse (a wrong scheme, a typo) is
 * covered too: everything from the first scheme's `//` (or the start, without one) to the last
 * `@` is hidden, since a password may hold an unescaped `@` or `/`. A URL with an `@` in its
 * path loses its host as well: a message shows less, never a password.
 */
export function redactUrl(text: string): string {
  const at = text.lastIndexOf('@');
  if (at < 0) return text;
  // A scheme at the start or after a space, quote or bracket: `pa://ss` inside a password is none.
  const scheme = /(?:^|[\s"'(<=,])[a-z][a-z0-9+.-]*:\/\//i.exec(text);
  const start = scheme ? scheme.index + scheme[0].length : 0;
  if (at < start) return text;
  return `${text.slice(0, start)}${text.slice(start, at).includes(':') ? '***:***' : '***'}${text.slice(at)}`;
}

/** A setting's text as a message shows it: quoted, a URL's user-info hidden (any setting may be given a URL by mistake). */
const shown = (input: unknown) => `"${redactUrl(String(input))}"`;

/** The message of a setting whose text is not what it must be, with that text. */
const saying = (message: string) => ({ error: (issue: { input?: unknown }) => `${message} (got ${shown(issue.input)})` });

/** A whole number from `min` to `max`; anything else is refused with `message`. */
function integer(message: string, min = 1, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^\d+$/, saying(message))
    .transform(Number)
    .refine((n) => n >= min && n <= max, saying(message));
}
const positive = () => integer('must be a positive integer');
/** A limit that 0 turns off. */
const limit = (fallback: number) => integer('must be a whole number, 0 for no limit', 0).default(fallback);
/** A bound beyond the obvious one, with its reason: arguments for `refine`. */
const atMost = (max: number, why: string) => [(n: number) => n <= max, `must be at most ${max} (${why})`] as const;
const atLeast = (min: number, why: string) => [(n: number) => n >= min, `must be at least ${min} (${why})`] as const;

function choice<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.enum(values, saying(`must be one of ${values.join(', ')}`)).default(fallback);
}
const flag = () => choice(['false', 'true'], 'false').transform((text) => text === 'true');
/** An http(s) URL that parses: one that does not would fail later, where the error carries the text, password included. */
const httpUrl = () => z.string().refine(isHttpUrl, saying('must be an http(s) URL'));
/** A comma-separated list; empty items are dropped. */
const listOf = (item: z.ZodType<string, string>) =>
  z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));

const CDN_HOST = z
  .string()
  .transform((host) => host.toLowerCase())
  .pipe(
    z.string().regex(/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/, {
      error: (issue) => `${shown(issue.input)} is not a host name (cdn.example.org, or *.example.org)`,
    }),
  );
const ORIGIN = z.string().refine(isOrigin, {
  error: (issue) => `${shown(issue.input)} is not an origin (scheme://host[:port], no path or trailing slash)`,
});
const SEAL_KEY = z
  .string()
  .regex(/^[A-Za-z0-9+/]{43}=$/, 'must hold 32 random bytes in base64 (e.g. the output of: openssl rand -base64 32)');

/**
 * The environment the service reads: every setting, what its text must be, and its default.
 * Rules that join several settings (and the defaults that follow from others) are in `loadConfig`.
 * docs/operations.md and README's configuration table describe each one.
 */
const ENVIRONMENT = z.object({
  HOST: z.string().default('127.0.0.1'),
  PORT: integer('must be an integer 0-65535', 0, 65535).default(8080),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  // Starting up holds one connection for the migration lock while the migrations run on another.
  DATABASE_POOL_SIZE: positive()
    .refine(...atLeast(2, 'one connection holds the migration lock while another runs them'))
    .default(20),
  DATABASE_STATEMENT_TIMEOUT_MS: positive().default(30_000),
  DATABASE_CONNECT_TIMEOUT_MS: positive().default(5_000),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  BOOTSTRAP_ADMIN_TOKEN: z
    .string()
    .regex(/^ldk_pat_[A-Za-z0-9_-]{32,200}$/, 'must look like ldk_pat_<at least 32 random characters of A-Z a-z 0-9 _ ->')
    .optional(),
  TRUST_PROXY: flag(),
  PUBLIC_URL: httpUrl()
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  BLOB_STORE: choice(['file', 's3', 'none'], 'file'),
  S3_ENDPOINT: httpUrl().optional(),
  S3_PUBLIC_ENDPOINT: httpUrl().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag(),
  RELEASE_CACHE_BYTES: positive().default(10 * 1024 ** 3),
  DOWNLOAD_OFFLOAD: choice(DOWNLOAD_OFFLOADS, 'off'),
  // Goes into a header and an nginx URI as it is: path segments of unreserved characters only.
  DOWNLOAD_OFFLOAD_PREFIX: z
    .string()
    .regex(
      /^\/(?:(?!\.{1,2}\/)[A-Za-z0-9._~-]+\/)+$/,
      saying('must be the path of an internal location, starting and ending with / (e.g. /_labdesk_files/)'),
    )
    .optional(),
  MAX_FIGURE_BYTES: positive().default(100 * 1024 ** 2),
  MAX_RELEASE_FILE_BYTES: positive().default(4 * 1024 ** 3),
  MAX_JSON_BODY_BYTES: integer('must be an integer of at least 1024', 1024).default(10 * 1024 ** 2),
  FIGURE_CDN_HOSTS: listOf(CDN_HOST).default([]),
  RELEASE_TOKEN: z.string().optional(),
  SEAL_KEY: SEAL_KEY.optional(),
  SEAL_KEY_FILE: z.string().optional(),
  LEASE_IDLE_MINUTES: positive().default(30),
  LEASE_BOOTSTRAP_MINUTES: positive().default(15),
  METER_INTERVAL_SECONDS: positive()
    .refine(...atMost(60, 'leases are charged at least every minute'))
    .default(30),
  SANDBOX_HEARTBEAT_SECONDS: positive().default(60),
  COMPUTE_PROVIDERS: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .refine((names) => names.length > 0 && names.every(isComputeProvider), {
      error: (issue) =>
        `must list providers among ${COMPUTE_PROVIDERS.join(', ')} (got "${(issue.input as string[]).filter((name) => !isComputeProvider(name)).join(', ')}")`,
    })
    .transform((names) => COMPUTE_PROVIDERS.filter((name) => names.includes(name)))
    .optional(),
  COMPUTE_PROVIDER: z.enum(COMPUTE_PROVIDERS, saying(`must be one of ${COMPUTE_PROVIDERS.join(', ')}`)).optional(),
  COMPUTE_MAX_OPEN_LEASES: positive().default(3),
  LLM_PROVIDER: z.enum(LLM_PROVIDERS, saying(`must be one of ${LLM_PROVIDERS.join(', ')}`)).optional(),
  LLM_MODEL: z.string().optional(),
  LLM_BASE_URL: httpUrl().optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_TIMEOUT_SECONDS: positive().default(60),
  LLM_MAX_RETRIES: integer('must be an integer 0-10', 0, 10).default(2),
  LLM_USER_REQUESTS_PER_MINUTE: limit(10),
  LLM_USER_TOKENS_PER_DAY: limit(2_000_000),
  A2A_KEY_REQUESTS_PER_MINUTE: limit(20),
  A2A_KEY_TOKENS_PER_DAY: limit(2_000_000),
  RATE_LIMIT_TOKEN_PER_MINUTE: limit(1200),
  RATE_LIMIT_ADDRESS_PER_MINUTE: limit(2400),
  RATE_LIMIT_AUTH_PER_MINUTE: limit(30),
  CORS_ALLOWED_ORIGINS: listOf(ORIGIN).default([]),
  SESSION_IDLE_HOURS: positive().default(168),
  // Never echoed in the error: the URL may hold a password.
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/\s]+\/?$/, { error: 'must be an smtp:// or smtps:// URL (smtp://user:password@host:port)' })
    .optional(),
  SMTP_FROM: z.string().min(3).max(200).optional(),
  SESSION_MAX_HOURS: positive().default(720),
  OIDC_ISSUER: httpUrl().optional(),
  OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
  // Never echoed in an error.
  OIDC_CLIENT_SECRET: z.string().min(1, { error: 'must not be empty' }).max(2000, { error: 'is too long' }).optional(),
  OIDC_ALLOW_SIGNUP: flag(),
  OIDC_ALLOWED_DOMAINS: listOf(
    z
      .string()
      .transform((domain) => domain.toLowerCase())
      .pipe(z.string().regex(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/, { error: (issue) => `${shown(issue.input)} is not a domain (example.org)` })),
  ).default([]),
  // Heartbeats are at least a second apart: a shorter limit would fail over live instances.
  JOB_INSTANCE_TIMEOUT_SECONDS: positive()
    .refine(...atLeast(3, 'heartbeats are a second apart or more'))
    .default(60),
  // pg-boss refuses expirations of a day or more.
  SUMMARY_JOB_TIMEOUT_SECONDS: positive()
    .refine((n) => n < 86_400, 'must be less than 86400 (a day)')
    .default(1800),
  SUMMARY_JOB_RETRIES: integer('must be an integer 0-10', 0, 10).default(3),
  SUMMARY_JOB_RETRY_DELAY_SECONDS: positive().default(30),
  A2A_WAIT_SECONDS: positive()
    .refine(...atMost(600, 'a request held open longer outlives proxies'))
    .default(60),
  A2A_TURNS_PER_INSTANCE: positive()
    .refine(...atMost(256, 'each running turn holds its transcript in memory'))
    .default(16),
  A2A_ARTIFACT_BYTES_PER_WORKSPACE: positive().default(1024 ** 3),
  A2A_ARTIFACT_BYTES_PER_OWNER: positive().default(10 * 1024 ** 3),
  A2A_RETENTION_DAYS: limit(30),
  A2A_PUSH_ALLOW_PRIVATE: flag(),
  // Half an instance's 16 delivery slots at most: one key must leave slots to the others.
  A2A_PUSH_CONCURRENCY_PER_KEY: positive()
    .refine(...atMost(8, 'an instance makes 16 deliveries at once; one key must leave room for the others'))
    .default(4),
  A2A_KEEPALIVE_SECONDS: positive()
    .refine(...atMost(300, 'proxies close idle streams sooner'))
    .default(15),
  A2A_AGENT_TEST_TIMEOUT_SECONDS: positive()
    .refine(...atMost(60, 'the test answers within the request'))
    .default(10),
  A2A_AGENT_CALL_TIMEOUT_SECONDS: positive()
    .refine(...atMost(120, 'a tool call holds up the turn'))
    .default(20),
  AGENT_WORKSPACE_DIR: z
    .string()
    .refine((dir) => path.isAbsolute(dir), saying('must be an absolute path'))
    .optional(),
  AGENT_WORKSPACE_MAX_BYTES: positive().default(1024 ** 3),
  AGENT_WORKSPACE_MAX_FILES: positive().default(10_000),
  AGENT_SANDBOX_TIMEOUT_SECONDS: positive().default(300),
  AGENT_JOB_TIMEOUT_SECONDS: positive().default(3600),
  AGENT_JOBS_PER_WORKSPACE: positive().default(2),
  AGENT_SANDBOX_CPU_SECONDS: positive().default(3600),
  // Python alone maps some 30 MiB; below 64 MiB nothing useful starts.
  AGENT_SANDBOX_MEMORY_BYTES: positive()
    .refine(...atLeast(64 * 1024 ** 2, '64 MiB'))
    .default(1024 ** 3),
  AGENT_SANDBOX_MAX_PROCESSES: positive()
    .refine(...atLeast(4, 'the sandbox itself takes a few'))
    .default(64),
  AGENT_SANDBOX_MAX_FILE_BYTES: positive().default(256 * 1024 ** 2),
  AGENT_SANDBOX_OUTPUT_BYTES: positive()
    .refine(...atLeast(1024, '1 KiB'))
    .default(64 * 1024),
  AGENT_JOB_LOG_BYTES: positive().default(8 * 1024 ** 2),
  AGENT_SANDBOX_CONCURRENCY: positive().default(4),
  AGENT_SANDBOX_NETWORK: choice(['deny', 'allow'], 'deny'),
  AGENT_SANDBOX_UID: integer('must be a user id other than 0', 1, 4_294_967_294).default(65534),
  AGENT_SANDBOX_CGROUPS: choice(['auto', 'off'], 'auto'),
  LOG_LEVEL: choice(LOG_LEVELS, 'info'),
  // Traces (src/telemetry.ts): either endpoint turns them on. The SDK reads them, and every other OTEL_ variable, itself.
  OTEL_EXPORTER_OTLP_ENDPOINT: httpUrl().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl().optional(),
});
type Settings = z.output<typeof ENVIRONMENT>;

/**
 * Every variable `loadConfig` reads, and the `LABDESK_` ones the CLI and the tools read: what a
 * variable with one of the service's prefixes must be, or it is a misspelling that would be
 * silently ignored.
 */
export const SETTINGS = new Set([
  ...Object.keys(ENVIRONMENT.shape),
  // The CLI's, the sandbox runtime's, compose.yaml's and the test runner's.
  'LABDESK_URL',
  'LABDESK_TOKEN',
  'LABDESK_CLAIM_TOKEN',
  'LABDESK_SQL_DEBUG',
  'LABDESK_ADMIN_TOKEN',
  'LABDESK_BROWSER_TESTS',
  'LABDESK_SANDBOX_TESTS',
  'LABDESK_IMAGE',
  'LABDESK_UPGRADE_FROM_IMAGE',
  'LABDESK_DEPLOYMENT_TESTS',
  'LABDESK_DEPLOYMENT_KEEP',
  'LABDESK_CI_CACHE',
  'LABDESK_TEST_DB',
  'LABDESK_TESTS_ONCE',
]);
const SETTING_PREFIXES = ['LABDESK_', 'A2A_', 'AGENT_', 'LLM_', 'S3_'];

/** A warning for each variable with one of our prefixes that no setting has, naming the closest setting when one is near. */
export function unknownSettingWarnings(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => SETTING_PREFIXES.some((prefix) => name.startsWith(prefix)) && !SETTINGS.has(name))
    .sort()
    .map((name) => {
      const closest = [...SETTINGS]
        .map((known) => ({ known, distance: editDistance(name, known) }))
        .sort((a, b) => a.distance - b.distance)[0];
      return `${name} is not a setting labdesk reads, so it is ignored${closest && closest.distance <= 3 ? ` (did you mean ${closest.known}?)` : ''}`;
    });
}

/** Levenshtein distance (two short names). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/**
 * Each setting parsed on its own, so that one start names every one that is wrong (an invalid
 * setting keeps its default, so that the rules joining settings still run and report theirs).
 * Surrounding spaces are dropped; an empty variable counts as unset.
 */
function parseSettings(env: Env, problems: string[]): Settings {
  const settings: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ENVIRONMENT.shape) as [string, z.ZodType][]) {
    const text = env[name]?.trim() || undefined;
    const parsed = schema.safeParse(text);
    if (parsed.success) settings[name] = parsed.data;
    else {
      problems.push(...parsed.error.issues.map((issue) => `${name}${issue.path.length > 0 ? ':' : ''} ${issue.message}`));
      settings[name] = schema.safeParse(undefined).data;
    }
  }
  return settings as Settings;
}

/**
 * Reads and validates the configuration. Every problem is collected so that one start tells
 * the operator everything that is wrong.
 * @throws ConfigError listing each invalid setting.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const settings = parseSettings(env, problems);
  const { HOST: host, PORT: port } = settings;

  let s3: S3Settings | undefined;
  if (settings.BLOB_STORE === 's3') {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!settings[name]) problems.push(`${name} is required when BLOB_STORE=s3`);
    }
    s3 = {
      endpoint: settings.S3_ENDPOINT,
      publicEndpoint: settings.S3_PUBLIC_ENDPOINT,
      bucket: settings.S3_BUCKET ?? '',
      region: settings.S3_REGION,
      accessKeyId: settings.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: settings.S3_SECRET_ACCESS_KEY ?? '',
      forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    };
  }

  const listedProviders = settings.COMPUTE_PROVIDERS;
  // Unset: manual, or the one provider the operator enabled when that is not manual.
  const provider = settings.COMPUTE_PROVIDER ?? (listedProviders?.includes('manual') === false ? listedProviders[0] : 'manual');
  // Unset: manual and COMPUTE_PROVIDER (setting COMPUTE_PROVIDER=local, the way to enable local
  // before this list existed, keeps working).
  const providers = listedProviders ?? [...new Set<ComputeProvider>(['manual', provider])];
  if (!providers.includes(provider))
    problems.push(`COMPUTE_PROVIDER (${provider}) must be one of COMPUTE_PROVIDERS (${providers.join(', ')})`);

  let llm: Config['llm'];
  if (settings.LLM_PROVIDER) {
    if (!settings.LLM_MODEL) problems.push('LLM_MODEL is required when LLM_PROVIDER is set (the model id to call, e.g. gpt-5 or llama3.1)');
    llm = {
      provider: settings.LLM_PROVIDER,
      baseUrl: settings.LLM_BASE_URL,
      apiKey: settings.LLM_API_KEY,
      model: settings.LLM_MODEL ?? '',
      timeoutSeconds: settings.LLM_TIMEOUT_SECONDS,
      maxRetries: settings.LLM_MAX_RETRIES,
    };
  }

  const oidc = oidcSettings(settings, problems);
  const downloadOffload = downloadOffloadSettings(settings, env, problems);

  const dataDir = path.resolve(settings.DATA_DIR);
  if (downloadOffload?.header === 'X-Sendfile' && !/^[\x20-\x7e]+$/.test(dataDir))
    problems.push(`DOWNLOAD_OFFLOAD=x-sendfile puts file paths in a header, so DATA_DIR must be printable ASCII (got "${dataDir}")`);
  const sealKey = readSealKey(settings.SEAL_KEY, settings.SEAL_KEY_FILE, dataDir, problems);

  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  return {
    host,
    port,
    dataDir,
    databaseUrl: settings.DATABASE_URL,
    databasePoolSize: settings.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: settings.DATABASE_STATEMENT_TIMEOUT_MS,
    databaseConnectTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
    blobStore: settings.BLOB_STORE,
    s3,
    releaseCacheBytes: settings.RELEASE_CACHE_BYTES,
    downloadOffload,
    compute: {
      idleMinutes: settings.LEASE_IDLE_MINUTES,
      bootstrapMinutes: settings.LEASE_BOOTSTRAP_MINUTES,
      meterSeconds: settings.METER_INTERVAL_SECONDS,
      heartbeatSeconds: settings.SANDBOX_HEARTBEAT_SECONDS,
      provider,
      providers,
      maxOpenLeases: settings.COMPUTE_MAX_OPEN_LEASES,
    },
    maxFigureBytes: settings.MAX_FIGURE_BYTES,
    maxReleaseFileBytes: settings.MAX_RELEASE_FILE_BYTES,
    figureCdnHosts: settings.FIGURE_CDN_HOSTS,
    releaseToken: settings.RELEASE_TOKEN,
    sealKey,
    bootstrapAdminToken: settings.BOOTSTRAP_ADMIN_TOKEN,
    publicUrl: settings.PUBLIC_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    publicUrlFromEnv: settings.PUBLIC_URL !== undefined,
    trustProxy: settings.TRUST_PROXY,
    redisUrl: settings.REDIS_URL,
    llm,
    summaryJobs: {
      timeoutSeconds: settings.SUMMARY_JOB_TIMEOUT_SECONDS,
      retries: settings.SUMMARY_JOB_RETRIES,
      retryDelaySeconds: settings.SUMMARY_JOB_RETRY_DELAY_SECONDS,
    },
    jobInstanceTimeoutSeconds: settings.JOB_INSTANCE_TIMEOUT_SECONDS,
    a2aWaitSeconds: settings.A2A_WAIT_SECONDS,
    a2aTurnsPerInstance: settings.A2A_TURNS_PER_INSTANCE,
    modelLimits: {
      userRequestsPerMinute: settings.LLM_USER_REQUESTS_PER_MINUTE,
      userTokensPerDay: settings.LLM_USER_TOKENS_PER_DAY,
      keyRequestsPerMinute: settings.A2A_KEY_REQUESTS_PER_MINUTE,
      keyTokensPerDay: settings.A2A_KEY_TOKENS_PER_DAY,
    },
    rateLimits: {
      tokenPerMinute: settings.RATE_LIMIT_TOKEN_PER_MINUTE,
      addressPerMinute: settings.RATE_LIMIT_ADDRESS_PER_MINUTE,
      authPerMinute: settings.RATE_LIMIT_AUTH_PER_MINUTE,
    },
    corsAllowedOrigins: settings.CORS_ALLOWED_ORIGINS,
    sessions: { idleSeconds: settings.SESSION_IDLE_HOURS * 3600, maxSeconds: settings.SESSION_MAX_HOURS * 3600 },
    mail: settings.SMTP_URL
      ? {
          url: settings.SMTP_URL,
          from: settings.SMTP_FROM ?? `labdesk <noreply@${settings.PUBLIC_URL ? new URL(settings.PUBLIC_URL).hostname : 'localhost'}>`,
        }
      : undefined,
    oidc,
    a2aArtifacts: {
      perWorkspace: settings.A2A_ARTIFACT_BYTES_PER_WORKSPACE,
      perOwner: settings.A2A_ARTIFACT_BYTES_PER_OWNER,
      retentionDays: settings.A2A_RETENTION_DAYS,
    },
    a2aPushAllowPrivate: settings.A2A_PUSH_ALLOW_PRIVATE,
    a2aPushConcurrencyPerKey: settings.A2A_PUSH_CONCURRENCY_PER_KEY,
    a2aKeepaliveSeconds: settings.A2A_KEEPALIVE_SECONDS,
    a2aAgentTestTimeoutSeconds: settings.A2A_AGENT_TEST_TIMEOUT_SECONDS,
    a2aAgentCallTimeoutSeconds: settings.A2A_AGENT_CALL_TIMEOUT_SECONDS,
    agent: {
      rootDir: settings.AGENT_WORKSPACE_DIR ? path.resolve(settings.AGENT_WORKSPACE_DIR) : path.join(dataDir, 'workspaces'),
      maxWorkspaceBytes: settings.AGENT_WORKSPACE_MAX_BYTES,
      maxWorkspaceFiles: settings.AGENT_WORKSPACE_MAX_FILES,
      maxRunSeconds: settings.AGENT_SANDBOX_TIMEOUT_SECONDS,
      jobSeconds: settings.AGENT_JOB_TIMEOUT_SECONDS,
      jobsPerWorkspace: settings.AGENT_JOBS_PER_WORKSPACE,
      cpuSeconds: settings.AGENT_SANDBOX_CPU_SECONDS,
      memoryBytes: settings.AGENT_SANDBOX_MEMORY_BYTES,
      maxProcesses: settings.AGENT_SANDBOX_MAX_PROCESSES,
      maxFileBytes: settings.AGENT_SANDBOX_MAX_FILE_BYTES,
      outputBytes: settings.AGENT_SANDBOX_OUTPUT_BYTES,
      jobLogBytes: settings.AGENT_JOB_LOG_BYTES,
      concurrency: settings.AGENT_SANDBOX_CONCURRENCY,
      networkAllowed: settings.AGENT_SANDBOX_NETWORK === 'allow',
      sandboxUid: settings.AGENT_SANDBOX_UID,
      cgroups: settings.AGENT_SANDBOX_CGROUPS,
    },
    maxJsonBodyBytes: settings.MAX_JSON_BODY_BYTES,
    warnings: unknownSettingWarnings(env),
    logLevel: settings.LOG_LEVEL,
  };
}

/**
 * Single sign-on: all of issuer, client id and secret, or none. The issuer must be https, but on
 * a loopback address (a provider on the same machine, as in development and the tests).
 */
function oidcSettings(settings: Settings, problems: string[]): OidcSettings | undefined {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = settings;
  if (!issuer && !clientId && !clientSecret) return undefined;
  const missing = Object.entries({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret })
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length) {
    problems.push(`single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET; ${missing.join(', ')} missing`);
    return undefined;
  }
  const url = new URL(issuer!);
  if (url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname))
    problems.push(`OIDC_ISSUER must be an https URL (http only on a loopback address) (got ${shown(issuer)})`);
  return {
    issuer: issuer!,
    clientId: clientId!,
    clientSecret: clientSecret!,
    allowSignup: settings.OIDC_ALLOW_SIGNUP,
    allowedDomains: settings.OIDC_ALLOWED_DOMAINS,
  };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `DOWNLOAD_OFFLOAD` with, for nginx, the internal location's prefix. A prefix without the mode
 * that reads it is refused too, since an operator who sets one expects the offload on. A setting
 * already refused for its text is not named again here.
 */
function downloadOffloadSettings(settings: Settings, env: Env, problems: string[]): DownloadOffload | undefined {
  const { DOWNLOAD_OFFLOAD: mode, DOWNLOAD_OFFLOAD_PREFIX: prefix } = settings;
  const given = (name: string) => Boolean(env[name]?.trim());
  if (mode === 'x-accel-redirect') {
    if (prefix) return { header: 'X-Accel-Redirect', prefix };
    if (!given('DOWNLOAD_OFFLOAD_PREFIX'))
      problems.push(
        'DOWNLOAD_OFFLOAD_PREFIX is required when DOWNLOAD_OFFLOAD=x-accel-redirect (the internal nginx location that maps to DATA_DIR/blobs/, e.g. /_labdesk_files/)',
      );
    return undefined;
  }
  const modeValid = !given('DOWNLOAD_OFFLOAD') || env.DOWNLOAD_OFFLOAD!.trim() === mode;
  if (prefix && modeValid)
    problems.push(`DOWNLOAD_OFFLOAD_PREFIX is only read with DOWNLOAD_OFFLOAD=x-accel-redirect (DOWNLOAD_OFFLOAD is ${mode})`);
  return mode === 'x-sendfile' ? { header: 'X-Sendfile' } : undefined;
}

function isComputeProvider(name: string): name is ComputeProvider {
  return (COMPUTE_PROVIDERS as readonly string[]).includes(name);
}

/** Whether `text` is an http(s) URL with a host. */
export function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text).protocol) && /^https?:\/\/[^/]/i.test(text);
  } catch {
    return false;
  }
}

function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return url.origin === text && /^https?:$/.test(url.protocol);
  } catch {
    return false;
  }
}

/**
 * `SEAL_KEY` (32 random bytes, base64) or `SEAL_KEY_FILE` (a file holding it; relative to
 * `DATA_DIR`), not both.
 */
function readSealKey(inline: string | undefined, file: string | undefined, dataDir: string, problems: string[]): Buffer | undefined {
  if (inline && file) {
    problems.push('set SEAL_KEY or SEAL_KEY_FILE, not both');
    return undefined;
  }
  if (inline) return Buffer.from(inline, 'base64');
  if (!file) return undefined;
  const where = path.resolve(dataDir, file);
  let text: string;
  try {
    text = fs.readFileSync(where, 'utf8').trim();
  } catch (error) {
    problems.push(`SEAL_KEY_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}: ${where})`);
    return undefined;
  }
  const parsed = SEAL_KEY.safeParse(text);
  if (!parsed.success) {
    problems.push(`SEAL_KEY_FILE ${parsed.error.issues[0].message}`);
    return undefined;
  }
  return Buffer.from(text, 'base64');
}
