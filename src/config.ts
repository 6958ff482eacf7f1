import fs from 'node:fs';
import path from 'node:path';
import type { S3Settings } from './blobs/s3-store';
import type { RateLimitSettings } from './rate-limits';

/** Everything the process reads from its environment, validated once at start (contracts §1). */
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
  /** Limits on model-backed requests and tokens, per user and per A2A key (0: no limit); counted in PostgreSQL. */
  modelLimits: ModelLimits;
  /** Requests per minute per token and per address over the whole API, and on sign-in endpoints (0: no limit). */
  rateLimits: RateLimitSettings;
  /** Origins of web tools allowed to call the API from a browser (CORS); none by default. */
  corsAllowedOrigins: string[];
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
  /** The analysis agent's code workspaces and their sandbox (docs/api.md "Agent workspace"). */
  agent: AgentWorkspaceConfig;
  /** Largest JSON body accepted by the facade and /graphql. */
  maxJsonBodyBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

export class ConfigError extends Error {}

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
 * Every variable `loadConfig` reads (test/config.test.ts checks this list against its source),
 * and the `LABDESK_` ones the CLI and the tools read: what a variable with one of the service's
 * prefixes must be, or it is a misspelling that would be silently ignored.
 */
export const SETTINGS = new Set([
  'A2A_AGENT_CALL_TIMEOUT_SECONDS', 'A2A_AGENT_TEST_TIMEOUT_SECONDS', 'A2A_ARTIFACT_BYTES_PER_OWNER',
  'A2A_ARTIFACT_BYTES_PER_WORKSPACE', 'A2A_KEEPALIVE_SECONDS', 'A2A_KEY_REQUESTS_PER_MINUTE',
  'A2A_KEY_TOKENS_PER_DAY', 'A2A_PUSH_ALLOW_PRIVATE', 'A2A_PUSH_CONCURRENCY_PER_KEY', 'A2A_RETENTION_DAYS',
  'A2A_WAIT_SECONDS', 'AGENT_JOBS_PER_WORKSPACE', 'AGENT_JOB_LOG_BYTES', 'AGENT_JOB_TIMEOUT_SECONDS',
  'AGENT_SANDBOX_CGROUPS', 'AGENT_SANDBOX_CONCURRENCY', 'AGENT_SANDBOX_CPU_SECONDS',
  'AGENT_SANDBOX_MAX_FILE_BYTES', 'AGENT_SANDBOX_MAX_PROCESSES', 'AGENT_SANDBOX_MEMORY_BYTES',
  'AGENT_SANDBOX_NETWORK', 'AGENT_SANDBOX_OUTPUT_BYTES', 'AGENT_SANDBOX_TIMEOUT_SECONDS',
  'AGENT_SANDBOX_UID', 'AGENT_WORKSPACE_DIR', 'AGENT_WORKSPACE_MAX_BYTES', 'AGENT_WORKSPACE_MAX_FILES',
  'BLOB_STORE', 'BOOTSTRAP_ADMIN_TOKEN', 'COMPUTE_MAX_OPEN_LEASES', 'COMPUTE_PROVIDER', 'COMPUTE_PROVIDERS',
  'CORS_ALLOWED_ORIGINS', 'DATABASE_CONNECT_TIMEOUT_MS', 'DATABASE_POOL_SIZE',
  'DATABASE_STATEMENT_TIMEOUT_MS', 'DATABASE_URL', 'DATA_DIR', 'FIGURE_CDN_HOSTS', 'HOST',
  'JOB_INSTANCE_TIMEOUT_SECONDS', 'LEASE_BOOTSTRAP_MINUTES', 'LEASE_IDLE_MINUTES', 'LLM_API_KEY',
  'LLM_BASE_URL', 'LLM_MAX_RETRIES', 'LLM_MODEL', 'LLM_PROVIDER', 'LLM_TIMEOUT_SECONDS',
  'LLM_USER_REQUESTS_PER_MINUTE', 'LLM_USER_TOKENS_PER_DAY', 'LOG_LEVEL', 'MAX_FIGURE_BYTES',
  'MAX_JSON_BODY_BYTES', 'MAX_RELEASE_FILE_BYTES', 'METER_INTERVAL_SECONDS', 'PORT', 'PUBLIC_URL',
  'RATE_LIMIT_ADDRESS_PER_MINUTE', 'RATE_LIMIT_AUTH_PER_MINUTE', 'RATE_LIMIT_TOKEN_PER_MINUTE', 'REDIS_URL',
  'RELEASE_CACHE_BYTES', 'RELEASE_TOKEN', 'S3_ACCESS_KEY_ID', 'S3_BUCKET', 'S3_ENDPOINT',
  'S3_FORCE_PATH_STYLE', 'S3_PUBLIC_ENDPOINT', 'S3_REGION', 'S3_SECRET_ACCESS_KEY',
  'SANDBOX_HEARTBEAT_SECONDS', 'SEAL_KEY', 'SEAL_KEY_FILE', 'SUMMARY_JOB_RETRIES',
  'SUMMARY_JOB_RETRY_DELAY_SECONDS', 'SUMMARY_JOB_TIMEOUT_SECONDS', 'TRUST_PROXY',
  // The CLI's, the sandbox runtime's, compose.yaml's and the test runner's.
  'LABDESK_URL', 'LABDESK_TOKEN', 'LABDESK_CLAIM_TOKEN', 'LABDESK_SQL_DEBUG', 'LABDESK_ADMIN_TOKEN',
  'LABDESK_BROWSER_TESTS', 'LABDESK_SANDBOX_TESTS', 'LABDESK_PRODUCTION_TREE', 'LABDESK_PRODUCTION_TESTS', 'LABDESK_TEST_DB', 'LABDESK_TESTS_ONCE',
]);
const SETTING_PREFIXES = ['LABDESK_', 'A2A_', 'AGENT_', 'LLM_', 'S3_'];

/** A warning for each variable with one of our prefixes that no setting has, naming the closest setting when one is near. */
export function unknownSettingWarnings(env: Env): string[] {
  return Object.keys(env)
    .filter((name) => SETTING_PREFIXES.some((prefix) => name.startsWith(prefix)) && !SETTINGS.has(name))
    .sort()
    .map((name) => {
      const closest = [...SETTINGS].map((known) => ({ known, distance: editDistance(name, known) })).sort((a, b) => a.distance - b.distance)[0];
      return `${name} is not a setting labdesk reads, so it is ignored${closest && closest.distance <= 3 ? ` (did you mean ${closest.known}?)` : ''}`;
    });
}

/** Levenshtein distance (two short names). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}


/**
 * Reads and validates the configuration. Every problem is collected so that one start tells
 * the operator everything that is wrong.
 * @throws ConfigError listing each invalid setting.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const value = (name: string) => {
    const raw = env[name];
    return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = value(name) ?? fallback;
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };

  const host = value('HOST') ?? '127.0.0.1';
  const portText = value('PORT') ?? '8080';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) problems.push(`PORT must be an integer 0-65535 (got "${portText}")`);

  const databaseUrl = value('DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const redisUrl = value('REDIS_URL');
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push('REDIS_URL must start with redis:// or rediss://');

  const bootstrapAdminToken = value('BOOTSTRAP_ADMIN_TOKEN');
  if (bootstrapAdminToken && !/^ldk_pat_[A-Za-z0-9_-]{32,200}$/.test(bootstrapAdminToken)) {
    problems.push('BOOTSTRAP_ADMIN_TOKEN must look like ldk_pat_<at least 32 random characters of A-Z a-z 0-9 _ ->');
  }

  const trustProxy = oneOf('TRUST_PROXY', ['false', 'true'] as const, 'false') === 'true';

  const publicUrl = (value('PUBLIC_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(publicUrl)) problems.push('PUBLIC_URL must be an http(s) URL');

  const blobStore = oneOf('BLOB_STORE', ['file', 's3', 'none'] as const, 'file');
  let s3: S3Settings | undefined;
  if (blobStore === 's3') {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
      if (!value(name)) problems.push(`${name} is required when BLOB_STORE=s3`);
    }
    for (const name of ['S3_ENDPOINT', 'S3_PUBLIC_ENDPOINT']) {
      if (value(name) && !/^https?:\/\/[^/]+/.test(value(name)!)) problems.push(`${name} must be an http(s) URL`);
    }
    s3 = {
      endpoint: value('S3_ENDPOINT'),
      publicEndpoint: value('S3_PUBLIC_ENDPOINT'),
      bucket: value('S3_BUCKET') ?? '',
      region: value('S3_REGION') ?? 'us-east-1',
      accessKeyId: value('S3_ACCESS_KEY_ID') ?? '',
      secretAccessKey: value('S3_SECRET_ACCESS_KEY') ?? '',
      forcePathStyle: (value('S3_FORCE_PATH_STYLE') ?? 'false') === 'true',
    };
  }
  /** A positive integer setting (bytes, minutes, seconds). */
  const positiveInt = (name: string, fallback: number) => {
    const text = value(name) ?? String(fallback);
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < 1) problems.push(`${name} must be a positive integer`);
    return n;
  };
  const listedProviders = providerList(value('COMPUTE_PROVIDERS'), problems);
  // Unset: manual, or the one provider the operator enabled when that is not manual.
  const computeProvider = oneOf('COMPUTE_PROVIDER', COMPUTE_PROVIDERS, listedProviders?.includes('manual') === false ? listedProviders[0] : 'manual');
  // Unset: manual and COMPUTE_PROVIDER (setting COMPUTE_PROVIDER=local, the way to enable local before
  // this list existed, keeps working).
  const providers = listedProviders ?? [...new Set<ComputeProvider>(['manual', computeProvider])];
  if (!providers.includes(computeProvider)) problems.push(`COMPUTE_PROVIDER (${computeProvider}) must be one of COMPUTE_PROVIDERS (${providers.join(', ')})`);
  const compute = {
    idleMinutes: positiveInt('LEASE_IDLE_MINUTES', 30),
    bootstrapMinutes: positiveInt('LEASE_BOOTSTRAP_MINUTES', 15),
    meterSeconds: positiveInt('METER_INTERVAL_SECONDS', 30),
    heartbeatSeconds: positiveInt('SANDBOX_HEARTBEAT_SECONDS', 60),
    provider: computeProvider,
    providers,
    maxOpenLeases: positiveInt('COMPUTE_MAX_OPEN_LEASES', 3),
  };
  if (compute.meterSeconds > 60) problems.push('METER_INTERVAL_SECONDS must be at most 60 (leases are charged at least every minute)');
  const databasePoolSize = positiveInt('DATABASE_POOL_SIZE', 20);
  // Starting up holds one connection for the migration lock while the migrations run on another.
  if (databasePoolSize < 2) problems.push('DATABASE_POOL_SIZE must be at least 2');
  const databaseStatementTimeoutMs = positiveInt('DATABASE_STATEMENT_TIMEOUT_MS', 30_000);
  const databaseConnectTimeoutMs = positiveInt('DATABASE_CONNECT_TIMEOUT_MS', 5_000);
  const releaseCacheBytes = positiveInt('RELEASE_CACHE_BYTES', 10 * 1024 ** 3);
  const maxFigureBytes = positiveInt('MAX_FIGURE_BYTES', 100 * 1024 ** 2);
  const maxReleaseFileBytes = positiveInt('MAX_RELEASE_FILE_BYTES', 4 * 1024 ** 3);
  const figureCdnHosts = (value('FIGURE_CDN_HOSTS') ?? '').split(',').map((host) => host.trim().toLowerCase()).filter(Boolean);
  for (const host of figureCdnHosts) {
    if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host)) problems.push(`FIGURE_CDN_HOSTS: "${host}" is not a host name (cdn.example.org, or *.example.org)`);
  }

  let llm: Config['llm'];
  const provider = value('LLM_PROVIDER');
  if (provider) {
    const model = value('LLM_MODEL');
    const baseUrl = value('LLM_BASE_URL');
    const timeoutSeconds = positiveInt('LLM_TIMEOUT_SECONDS', 60);
    const retriesText = value('LLM_MAX_RETRIES') ?? '2';
    const maxRetries = Number(retriesText);
    if (!/^\d+$/.test(retriesText) || maxRetries > 10) problems.push(`LLM_MAX_RETRIES must be an integer 0-10 (got "${retriesText}")`);
    if (!(LLM_PROVIDERS as readonly string[]).includes(provider)) {
      problems.push(`LLM_PROVIDER must be one of ${LLM_PROVIDERS.join(', ')} (got "${provider}")`);
    } else if (!model) {
      problems.push(`LLM_MODEL is required when LLM_PROVIDER is set (the model id to call, e.g. gpt-5 or llama3.1)`);
    } else if (baseUrl && !/^https?:\/\/[^/]+/.test(baseUrl)) {
      problems.push(`LLM_BASE_URL must be an http(s) URL (got "${baseUrl}")`);
    } else {
      llm = { provider: provider as LlmConfig['provider'], baseUrl, apiKey: value('LLM_API_KEY'), model, timeoutSeconds, maxRetries };
    }
  }

  const jobInstanceTimeoutSeconds = positiveInt('JOB_INSTANCE_TIMEOUT_SECONDS', 60);
  // Heartbeats are at least a second apart: a shorter limit would fail over live instances.
  if (jobInstanceTimeoutSeconds < 3) problems.push('JOB_INSTANCE_TIMEOUT_SECONDS must be at least 3');
  /** A limit that 0 turns off. */
  const limit = (name: string, fallback: number) => {
    const text = value(name) ?? String(fallback);
    const n = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(n)) problems.push(`${name} must be a whole number (0: no limit)`);
    return n;
  };
  const modelLimits: ModelLimits = {
    userRequestsPerMinute: limit('LLM_USER_REQUESTS_PER_MINUTE', 10),
    userTokensPerDay: limit('LLM_USER_TOKENS_PER_DAY', 2_000_000),
    keyRequestsPerMinute: limit('A2A_KEY_REQUESTS_PER_MINUTE', 20),
    keyTokensPerDay: limit('A2A_KEY_TOKENS_PER_DAY', 2_000_000),
  };
  const rateLimits: RateLimitSettings = {
    tokenPerMinute: limit('RATE_LIMIT_TOKEN_PER_MINUTE', 1200),
    addressPerMinute: limit('RATE_LIMIT_ADDRESS_PER_MINUTE', 2400),
    authPerMinute: limit('RATE_LIMIT_AUTH_PER_MINUTE', 30),
  };
  const corsAllowedOrigins = (value('CORS_ALLOWED_ORIGINS') ?? '').split(',').map((origin) => origin.trim()).filter(Boolean);
  for (const origin of corsAllowedOrigins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol)) problems.push(`CORS_ALLOWED_ORIGINS: ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path or trailing slash)`);
  }
  const a2aArtifacts = {
    perWorkspace: positiveInt('A2A_ARTIFACT_BYTES_PER_WORKSPACE', 1024 ** 3),
    perOwner: positiveInt('A2A_ARTIFACT_BYTES_PER_OWNER', 10 * 1024 ** 3),
    retentionDays: limit('A2A_RETENTION_DAYS', 30),
  };
  const a2aWaitSeconds = positiveInt('A2A_WAIT_SECONDS', 60);
  if (a2aWaitSeconds > 600) problems.push('A2A_WAIT_SECONDS must be at most 600 (a request held open longer outlives proxies)');
  const a2aPushAllowPrivate = oneOf('A2A_PUSH_ALLOW_PRIVATE', ['false', 'true'] as const, 'false') === 'true';
  const a2aPushConcurrencyPerKey = positiveInt('A2A_PUSH_CONCURRENCY_PER_KEY', 4);
  // Half an instance's 16 delivery slots at most: one key must leave slots to the others.
  if (a2aPushConcurrencyPerKey > 8) problems.push('A2A_PUSH_CONCURRENCY_PER_KEY must be at most 8 (an instance makes 16 deliveries at once; one key must leave room for the others)');
  const a2aKeepaliveSeconds = positiveInt('A2A_KEEPALIVE_SECONDS', 15);
  if (a2aKeepaliveSeconds > 300) problems.push('A2A_KEEPALIVE_SECONDS must be at most 300 (proxies close idle streams sooner)');
  const a2aAgentTestTimeoutSeconds = positiveInt('A2A_AGENT_TEST_TIMEOUT_SECONDS', 10);
  if (a2aAgentTestTimeoutSeconds > 60) problems.push('A2A_AGENT_TEST_TIMEOUT_SECONDS must be at most 60 (the test answers within the request)');
  const a2aAgentCallTimeoutSeconds = positiveInt('A2A_AGENT_CALL_TIMEOUT_SECONDS', 20);
  if (a2aAgentCallTimeoutSeconds > 120) problems.push('A2A_AGENT_CALL_TIMEOUT_SECONDS must be at most 120 (a tool call holds up the turn)');
  const summaryJobs = {
    timeoutSeconds: positiveInt('SUMMARY_JOB_TIMEOUT_SECONDS', 1800),
    retries: Number(value('SUMMARY_JOB_RETRIES') ?? '3'),
    retryDelaySeconds: positiveInt('SUMMARY_JOB_RETRY_DELAY_SECONDS', 30),
  };
  // pg-boss refuses expirations of a day or more.
  if (summaryJobs.timeoutSeconds >= 24 * 3600) problems.push('SUMMARY_JOB_TIMEOUT_SECONDS must be less than 86400 (a day)');
  if (!/^\d+$/.test(value('SUMMARY_JOB_RETRIES') ?? '3') || summaryJobs.retries > 10) problems.push(`SUMMARY_JOB_RETRIES must be an integer 0-10 (got "${value('SUMMARY_JOB_RETRIES')}")`);

  const maxBodyText = value('MAX_JSON_BODY_BYTES') ?? String(10 * 1024 * 1024);
  const maxJsonBodyBytes = Number(maxBodyText);
  if (!Number.isSafeInteger(maxJsonBodyBytes) || maxJsonBodyBytes < 1024) {
    problems.push('MAX_JSON_BODY_BYTES must be an integer of at least 1024');
  }

  const dataDir = path.resolve(value('DATA_DIR') ?? './data');
  const agent = agentWorkspaceConfig(value, positiveInt, dataDir, problems);
  const sealKey = readSealKey(value('SEAL_KEY'), value('SEAL_KEY_FILE'), dataDir, problems);

  const logLevel = oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info');

  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  return {
    host,
    port,
    dataDir,
    databaseUrl,
    databasePoolSize,
    databaseStatementTimeoutMs,
    databaseConnectTimeoutMs,
    blobStore,
    s3,
    releaseCacheBytes,
    compute,
    maxFigureBytes,
    maxReleaseFileBytes,
    figureCdnHosts,
    releaseToken: value('RELEASE_TOKEN'),
    sealKey,
    bootstrapAdminToken,
    publicUrl,
    publicUrlFromEnv: value('PUBLIC_URL') !== undefined,
    trustProxy,
    redisUrl,
    llm,
    summaryJobs,
    jobInstanceTimeoutSeconds,
    a2aWaitSeconds,
    modelLimits,
    rateLimits,
    corsAllowedOrigins,
    a2aArtifacts,
    a2aPushAllowPrivate,
    a2aPushConcurrencyPerKey,
    a2aKeepaliveSeconds,
    a2aAgentTestTimeoutSeconds,
    a2aAgentCallTimeoutSeconds,
    agent,
    maxJsonBodyBytes,
    warnings: unknownSettingWarnings(env),
    logLevel,
  };
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
  let text = inline;
  if (file) {
    try {
      text = fs.readFileSync(path.resolve(dataDir, file), 'utf8').trim();
    } catch (error) {
      problems.push(`SEAL_KEY_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}: ${path.resolve(dataDir, file)})`);
      return undefined;
    }
  }
  if (text === undefined) return undefined;
  const key = Buffer.from(text, 'base64');
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text) || key.length !== 32) {
    problems.push(`${file ? 'SEAL_KEY_FILE' : 'SEAL_KEY'} must hold 32 random bytes in base64 (e.g. the output of: openssl rand -base64 32)`);
    return undefined;
  }
  return key;
}

/**
 * `COMPUTE_PROVIDERS`, the providers requests may choose (undefined when unset). `local` makes
 * the service start processes for whoever asks, so only the operator enables it.
 */
function providerList(raw: string | undefined, problems: string[]): ComputeProvider[] | undefined {
  if (raw === undefined) return undefined;
  const listed = raw.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = listed.filter((name) => !(COMPUTE_PROVIDERS as readonly string[]).includes(name));
  if (listed.length === 0 || unknown.length > 0) {
    problems.push(`COMPUTE_PROVIDERS must list providers among ${COMPUTE_PROVIDERS.join(', ')} (got "${unknown.join(', ') || raw}")`);
    return undefined;
  }
  return COMPUTE_PROVIDERS.filter((name) => listed.includes(name));
}

/** The agent workspace settings (`AGENT_…`), validated with the rest. */
function agentWorkspaceConfig(
  value: (name: string) => string | undefined,
  positiveInt: (name: string, fallback: number) => number,
  dataDir: string,
  problems: string[],
): AgentWorkspaceConfig {
  const rootText = value('AGENT_WORKSPACE_DIR');
  if (rootText !== undefined && !path.isAbsolute(rootText)) problems.push(`AGENT_WORKSPACE_DIR must be an absolute path (got "${rootText}")`);
  const network = value('AGENT_SANDBOX_NETWORK') ?? 'deny';
  const cgroupsText = value('AGENT_SANDBOX_CGROUPS') ?? 'auto';
  if (cgroupsText !== 'auto' && cgroupsText !== 'off') problems.push(`AGENT_SANDBOX_CGROUPS must be one of auto, off (got "${cgroupsText}")`);
  if (network !== 'deny' && network !== 'allow') problems.push(`AGENT_SANDBOX_NETWORK must be one of deny, allow (got "${network}")`);
  const uidText = value('AGENT_SANDBOX_UID') ?? '65534';
  const sandboxUid = Number(uidText);
  if (!/^\d+$/.test(uidText) || sandboxUid < 1 || sandboxUid > 4294967294) problems.push(`AGENT_SANDBOX_UID must be a user id other than 0 (got "${uidText}")`);
  const config: AgentWorkspaceConfig = {
    rootDir: rootText !== undefined && path.isAbsolute(rootText) ? path.resolve(rootText) : path.join(dataDir, 'workspaces'),
    maxWorkspaceBytes: positiveInt('AGENT_WORKSPACE_MAX_BYTES', 1024 ** 3),
    maxWorkspaceFiles: positiveInt('AGENT_WORKSPACE_MAX_FILES', 10_000),
    maxRunSeconds: positiveInt('AGENT_SANDBOX_TIMEOUT_SECONDS', 300),
    jobSeconds: positiveInt('AGENT_JOB_TIMEOUT_SECONDS', 3600),
    jobsPerWorkspace: positiveInt('AGENT_JOBS_PER_WORKSPACE', 2),
    cpuSeconds: positiveInt('AGENT_SANDBOX_CPU_SECONDS', 3600),
    memoryBytes: positiveInt('AGENT_SANDBOX_MEMORY_BYTES', 1024 ** 3),
    maxProcesses: positiveInt('AGENT_SANDBOX_MAX_PROCESSES', 64),
    maxFileBytes: positiveInt('AGENT_SANDBOX_MAX_FILE_BYTES', 256 * 1024 ** 2),
    outputBytes: positiveInt('AGENT_SANDBOX_OUTPUT_BYTES', 64 * 1024),
    jobLogBytes: positiveInt('AGENT_JOB_LOG_BYTES', 8 * 1024 ** 2),
    concurrency: positiveInt('AGENT_SANDBOX_CONCURRENCY', 4),
    networkAllowed: network === 'allow',
    sandboxUid,
    cgroups: cgroupsText === 'off' ? 'off' : 'auto',
  };
  // Python alone maps some 30 MiB; below 64 MiB nothing useful starts.
  if (config.memoryBytes < 64 * 1024 ** 2) problems.push('AGENT_SANDBOX_MEMORY_BYTES must be at least 67108864 (64 MiB)');
  if (config.outputBytes < 1024) problems.push('AGENT_SANDBOX_OUTPUT_BYTES must be at least 1024');
  if (config.maxProcesses < 4) problems.push('AGENT_SANDBOX_MAX_PROCESSES must be at least 4 (the sandbox itself takes a few)');
  return config;
}
