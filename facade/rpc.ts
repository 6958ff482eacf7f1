import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { ExecutionResult } from 'graphql';
import type { Services } from '../src/context';
import { AppError, ERROR_CODES, ErrorCode, FieldIssue, invalid } from '../src/errors';
import type { A2aPrincipal } from '../src/modules/a2a/a2a-gate.service';
import { INPUT_MEDIA_TYPES, unsupportedMediaType } from '../src/modules/a2a/a2a-parts';
import {
  createPushConfig,
  deletePushConfig,
  getPushConfig,
  listPushConfigs,
  MAX_CONFIGS_PER_TASK,
} from '../src/modules/a2a/a2a-push.service';
import { MAX_HISTORY_LENGTH, SETTLED_STATES, TASK_STATES, TERMINAL_STATES } from '../src/modules/a2a/a2a-task.repository';
import { valueDeeperThan } from '../src/validation';
import * as Op from './generated/operations';
import { withoutNull } from './http';

/**
 * The A2A 1.0 JSON-RPC binding as data: the envelope rules, one row per method, and the one
 * mapping of `AppError` to a JSON-RPC error. `facade/a2a.ts` serves it at `POST /a2a/v1`.
 *
 * Decisions (docs/api.md "A2A"): a batch (a JSON array) is refused as one -32600 (A2A defines no
 * batches); a request must carry an `id` (a string, or an integer of at most 2^53 - 1 so that it
 * comes back as sent: every A2A method answers, so a notification has no meaning);
 * `A2A-Version` 1.0 or 1.0.x is served, no header is served as 1.0 by the method's name
 * (contracts §9), any other version is -32009 before anything runs.
 */

/** A2A error reasons (google.rpc.ErrorInfo `reason`) and their JSON-RPC codes (A2A §5.4, §9.5). */
export const A2A_ERRORS = {
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  UNSUPPORTED_OPERATION: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  VERSION_NOT_SUPPORTED: -32009,
} as const;
export type A2aReason = keyof typeof A2A_ERRORS;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;

export type RpcId = string | number | null;

export interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>[];
}

/** An A2A error as an `AppError`: the HTTP-side code for logs and REST, the A2A reason for JSON-RPC. */
export function a2aError(reason: A2aReason, message: string, code: ErrorCode = 'BAD_REQUEST'): AppError {
  return new AppError(code, message, { a2aReason: reason });
}

const errorInfo = (reason: A2aReason) => [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }];

const badRequest = (issues: FieldIssue[]) => [
  {
    '@type': 'type.googleapis.com/google.rpc.BadRequest',
    fieldViolations: issues.map((issue) => ({ field: issue.path.join('.'), description: issue.msg })),
  },
];

const REASON_OF_CODE = new Map(Object.entries(A2A_ERRORS).map(([reason, code]) => [code as number, reason as A2aReason]));

/**
 * An `AppError` as a JSON-RPC error: the code from the error table (`ERROR_CODES`), or the A2A
 * reason's code when the error names one, with A2A's ErrorInfo for an A2A code and the field
 * violations of a validation failure. Never a stack or an internal message.
 */
export function rpcErrorOf(error: AppError): RpcError {
  const named = error.details?.a2aReason as A2aReason | undefined;
  const code = named ? A2A_ERRORS[named] : ERROR_CODES[error.code].jsonRpc;
  if (error.code === 'INTERNAL') return { code, message: 'internal error' };
  const reason = REASON_OF_CODE.get(code);
  if (reason) return { code, message: error.message, data: errorInfo(reason) };
  return { code, message: error.message, ...(error.issues ? { data: badRequest(error.issues) } : {}) };
}

export const rpcFailure = (id: RpcId, error: RpcError) => ({ jsonrpc: '2.0' as const, id, error });
export const rpcSuccess = (id: RpcId, result: unknown) => ({ jsonrpc: '2.0' as const, id, result });

/** A request the envelope accepted: its id, method row and params (camelCase). */
export interface RpcCall {
  id: string | number;
  method: RpcMethod;
  params: Record<string, unknown>;
}

/** What a method's row says it does with its (camelCased) params. */
export interface RpcMethod {
  name: string;
  /** Validates the params (throws VALIDATION_FAILED with field issues) and returns what the method runs on. */
  params?: (params: Record<string, unknown>) => Record<string, unknown>;
  /** What the method does, for the caller the gate admitted (its result is the JSON-RPC `result`). */
  run?: (call: MethodCall, params: Record<string, unknown>) => Promise<unknown>;
  /**
   * A streaming method: the subscription whose events (`a2aTaskEvents`, A2A StreamResponses)
   * `facade/a2a.ts` writes as server-sent events.
   */
  stream?: (call: MethodCall, params: Record<string, unknown>) => Promise<Subscription>;
  /** Without `run` or `stream`: the A2A error this server answers for the method (a capability it does not declare). */
  refuse?: { reason: A2aReason; message: string };
}

/** A subscription as `graphql`'s `subscribe` gives it: its events, or the result that refused it. */
export type Subscription = ExecutionResult | AsyncGenerator<ExecutionResult>;

/** Who runs a method, and the signal of the caller leaving (a waiting SendMessage stops waiting). */
export interface MethodCall {
  services: Services;
  principal: A2aPrincipal;
  callerGone: AbortSignal;
  /** Runs a typed operation in-process, in the caller's A2A context; its first error is thrown. */
  run<TData, TVars>(operation: TypedDocumentNode<TData, TVars>, variables: TVars): Promise<TData>;
  /** Subscribes to a typed subscription in-process, in the caller's A2A context. */
  subscribe<TData, TVars>(operation: TypedDocumentNode<TData, TVars>, variables: TVars): Promise<Subscription>;
}

/**
 * Every A2A 1.0 method (A2A §9.4). The task methods run the typed operations of
 * `facade/operations/a2a.graphql` in-process (so the resolvers' checks run as for any GraphQL
 * caller) with the A2A principal in the context, and map the result to the ProtoJSON wire shape.
 * The push-config methods call the push service directly: their configs are not in the GraphQL
 * schema's protocol operations (the web tools read them through `a2aTaskPushConfigs`).
 * A capability the card does not declare answers the error A2A names for it.
 */
export const RPC_METHODS: RpcMethod[] = [
  {
    name: 'SendMessage',
    params: sendMessageParams,
    run: async (call, params) => ({
      task: wireTaskOf((await call.run(Op.A2aMessageSendDocument, { input: sendInputOf(params) })).a2aMessageSend.task),
    }),
  },
  { name: 'SendStreamingMessage', params: sendMessageParams, stream: sendStreamingMessage },
  {
    name: 'GetTask',
    params: getTaskParams,
    run: async (call, params) =>
      wireTaskOf(
        (await call.run(Op.A2aTaskDocument, { id: params.id as string, historyLength: params.historyLength as number | undefined }))
          .a2aTask,
      ),
  },
  { name: 'ListTasks', params: listTasksParams, run: listTasksByOperation },
  {
    name: 'CancelTask',
    params: taskIdParams('id'),
    run: async (call, params) => wireTaskOf((await call.run(Op.A2aTaskCancelDocument, { id: params.id as string })).a2aTaskCancel),
  },
  {
    name: 'SubscribeToTask',
    params: taskIdParams('id'),
    stream: (call, params) => call.subscribe(Op.A2aTaskEventsDocument, { taskId: params.id as string, refuseTerminal: true }),
  },
  {
    name: 'CreateTaskPushNotificationConfig',
    params: createPushConfigParams,
    run: (call, params) => createPushConfig(call.services, call.principal, params),
  },
  {
    name: 'GetTaskPushNotificationConfig',
    params: pushConfigRefParams,
    run: (call, params) => getPushConfig(call.services, call.principal, params),
  },
  {
    name: 'ListTaskPushNotificationConfigs',
    params: listPushConfigsParams,
    run: (call, params) => listPushConfigs(call.services, call.principal, params),
  },
  {
    name: 'DeleteTaskPushNotificationConfig',
    params: pushConfigRefParams,
    run: (call, params) => deletePushConfig(call.services, call.principal, params),
  },
  { name: 'GetExtendedAgentCard', refuse: { reason: 'UNSUPPORTED_OPERATION', message: 'this agent declares no extended agent card' } },
];

/**
 * SendStreamingMessage: the message is sent as SendMessage sends it (not waiting), then the
 * stream is the task's events, from the task as it is then.
 */
async function sendStreamingMessage(call: MethodCall, params: Record<string, unknown>): Promise<Subscription> {
  const input = sendInputOf(params);
  const { task } = (await call.run(Op.A2aMessageSendDocument, { input: { ...input, returnImmediately: true, historyLength: 0 } }))
    .a2aMessageSend;
  return call.subscribe(Op.A2aTaskEventsDocument, { taskId: task.id, refuseTerminal: false, historyLength: input.historyLength });
}

/** SendMessage params (checked) as the operation's input: the message as sent, the configuration members this server reads. */
function sendInputOf(params: Record<string, unknown>): Op.A2aMessageSendInput {
  const configuration = (params.configuration ?? {}) as {
    returnImmediately?: boolean;
    historyLength?: number;
    taskPushNotificationConfig?: Record<string, unknown>;
  };
  return {
    message: params.message,
    returnImmediately: configuration.returnImmediately,
    historyLength: configuration.historyLength,
    taskPushNotificationConfig: configuration.taskPushNotificationConfig,
  };
}

const LIST_MEMBERS = ['contextId', 'status', 'pageSize', 'pageToken', 'historyLength', 'statusTimestampAfter', 'includeArtifacts'] as const;

/** ListTasks: the known members of the (checked) params as the input; unknown ones are ignored (A2A §5.7). */
async function listTasksByOperation(call: MethodCall, params: Record<string, unknown>): Promise<unknown> {
  const input = Object.fromEntries(
    LIST_MEMBERS.filter((name) => params[name] !== undefined).map((name) => [name, params[name]]),
  ) as Op.A2aTaskListInput;
  const list = (await call.run(Op.A2aTaskListDocument, { input })).a2aTaskList;
  return {
    tasks: list.tasks.map((task) => wireTaskOf(task as Wire)),
    nextPageToken: list.nextPageToken,
    pageSize: list.pageSize,
    totalSize: list.totalSize,
  };
}

type Wire = Record<string, unknown>;

const wireStatus = (status: Wire) => withoutNull(status, ['message']) as Wire;

/** An `A2aTask` as GraphQL gives it, as the A2A Task on the wire (`history`, `artifacts`, `status.message` absent when null). */
export function wireTaskOf(task: Wire): Wire {
  return withoutNull({ ...task, status: wireStatus(task.status as Wire) }, ['artifacts', 'history']) as Wire;
}

/** An `A2aStreamResponse` as GraphQL gives it, as the one-member A2A StreamResponse on the wire. */
export function wireStreamResponse(event: Wire): Wire {
  if (event.task) return { task: wireTaskOf(event.task as Wire) };
  if (event.statusUpdate) {
    const update = event.statusUpdate as Wire;
    return { statusUpdate: { ...update, status: wireStatus(update.status as Wire) } };
  }
  return { artifactUpdate: event.artifactUpdate };
}

/**
 * Whether a stream ends after this event: at a terminal state, and when the task stops for
 * the caller (INPUT_REQUIRED, AUTH_REQUIRED; the caller answers with SendMessage and may
 * SubscribeToTask again). The first event (the task) ends it only when terminal: a stream opened
 * on a waiting task waits for its next change.
 */
export function endsStream(event: Wire): boolean {
  const task = event.task as { status: { state: string } } | undefined;
  if (task) return TERMINAL_STATES.includes(task.status.state);
  const update = event.statusUpdate as { status: { state: string } } | undefined;
  return update !== undefined && SETTLED_STATES.includes(update.status.state);
}

const METHODS = new Map(RPC_METHODS.map((method) => [method.name, method]));

const VERSION = /^1\.0(\.\d+)?$/;

/** The error of an `A2A-Version` this server does not speak (undefined: absent, empty, 1.0 or 1.0.x). */
function versionError(version: string | undefined): RpcError | undefined {
  const given = version?.trim();
  if (!given || VERSION.test(given)) return undefined;
  return rpcErrorOf(a2aError('VERSION_NOT_SUPPORTED', `A2A-Version ${given.slice(0, 20)} is not supported; this server speaks 1.0`));
}

/**
 * A2A 0.3's method names. A client that calls one without `A2A-Version` speaks 0.3 (absent means
 * 0.3, A2A §3.6.2): it is told which version is served, not that the method does not exist.
 */
const V03_METHODS = new Set([
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/list',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
]);

/**
 * Checks a parsed body against the JSON-RPC 2.0 envelope and the requested A2A version (the
 * `A2A-Version` header or query parameter). Returns the call, or the error to answer with the id
 * to echo (null when the id itself is what is wrong). A version this server does not speak is
 * refused before the rest of the envelope is read, with the request's id when it has one.
 */
export function readEnvelope(body: unknown, version?: string): RpcCall | { id: RpcId; error: RpcError } {
  const wrongVersion = versionError(version);
  if (Array.isArray(body))
    return { id: null, error: wrongVersion ?? { code: INVALID_REQUEST, message: 'batches are not supported: send one request per POST' } };
  if (typeof body !== 'object' || body === null)
    return { id: null, error: wrongVersion ?? { code: INVALID_REQUEST, message: 'the request must be a JSON object' } };
  const request = body as Record<string, unknown>;
  const { id } = request;
  // A number beyond 2^53 - 1 (or a fraction) may not come back as it was sent: JSON.parse has already rounded it.
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) {
    return { id: null, error: wrongVersion ?? { code: INVALID_REQUEST, message: 'id must be a string or an integer of at most 2^53 - 1' } };
  }
  if (wrongVersion) return { id, error: wrongVersion };
  if (request.jsonrpc !== '2.0') return { id, error: { code: INVALID_REQUEST, message: 'jsonrpc must be "2.0"' } };
  if (typeof request.method !== 'string') return { id, error: { code: INVALID_REQUEST, message: 'method must be a string' } };
  const params = request.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return { id, error: { code: INVALID_REQUEST, message: 'params must be an object' } };
  const method = METHODS.get(request.method);
  if (!method && !version?.trim() && V03_METHODS.has(request.method)) {
    return {
      id,
      error: rpcErrorOf(
        a2aError(
          'VERSION_NOT_SUPPORTED',
          `${request.method} is an A2A 0.3 method; this server speaks A2A 1.0 only (send A2A-Version: 1.0 and call SendMessage, GetTask, …)`,
        ),
      ),
    };
  }
  if (!method) return { id, error: { code: METHOD_NOT_FOUND, message: `method not found: ${request.method.slice(0, 100)}` } };
  const camel = camelKeys(params) as Record<string, unknown>;
  const tooDeep = Object.keys(camel).filter((name) => valueDeeperThan(camel[name], MAX_PARAMS_DEPTH));
  if (tooDeep.length)
    return {
      id,
      error: rpcErrorOf(
        invalid(
          tooDeep.map((name) => ({ path: [name], msg: `must not be nested deeper than ${MAX_PARAMS_DEPTH} levels`, type: 'too_deep' })),
        ),
      ),
    };
  return { id, method, params: camel };
}

/**
 * Levels of arrays and objects a member of params may nest (the message counts its own: a data
 * part's value starts at the fourth, message.parts[i].data). Far beyond any real message, far
 * below the few thousand at which storing it (JSON.stringify) would overflow the stack.
 */
const MAX_PARAMS_DEPTH = 64;

/** Keys whose values are caller data (free-form JSON): kept as sent. */
const OPAQUE = new Set(['metadata', 'data']);

/** ProtoJSON accepts the proto's snake_case names too: they become camelCase here (camelCase wins when both are sent). */
export function camelKeys(value: unknown, depth = 0): unknown {
  if (depth > 32 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => camelKeys(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const camel = key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
    if (camel !== key && Object.hasOwn(value, camel)) continue;
    out[camel] = OPAQUE.has(camel) ? item : camelKeys(item, depth + 1);
  }
  return out;
}

// Params of the task methods (A2A §9.4; proto messages). Unknown members are ignored (A2A §5.7).

class Issues {
  readonly list: FieldIssue[] = [];
  add(path: string, msg: string) {
    this.list.push({ path: path.split('.'), msg, type: 'value_error' });
  }
  done<T>(value: T): T {
    if (this.list.length)
      throw new AppError('VALIDATION_FAILED', this.list.map((i) => `${i.path.join('.')}: ${i.msg}`).join('; '), undefined, this.list);
    return value;
  }
}

const MAX_ID_CHARS = 200;
const isId = (value: unknown) => typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_CHARS;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function optionalCount(issues: Issues, params: Record<string, unknown>, name: string, range: [number, number], prefix = '') {
  const value = params[name];
  if (value === undefined || value === null) return;
  if (!Number.isSafeInteger(value) || (value as number) < range[0] || (value as number) > range[1])
    issues.add(`${prefix}${name}`, `must be an integer from ${range[0]} to ${range[1]}`);
}

function getTaskParams(params: Record<string, unknown>) {
  const issues = new Issues();
  if (!isId(params.id)) issues.add('id', `required: a task id (1 to ${MAX_ID_CHARS} characters)`);
  optionalCount(issues, params, 'historyLength', [0, MAX_HISTORY_LENGTH]);
  return issues.done(params);
}

function taskIdParams(name: string) {
  return (params: Record<string, unknown>) => {
    const issues = new Issues();
    if (!isId(params[name])) issues.add(name, `required: a task id (1 to ${MAX_ID_CHARS} characters)`);
    return issues.done(params);
  };
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

function listTasksParams(params: Record<string, unknown>) {
  const issues = new Issues();
  if (params.contextId !== undefined && !isId(params.contextId)) issues.add('contextId', 'must be a context id');
  if (params.status !== undefined && !TASK_STATES.includes(params.status as string))
    issues.add('status', `must be one of ${TASK_STATES.join(', ')}`);
  optionalCount(issues, params, 'pageSize', [1, 100]);
  optionalCount(issues, params, 'historyLength', [0, MAX_HISTORY_LENGTH]);
  if (params.pageToken !== undefined && typeof params.pageToken !== 'string') issues.add('pageToken', 'must be a string');
  const after = params.statusTimestampAfter;
  if (after !== undefined && (typeof after !== 'string' || !RFC3339.test(after) || Number.isNaN(Date.parse(after))))
    issues.add('statusTimestampAfter', 'must be an RFC 3339 timestamp');
  if (params.includeArtifacts !== undefined && typeof params.includeArtifacts !== 'boolean')
    issues.add('includeArtifacts', 'must be a boolean');
  return issues.done(params);
}

const ROLES = ['ROLE_USER', 'ROLE_AGENT'];
const CONTENT_MEMBERS = ['text', 'raw', 'url', 'data'];

function sendMessageParams(params: Record<string, unknown>) {
  const issues = new Issues();
  const message = params.message;
  if (!isObject(message)) {
    issues.add('message', 'required: an object');
    return issues.done(params);
  }
  if (!isId(message.messageId)) issues.add('message.messageId', 'required: a non-empty string');
  if (message.role !== 'ROLE_USER')
    issues.add('message.role', ROLES.includes(message.role as string) ? 'a caller sends ROLE_USER' : 'must be ROLE_USER');
  if (message.taskId !== undefined && !isId(message.taskId)) issues.add('message.taskId', 'must be a task id');
  if (message.contextId !== undefined && !isId(message.contextId)) issues.add('message.contextId', 'must be a context id');
  if (!Array.isArray(message.parts) || message.parts.length === 0) issues.add('message.parts', 'required: at least one part');
  else {
    message.parts.forEach((part: unknown, index) => {
      const at = `message.parts.${index}`;
      if (!isObject(part)) return issues.add(at, 'must be an object');
      const members = CONTENT_MEMBERS.filter((name) => part[name] !== undefined);
      if (members.length !== 1) return issues.add(at, 'must have exactly one of text, raw, url, data');
      if (members[0] === 'text' && typeof part.text !== 'string') issues.add(`${at}.text`, 'must be a string');
      if (members[0] === 'raw' && (typeof part.raw !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(part.raw) || part.raw.length % 4 !== 0))
        issues.add(`${at}.raw`, 'must be base64');
      if (members[0] === 'url') issues.add(`${at}.url`, 'URL parts are disabled on this server');
      if (part.mediaType !== undefined && typeof part.mediaType !== 'string') issues.add(`${at}.mediaType`, 'must be a string');
    });
  }
  if (params.configuration !== undefined) {
    const configuration = params.configuration;
    if (!isObject(configuration)) issues.add('configuration', 'must be an object');
    else {
      if (configuration.returnImmediately !== undefined && typeof configuration.returnImmediately !== 'boolean')
        issues.add('configuration.returnImmediately', 'must be a boolean');
      optionalCount(issues, configuration, 'historyLength', [0, MAX_HISTORY_LENGTH], 'configuration.');
      const push = configuration.taskPushNotificationConfig;
      if (push !== undefined && push !== null) {
        if (!isObject(push)) issues.add('configuration.taskPushNotificationConfig', 'must be an object');
        // Its taskId, if any, is not read: the config goes on the task this message starts or continues.
        else pushConfigMembers(issues, push, 'configuration.taskPushNotificationConfig.');
      }
    }
  }
  issues.done(params);
  const refused = unsupportedMediaType(message.parts as Record<string, unknown>[]);
  if (refused)
    throw a2aError(
      'CONTENT_TYPE_NOT_SUPPORTED',
      `media type ${refused} is not accepted; this agent accepts ${INPUT_MEDIA_TYPES.join(', ')}`,
    );
  return params;
}

// Push notification configs (A2A §9.4.7–9.4.10; `TaskPushNotificationConfig`, flat in 1.0).

const MAX_TOKEN_CHARS = 1024;
const MAX_CREDENTIALS_CHARS = 4096;
/** Printable ASCII only: a token or credential goes into a header, where CR/LF would smuggle another header. */
const HEADER_TEXT = /^[\x20-\x7e]*$/;
/** An HTTP auth scheme is a token (RFC 9110 §11.1). */
const AUTH_SCHEME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** A client-chosen config id: visible ASCII, no spaces (the server's own are `pnc_…`). */
const CONFIG_ID = /^[\x21-\x7e]{1,200}$/;

function optionalText(issues: Issues, value: unknown, at: string, maxChars: number) {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string') return issues.add(at, 'must be a string');
  if (value.length > maxChars) issues.add(at, `must be at most ${maxChars} characters`);
  else if (!HEADER_TEXT.test(value)) issues.add(at, 'must be printable ASCII (no line breaks or control characters)');
}

/** The members of a config the caller sends (its `url` is then checked by the outbound guard, which resolves the host). */
function pushConfigMembers(issues: Issues, config: Record<string, unknown>, prefix = '') {
  if (config.id !== undefined && config.id !== null && config.id !== '' && (typeof config.id !== 'string' || !CONFIG_ID.test(config.id)))
    issues.add(`${prefix}id`, 'must be 1 to 200 visible ASCII characters');
  if (typeof config.url !== 'string' || config.url === '') issues.add(`${prefix}url`, 'required: an absolute http or https URL');
  optionalText(issues, config.token, `${prefix}token`, MAX_TOKEN_CHARS);
  const auth = config.authentication;
  if (auth === undefined || auth === null) return;
  if (!isObject(auth)) return issues.add(`${prefix}authentication`, 'must be an object');
  if (typeof auth.scheme !== 'string' || !AUTH_SCHEME.test(auth.scheme))
    issues.add(`${prefix}authentication.scheme`, 'required: an HTTP authentication scheme (e.g. Bearer), 1 to 64 token characters');
  optionalText(issues, auth.credentials, `${prefix}authentication.credentials`, MAX_CREDENTIALS_CHARS);
}

function createPushConfigParams(params: Record<string, unknown>) {
  const issues = new Issues();
  if (!isId(params.taskId)) issues.add('taskId', `required: a task id (1 to ${MAX_ID_CHARS} characters)`);
  pushConfigMembers(issues, params);
  return issues.done(params);
}

function pushConfigRefParams(params: Record<string, unknown>) {
  const issues = new Issues();
  if (!isId(params.taskId)) issues.add('taskId', `required: a task id (1 to ${MAX_ID_CHARS} characters)`);
  if (!isId(params.id)) issues.add('id', `required: a push notification config id (1 to ${MAX_ID_CHARS} characters)`);
  return issues.done(params);
}

function listPushConfigsParams(params: Record<string, unknown>) {
  const issues = new Issues();
  if (!isId(params.taskId)) issues.add('taskId', `required: a task id (1 to ${MAX_ID_CHARS} characters)`);
  // 0 is the proto default (the official client sends it): all of them.
  optionalCount(issues, params, 'pageSize', [0, MAX_CONFIGS_PER_TASK]);
  if (params.pageToken !== undefined && typeof params.pageToken !== 'string') issues.add('pageToken', 'must be a string');
  return issues.done(params);
}
