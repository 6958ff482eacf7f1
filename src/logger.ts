import pino, { type DestinationStream } from 'pino';

type Level = 'debug' | 'info' | 'warn' | 'error';

/** What the service logs through: a message and structured fields, one JSON line each. */
export type Logger = Record<Level, (msg: string, fields?: Record<string, unknown>) => void>;

/** Credential fields: wherever they appear up to three levels deep, their values become "[redacted]". */
const SECRET_FIELDS = [
  'password',
  'current_password',
  'new_password',
  'token',
  'access_token',
  'refresh_token',
  'secret',
  'apiKey',
  'api_key',
  'authorization',
  'cookie',
  'set-cookie',
  'proxy-authorization',
  'x-api-key',
];
const REDACTED_PATHS = SECRET_FIELDS.map((field) => `["${field}"]`).flatMap((field) => [field, `*${field}`, `*.*${field}`]);

/** Our credentials by their shape (tokens, keys, codes), wherever they hide in a string: a path, a message, an error. */
const CREDENTIAL = /\bldk_(?:pat|at|rt|ct|pt|dc|a2a|ses|pwl)_[A-Za-z0-9_-]{8,}/g;

/** Replaces credential-shaped substrings in every string of a log object (depth-bounded; objects are copied, never changed). */
function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.includes('ldk_') ? value.replace(CREDENTIAL, 'ldk_[redacted]') : value;
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrub(item, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrub(item, depth + 1)]));
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The service's logger, on pino: one JSON object per line (`time`, `level` by name, `msg`, the
 * fields) on stdout, or on `destination` (tests). Credentials are redacted by the paths above
 * and by their shape; `silent` writes nothing.
 */
export function makeLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const base = pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: (fields) => scrub(fields) as Record<string, unknown> },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    // process.stdout as it is (not a file descriptor of pino's own): whatever wraps stdout sees the lines.
    destination ?? process.stdout,
  );
  const write = (lvl: Level) => (msg: string, fields?: Record<string, unknown>) =>
    base[lvl](fields ?? {}, msg.includes('ldk_') ? (scrub(msg) as string) : msg);
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/**
 * Node's process warnings (a MaxListenersExceededWarning, a deprecation) as log lines. Node's own
 * printer writes them to stderr as plain text, which a collector reading JSON lines cannot parse;
 * it is removed here (as `--no-warnings` would), and each warning becomes one `warn` line with its
 * name, code and stack (where it was raised, which Node prints only under `--trace-warnings`).
 * For the process that runs the service, once: tests start many apps in one process.
 */
export function logProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) =>
    logger.warn(`${warning.name}: ${warning.message}`, { warning: warning.name, code: warning.code, stack: warning.stack }),
  );
}
