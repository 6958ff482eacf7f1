import path from 'node:path';

/** Everything the process reads from its environment, validated once at start (contracts §1). */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** `postgres://…`; undefined = embedded PostgreSQL under `dataDir`. */
  databaseUrl?: string;
  blobStore: 'file' | 's3' | 'none';
  releaseToken?: string;
  bootstrapAdminToken?: string;
  publicUrl: string;
  redisUrl?: string;
  llm?: { provider: 'openai' | 'anthropic'; baseUrl?: string; apiKey?: string; model?: string };
  /** Largest JSON body accepted by the facade and /graphql. */
  maxJsonBodyBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

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

  const publicUrl = (value('PUBLIC_URL') ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(publicUrl)) problems.push('PUBLIC_URL must be an http(s) URL');

  const blobStore = oneOf('BLOB_STORE', ['file', 's3', 'none'] as const, 'file');
  if (blobStore === 's3') {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']) {
      if (!value(name)) problems.push(`${name} is required when BLOB_STORE=s3`);
    }
  }

  let llm: Config['llm'];
  const provider = value('LLM_PROVIDER');
  if (provider) {
    if (provider !== 'openai' && provider !== 'anthropic') {
      problems.push(`LLM_PROVIDER must be openai or anthropic (got "${provider}")`);
    } else {
      llm = { provider, baseUrl: value('LLM_BASE_URL'), apiKey: value('LLM_API_KEY'), model: value('LLM_MODEL') };
    }
  }

  const maxBodyText = value('MAX_JSON_BODY_BYTES') ?? String(10 * 1024 * 1024);
  const maxJsonBodyBytes = Number(maxBodyText);
  if (!Number.isSafeInteger(maxJsonBodyBytes) || maxJsonBodyBytes < 1024) {
    problems.push('MAX_JSON_BODY_BYTES must be an integer of at least 1024');
  }

  const logLevel = oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info');

  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  return {
    host,
    port,
    dataDir: path.resolve(value('DATA_DIR') ?? './data'),
    databaseUrl,
    blobStore,
    releaseToken: value('RELEASE_TOKEN'),
    bootstrapAdminToken,
    publicUrl,
    redisUrl,
    llm,
    maxJsonBodyBytes,
    logLevel,
  };
}
