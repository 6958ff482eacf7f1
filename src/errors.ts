import { BlobNotFoundError } from './blobs/blob-store';
/**
 * The one error hierarchy. Code throws `AppError` with a code; the code alone decides, in the
 * table below, the HTTP status (REST, and GraphQL's `extensions.status`), the GraphQL
 * `extensions.code` (the code itself) and the JSON-RPC code. Translation happens in exactly three
 * places, each reading this table: the REST adapter (`src/http/answers.ts`), GraphQL's
 * `formatError` (`src/app.ts`) and the JSON-RPC adapter (`rpcErrorOf`, `facade/rpc.ts`), which
 * answers an `A2aError` with its reason's code (`A2A_ERRORS`) and adds the A2A reason of an A2A
 * code (-32001 is TaskNotFoundError).
 * JSON-RPC's generic codes: -32600 invalid request, -32601 method not found, -32602 invalid
 * params, -32603 internal; -32000 is this server's access and availability code.
 */
export const ERROR_CODES = {
  BAD_REQUEST: { http: 400, jsonRpc: -32600 },
  UNAUTHENTICATED: { http: 401, jsonRpc: -32000 },
  PAYMENT_REQUIRED: { http: 402, jsonRpc: -32000 },
  FORBIDDEN: { http: 403, jsonRpc: -32000 },
  NOT_FOUND: { http: 404, jsonRpc: -32001 },
  METHOD_NOT_ALLOWED: { http: 405, jsonRpc: -32601 },
  // Not -32002: A2A gives that code to TaskNotCancelableError.
  CONFLICT: { http: 409, jsonRpc: -32000 },
  // A params member too large to take, as A2A clients read it.
  PAYLOAD_TOO_LARGE: { http: 413, jsonRpc: -32602 },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, jsonRpc: -32600 },
  RANGE_NOT_SATISFIABLE: { http: 416, jsonRpc: -32602 },
  VALIDATION_FAILED: { http: 422, jsonRpc: -32602 },
  RATE_LIMITED: { http: 429, jsonRpc: -32000 },
  INTERNAL: { http: 500, jsonRpc: -32603 },
  UNAVAILABLE: { http: 503, jsonRpc: -32000 },
} as const satisfies Record<string, { http: number; jsonRpc: number }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One invalid input: `path` is relative to the GraphQL arguments (e.g. `["input", "name"]`). */
export interface FieldIssue {
  path: (string | number)[];
  msg: string;
  type: string;
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra members merged into the REST error body (e.g. the server head on a 409). */
    readonly details?: Record<string, unknown>,
    /** For VALIDATION_FAILED: each invalid input. */
    readonly issues?: FieldIssue[],
    /**
     * Response headers the REST answer carries besides the status and body (e.g. a 416's
     * Content-Range stating the object's size), set by the REST adapter only; GraphQL and
     * JSON-RPC have no headers to put them in.
     */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/**
 * The A2A protocol's errors (A2A §5.4, §9.5), by reason (google.rpc.ErrorInfo `reason`): the
 * JSON-RPC code answered for it instead of the table's, and the table's code REST and GraphQL
 * answer.
 */
export const A2A_ERRORS = {
  TASK_NOT_FOUND: { code: 'NOT_FOUND', jsonRpc: -32001 },
  TASK_NOT_CANCELABLE: { code: 'CONFLICT', jsonRpc: -32002 },
  UNSUPPORTED_OPERATION: { code: 'BAD_REQUEST', jsonRpc: -32004 },
  CONTENT_TYPE_NOT_SUPPORTED: { code: 'BAD_REQUEST', jsonRpc: -32005 },
  VERSION_NOT_SUPPORTED: { code: 'BAD_REQUEST', jsonRpc: -32009 },
} as const satisfies Record<string, { code: ErrorCode; jsonRpc: number }>;

export type A2aReason = keyof typeof A2A_ERRORS;

/** An A2A error: its reason decides its JSON-RPC code; `code` (by default the reason's) the rest. */
export class A2aError extends AppError {
  constructor(
    readonly reason: A2aReason,
    message: string,
    code: ErrorCode = A2A_ERRORS[reason].code,
  ) {
    // REST bodies name the reason (`a2aReason`), as they did before the class.
    super(code, message, { a2aReason: reason });
    this.name = 'A2aError';
  }
}

export const unauthenticated = (message = 'authentication required') => new AppError('UNAUTHENTICATED', message);
export const forbidden = (message = 'not allowed') => new AppError('FORBIDDEN', message);
export const notFound = (what = 'resource') => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, details?: Record<string, unknown>) => new AppError('CONFLICT', message, details);
export const invalid = (issues: FieldIssue[]) =>
  new AppError('VALIDATION_FAILED', issues.map((i) => `${i.path.join('.')}: ${i.msg}`).join('; '), undefined, issues);
/** No byte of the object's `size` is in the requested ranges; the answer states the size (RFC 9110 §15.5.17). */
export const rangeNotSatisfiable = (size: number, message = 'range not satisfiable') =>
  new AppError('RANGE_NOT_SATISFIABLE', message, undefined, undefined, { 'Content-Range': `bytes */${size}` });

/**
 * The database cannot be reached or is going away: socket errors, PostgreSQL's shutdown and
 * connection codes (class 08 too), too many connections, and the pool's wait for a connection
 * running out. The request may well succeed once it is back: 503.
 */
const DATABASE_GONE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const DATABASE_GONE_CLASSES = new Set(['KnexTimeoutError', 'ConnectionException']);
/**
 * The pg driver's own errors (they carry no code) for a connection it could not open within
 * DATABASE_CONNECT_TIMEOUT_MS, and for one that died under a statement.
 */
const DATABASE_GONE_MESSAGES = new Set([
  'timeout expired',
  'Connection terminated unexpectedly',
  'Client has encountered a connection error and is not queryable',
]);
const databaseUnavailable = () => new AppError('UNAVAILABLE', 'the database is unavailable; try again shortly');

/** Whether `error` is the database unreachable or going away (above): a statement sent may or may not have been done. */
export function databaseOutage(error: unknown): boolean {
  const { code, name, message } = (error ?? {}) as { code?: unknown; name?: unknown; message?: unknown };
  if (typeof code === 'string' && (DATABASE_GONE_CODES.has(code) || code.startsWith('08'))) return true;
  return DATABASE_GONE_CLASSES.has(String(name)) || DATABASE_GONE_MESSAGES.has(String(message));
}

/**
 * Failures to reach the database at all (no connection could be opened: refused, no such host,
 * a server starting up or shutting down, no free connection): the statement was never sent, so
 * sending it again cannot do it twice. A connection lost under a statement is not one of them.
 */
const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', '57P03', '53300']);
export const databaseNeverReached = (error: unknown) =>
  NEVER_SENT_CODES.has(String((error as { code?: unknown } | null)?.code)) ||
  (error as { name?: unknown } | null)?.name === 'KnexTimeoutError';
/** PostgreSQL cancelled the statement: DATABASE_STATEMENT_TIMEOUT_MS passed (a lock wait, a slow or overloaded server). */
const PG_QUERY_CANCELED = '57014';

const PG_UNIQUE_VIOLATION = '23505';

/** Whether a database error is a unique violation (for a caller that answers it another way, e.g. a retry). */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === PG_UNIQUE_VIOLATION;

/** What a unique violation means, by constraint name; any other one is a generic conflict. */
const UNIQUE_CONFLICTS: Record<string, string> = {
  // The (session, uuid) index is the check that a batch brings no uuid already stored.
  trajectory_records_session_id_uuid_unique: 'a record uuid of this batch is already in this session',
};
const PG_SERIALIZATION_FAILURE = '40001';
const PG_DEADLOCK = '40P01';
/** Text PostgreSQL cannot store (a NUL character), from a caller that skipped the facade's checks. */
const PG_BAD_TEXT = new Set(['22021', '22P05']);

/** body-parser's failures by their `type`, in the API's words. */
const BODY_ERRORS: Record<string, AppError> = {
  'entity.parse.failed': new AppError('BAD_REQUEST', 'malformed JSON body'),
  'entity.too.large': new AppError('PAYLOAD_TOO_LARGE', 'request body too large'),
  'encoding.unsupported': new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding'),
  'charset.unsupported': new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported body charset: send JSON as UTF-8'),
  // Raised by our own `verify` step (body-parser keeps its `type`): it would decode such bytes to U+FFFD silently.
  'entity.not.utf8': new AppError('BAD_REQUEST', 'the body is not valid UTF-8'),
};

/** Other faults of the request itself that Express's parts report with a 4xx `status` (e.g. a body that does not inflate). */
const REQUEST_FAULTS: Partial<Record<number, AppError>> = {
  400: new AppError('BAD_REQUEST', 'the request body could not be read (is its Content-Encoding right?)'),
  413: BODY_ERRORS['entity.too.large'],
  415: BODY_ERRORS['encoding.unsupported'],
};

/**
 * Turns anything thrown into an `AppError`. Database errors, and the faults Express and its
 * body parser find in a request, are translated here and only here; unknown errors become
 * INTERNAL with a generic message (the caller logs the original).
 */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  // Express decodes path parameters with decodeURIComponent.
  if (error instanceof URIError) return new AppError('BAD_REQUEST', 'the path is not valid percent-encoding');
  const { type, status, expose } = (error ?? {}) as { type?: unknown; status?: unknown; expose?: unknown };
  if (typeof type === 'string' && BODY_ERRORS[type]) return BODY_ERRORS[type];
  if (expose === true && typeof status === 'number' && REQUEST_FAULTS[status]) return REQUEST_FAULTS[status];
  const pgCode = (error as { code?: unknown } | null)?.code;
  if (databaseOutage(error)) return databaseUnavailable();
  if (pgCode === PG_QUERY_CANCELED) return new AppError('UNAVAILABLE', 'the database did not answer in time; try again shortly');
  if (pgCode === PG_UNIQUE_VIOLATION) {
    const constraint = (error as { constraint?: unknown }).constraint;
    return conflict((typeof constraint === 'string' && UNIQUE_CONFLICTS[constraint]) || 'conflicts with an existing resource');
  }
  if (pgCode === PG_SERIALIZATION_FAILURE || pgCode === PG_DEADLOCK) {
    return conflict('concurrent update, please retry');
  }
  if (typeof pgCode === 'string' && PG_BAD_TEXT.has(pgCode)) return new AppError('BAD_REQUEST', 'text must not contain NUL characters');
  if ((error as { name?: string } | null)?.name === 'NotFoundError') return notFound();
  // A row names an object the store no longer has (deleted by hand, or a store swapped underneath).
  if (error instanceof BlobNotFoundError) return notFound('file');
  return new AppError('INTERNAL', 'internal server error');
}
