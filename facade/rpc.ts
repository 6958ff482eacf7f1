import { DocumentNode, GraphQLInputType, GraphQLSchema, Kind, OperationTypeNode, typeFromAST } from 'graphql';
import { A2A_ERRORS, A2aError, A2aReason, AppError, ERROR_CODES, FieldIssue, invalid } from '../src/errors';
import { snake, type WireIssue } from '../src/http/answers';
import { protoJson } from '../src/modules/a2a/a2a-proto-json';
import { SETTLED_STATES, TERMINAL_STATES } from '../src/modules/a2a/a2a-states';
import { valueDeeperThan } from '../src/validation';
import { JSONRPC_OPERATIONS } from './generated/tables';
import { readInput } from './inputs';
import { operationOf } from './route';

/**
 * The A2A 1.0 JSON-RPC binding as data: the envelope rules, one row per method, and the one
 * mapping of `AppError` to a JSON-RPC error. `facade/a2a.ts` serves it at `POST /a2a/v1`.
 *
 * Decisions (docs/api/a2a.md, "JSON-RPC"): a batch (a JSON array) is refused as one -32600 (A2A defines no
 * batches); a request must carry an `id` (a string, or an integer of at most 2^53 - 1 so that it
 * comes back as sent: every A2A method answers, so a notification has no meaning);
 * `A2A-Version` 1.0 or 1.0.x is served, no header is served as 1.0 by the method's name
 * (decided so that curl users need no header), any other version is -32009 before anything runs.
 */

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;

export type RpcId = string | number | null;

export interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>[];
}

const errorInfo = (reason: A2aReason) => [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }];

const badRequest = (issues: FieldIssue[]) => [
  {
    '@type': 'type.googleapis.com/google.rpc.BadRequest',
    fieldViolations: issues.map((issue) => ({ field: issue.path.join('.'), description: issue.msg })),
  },
];

const REASON_OF_CODE = new Map(Object.entries(A2A_ERRORS).map(([reason, { jsonRpc }]) => [jsonRpc as number, reason as A2aReason]));

/**
 * An `AppError` as a JSON-RPC error: the code from the error table (`ERROR_CODES`), or the A2A
 * reason's code for an `A2aError`, with A2A's ErrorInfo for an A2A code and the field
 * violations of a validation failure. Never a stack or an internal message.
 */
export function rpcErrorOf(error: AppError): RpcError {
  const code = error instanceof A2aError ? A2A_ERRORS[error.reason].jsonRpc : ERROR_CODES[error.code].jsonRpc;
  if (error.code === 'INTERNAL') return { code, message: 'internal error' };
  const reason = REASON_OF_CODE.get(code);
  if (reason) return { code, message: error.message, data: errorInfo(reason) };
  return { code, message: error.message, ...(error.issues ? { data: badRequest(error.issues) } : {}) };
}

export const rpcFailure = (id: RpcId, error: RpcError) => ({ jsonrpc: '2.0' as const, id, error });
export const rpcSuccess = (id: RpcId, result: unknown) => ({ jsonrpc: '2.0' as const, id, result });

/** A request the envelope accepted: its id, method row and params (as sent). */
export interface RpcCall {
  id: string | number;
  method: RpcMethod;
  params: Record<string, unknown>;
}

/** A method's row: the operation that serves it, or the A2A error answered for a capability not declared. */
export interface RpcMethod {
  name: string;
  /** The operation that serves the method (its @jsonrpc in facade/operations/a2a.graphql). */
  document?: DocumentNode;
  refuse?: { reason: A2aReason; message: string };
}

/**
 * Every A2A 1.0 method (A2A §9.4): the operations whose @jsonrpc names them (codegen writes the
 * list from facade/operations/a2a.graphql), run in-process with the A2A principal in the context
 * so that the resolvers' checks and policies run as for any GraphQL caller; and the capability
 * this agent does not declare.
 */
export const RPC_METHODS: RpcMethod[] = [
  ...JSONRPC_OPERATIONS,
  { name: 'GetExtendedAgentCard', refuse: { reason: 'UNSUPPORTED_OPERATION', message: 'this agent declares no extended agent card' } },
];

/** How a method's params become its operation's variables, and where its answer is. */
export interface MethodPlan {
  document: DocumentNode;
  variables: { name: string; type: GraphQLInputType }[];
  /** The params are the operation's one variable `$input` as a whole (else each variable is the member of its name). */
  paramsAreInput: boolean;
  /** The root field whose value is the result, or each event of a stream. */
  field: string;
  streams: boolean;
}

/** A method's plan, read from its operation once when the endpoint is made. */
export function planMethod(schema: GraphQLSchema, document: DocumentNode): MethodPlan {
  const op = operationOf(document);
  const variables = (op.variableDefinitions ?? []).map((def) => ({
    name: def.variable.name.value,
    type: typeFromAST(schema, def.type as never) as GraphQLInputType,
  }));
  const [root] = op.selectionSet.selections;
  if (root?.kind !== Kind.FIELD) throw new Error(`operation ${op.name?.value}: its first selection must be a field`);
  return {
    document,
    variables,
    paramsAreInput: variables.length === 1 && variables[0].name === 'input',
    field: root.alias?.value ?? root.name.value,
    streams: op.operation === OperationTypeNode.SUBSCRIPTION,
  };
}

/**
 * The params as the operation's variables, checked against their GraphQL types (ProtoJSON
 * names: camelCase or snake_case; unknown members ignored, A2A §5.7). The rules GraphQL types
 * cannot say are the services'.
 * @throws VALIDATION_FAILED (-32602) with every issue at its path in params
 */
export function variablesOf(plan: MethodPlan, params: Record<string, unknown>): Record<string, unknown> {
  const issues: WireIssue[] = [];
  const variables: Record<string, unknown> = {};
  if (plan.paramsAreInput) variables.input = readInput(params, plan.variables[0].type, [], issues, 'protojson');
  else
    for (const { name, type } of plan.variables) {
      const value = readInput(Object.hasOwn(params, name) ? params[name] : params[snake(name)], type, [name], issues, 'protojson');
      if (value !== undefined) variables[name] = value;
    }
  if (issues.length) throw invalid(issues.map(({ loc, msg, type }) => ({ path: loc, msg, type })));
  return variables;
}

/** A result or stream event of a method, as the wire carries it: its root field's value as ProtoJSON. */
export const resultOf = (plan: MethodPlan, data: unknown) => protoJson((data as Record<string, unknown>)[plan.field]);

/**
 * Whether a stream ends after this event (ProtoJSON): at a terminal state, and when the task
 * stops for the caller (INPUT_REQUIRED, AUTH_REQUIRED; the caller answers with SendMessage and
 * may SubscribeToTask again). The first event (the task) ends it only when terminal: a stream
 * opened on a waiting task waits for its next change.
 */
export function endsStream(event: unknown): boolean {
  const { task, statusUpdate } = event as { task?: { status: { state: string } }; statusUpdate?: { status: { state: string } } };
  if (task) return TERMINAL_STATES.includes(task.status.state);
  return statusUpdate !== undefined && SETTLED_STATES.includes(statusUpdate.status.state);
}

const METHODS = new Map(RPC_METHODS.map((method) => [method.name, method]));

const VERSION = /^1\.0(\.\d+)?$/;

/** The error of an `A2A-Version` this server does not speak (undefined: absent, empty, 1.0 or 1.0.x). */
function versionError(version: string | undefined): RpcError | undefined {
  const given = version?.trim();
  if (!given || VERSION.test(given)) return undefined;
  return rpcErrorOf(new A2aError('VERSION_NOT_SUPPORTED', `A2A-Version ${given.slice(0, 20)} is not supported; this server speaks 1.0`));
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
        new A2aError(
          'VERSION_NOT_SUPPORTED',
          `${request.method} is an A2A 0.3 method; this server speaks A2A 1.0 only (send A2A-Version: 1.0 and call SendMessage, GetTask, …)`,
        ),
      ),
    };
  }
  if (!method) return { id, error: { code: METHOD_NOT_FOUND, message: `method not found: ${request.method.slice(0, 100)}` } };
  const members = params as Record<string, unknown>;
  const tooDeep = Object.keys(members).filter((name) => valueDeeperThan(members[name], MAX_PARAMS_DEPTH));
  if (tooDeep.length)
    return {
      id,
      error: rpcErrorOf(
        invalid(
          tooDeep.map((name) => ({ path: [name], msg: `must not be nested deeper than ${MAX_PARAMS_DEPTH} levels`, type: 'too_deep' })),
        ),
      ),
    };
  return { id, method, params: members };
}

/**
 * Levels of arrays and objects a member of params may nest (the message counts its own: a data
 * part's value starts at the fourth, message.parts[i].data). Far beyond any real message, far
 * below the few thousand at which storing it (JSON.stringify) would overflow the stack.
 */
const MAX_PARAMS_DEPTH = 64;
