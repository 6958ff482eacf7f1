import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { DocumentNode, Kind, OperationDefinitionNode } from 'graphql';
import type { Request, Response } from 'express';
import type { Ctx } from '../src/context';
import type { ErrorCode } from '../src/errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route, checked before any work and published in the OpenAPI document.
 * `user` and `admin` need a bearer token; `release` the release token (docs/api/releases.md). An
 * operation route's is its root field's declared access (src/operation-rules.ts), which codegen
 * copies; a byte-stream row says its own.
 */
export type RouteAuth = 'none' | 'user' | 'admin' | 'release';

/** A JSON Schema (OpenAPI 3.1 dialect) for the OpenAPI document. */
export type JsonSchema = Record<string, unknown>;

/** Marks a schema built by `schemaRef`: the document lists it once under `components/schemas`. */
export const SCHEMA_DEFINITION = Symbol('schema definition');

/**
 * A reference to a schema published once, under its name, in the document's components. The
 * definition travels with the reference, so route rows can say what they mean in place.
 */
export function schemaRef(name: string, schema: JsonSchema): JsonSchema {
  return { $ref: `#/components/schemas/${name}`, [SCHEMA_DEFINITION]: schema };
}

/** Where one GraphQL variable comes from in the HTTP request. */
export type VariableSource =
  | { from: 'path'; name: string }
  | { from: 'query'; name: string }
  /**
   * The whole JSON body (snake_case members become the input type's camelCase fields). Members
   * named in `rawArrays` arrive as the exact source text of each element (records are stored
   * byte for byte); the GraphQL field is a list of strings, the wire member a list of JSON
   * values of the schema given (what the OpenAPI document publishes).
   */
  | { from: 'body'; rawArrays?: Record<string, JsonSchema> };

export const path = (name: string): VariableSource => ({ from: 'path', name });
export const query = (name: string): VariableSource => ({ from: 'query', name });
export const body = (opts: { rawArrays?: Record<string, JsonSchema> } = {}): VariableSource => ({ from: 'body', ...opts });

/** The groups of the OpenAPI document, with what each holds. */
export const TAGS = {
  auth: 'Device login, tokens and the caller',
  labs: 'Labs, their members, board and reviews',
  trajectories: 'Agent sessions: records, annotations, summaries, figures',
  releases: 'Desktop releases and the model catalog (public reads, publishing with the release token)',
  compute: 'Sandbox compute: plans, leases, credits',
  agents: 'Outbound A2A agents: each user’s registry of external agents, and their tests',
  admin: 'Users, labs and storage for administrators',
} as const;
export type RouteTag = keyof typeof TAGS;

interface RouteBase {
  method: HttpMethod;
  /** OpenAPI-style template, e.g. `/api/labs/{lab_id}`. */
  path: string;
  auth: RouteAuth;
  /** One line for the OpenAPI document. */
  summary: string;
  tag: RouteTag;
  /** Largest JSON body for this route; default MAX_JSON_BODY_BYTES. */
  maxBodyBytes?: number;
  /**
   * For a write whose body is stored and charged to the caller's storage: the most bytes its
   * body could have and still be stored, asked once the caller is known and before any of the
   * body is read (`declared`: its Content-Length, when it has one). A body over it is refused
   * (PAYLOAD_TOO_LARGE, "storage quota exceeded") unread, or as soon as it passes it streaming in.
   */
  bodyLimit?(req: Request, ctx: Ctx, declared: number | undefined, ops: Operations): Promise<number>;
  /**
   * Error answers the OpenAPI document cannot derive from the row itself (its auth, parameters,
   * body and method give the rest), each with its body schema, or null for the plain `{detail}`.
   */
  errors?: Partial<Record<ErrorCode, JsonSchema | null>>;
}

/**
 * A route answered by running one GraphQL operation in-process. The operation's aliases give
 * the wire shape (snake_case), so the response body is the selected root field as it is.
 */
export interface OperationRoute<TData = Record<string, unknown>, TVars = Record<string, unknown>> extends RouteBase {
  kind: 'operation';
  operation: TypedDocumentNode<TData, TVars>;
  variables: { [K in keyof TVars]-?: VariableSource };
  /** The root field whose value is the body. */
  result: keyof TData & string;
  /** Wrap a list result as `{items, total}` (docs/api/wire.md, list shapes). */
  list?: boolean;
  /** Leave out null members: for answers whose members depend on a state (e.g. a pending login). */
  omitNulls?: boolean;
  /**
   * These members are left out (absent, not null) when null, in the body or in each item of a
   * list: for members hidden from some callers (a lab's invitation code from its members).
   */
  omitWhenNull?: readonly string[];
  status?: number;
  /** A null result is a 204 with an empty body (e.g. no release published yet). */
  noContentWhenNull?: boolean;
  /**
   * `Cache-Control` of every answer, for answers a shared cache may meet (public reads). Such an
   * answer that holds URLs built for the caller's origin also varies by that origin.
   */
  cacheControl?: string;
}

/** Runs a typed operation in the request's context; errors are thrown as `AppError`s. */
export type Run = <TData, TVars>(operation: TypedDocumentNode<TData, TVars>, variables: TVars) => Promise<TData>;

/**
 * Runs a typed subscription in the request's context: its refusal is thrown before anything is
 * read, then each event's data in turn (an event's error is thrown). Leaving the loop early ends
 * the subscription, and with it whatever its source holds (a database cursor).
 */
export type Subscribe = <TData, TVars>(operation: TypedDocumentNode<TData, TVars>, variables: TVars) => Promise<AsyncGenerator<TData>>;

/** How a route reaches the domain: through operations of the schema, as every GraphQL client does. */
export interface Operations {
  run: Run;
  subscribe: Subscribe;
}

/**
 * A route that writes bytes itself (streams, downloads, uploads, redirects). Who may have (or
 * send) the bytes is decided by one declared step, `authorize`: a GraphQL operation, run before
 * any body is read, whose answer says what the bytes are (a blob key, size and validators; for an
 * upload, where it may go and how large it may be). That answer is handed to `handle`, which
 * streams the bytes from or to the blob store, and finishes through operations too (an upload's
 * mutation, a download's count).
 */
export interface StreamRoute<T = unknown> extends RouteBase {
  kind: 'stream';
  authorize(req: Request, ctx: Ctx, ops: Operations): Promise<T>;
  handle(req: Request, res: Response, ctx: Ctx, authorized: T, ops: Operations): Promise<void>;
  /** Response media type for the OpenAPI document. */
  produces: string;
  /** Request media type when the handler reads the body itself (uploads); no JSON parsing then. */
  consumes?: string;
  /** Success status for the OpenAPI document (default 200). */
  status?: number;
  /** The success body's schema for the OpenAPI document (none: a body without a schema, or none at all for a redirect). */
  response?: StreamResponse;
  /** Other media types the success status may have, with their schemas (e.g. a download form). */
  alsoProduces?: Record<string, JsonSchema>;
  /** Other successful statuses (e.g. 206, 304), by their description. */
  alsoAnswers?: Record<number, string>;
  /** The body's schema when `consumes` is set. */
  requestBody?: JsonSchema;
  /** Query parameters the handler reads. */
  query?: QueryParam[];
}

/**
 * A stream route's body: a schema, or an operation's result (its GraphQL types, as an operation
 * route would publish it) with members the handler adds.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any operation's document: only its result's shape is read
export type StreamResponse = JsonSchema | { like: TypedDocumentNode<any, any>; result: string; members: Record<string, JsonSchema> };

export interface QueryParam {
  name: string;
  description: string;
  required?: boolean;
  schema: JsonSchema;
}

/**
 * A route answered by running one GraphQL subscription in-process and writing its events as
 * server-sent events (`text/event-stream`). Variables come from the request as for an operation
 * route, and every refusal before the first event is the usual JSON error; after it, a failure
 * is one `error` event `{detail}` and the end of the stream. A caller who disconnects ends the
 * subscription (its source's `return()`).
 */
export interface EventStreamRoute<TData = Record<string, unknown>, TVars = Record<string, unknown>> extends RouteBase {
  kind: 'events';
  /** A subscription document. */
  operation: TypedDocumentNode<TData, TVars>;
  variables: { [K in keyof TVars]-?: VariableSource };
  /** The root field whose value each event carries. */
  result: keyof TData & string;
  /** The SSE event one value of the result field becomes. */
  event(value: TData[keyof TData & string]): { name: string; data: object };
  /** For the OpenAPI document: each event's name and the schema of its data. */
  events: Record<string, JsonSchema>;
}

/**
 * One row of the table. Each row's variables and result were checked against its operation's
 * generated types where it was declared (`operation()`, `eventStream()`); the table holds rows of
 * different operations, so their types are erased here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows of different operations (see above)
export type Route = OperationRoute<any, any> | StreamRoute<any> | EventStreamRoute<any, any>;

/** Declares an operation route; the variable map and result field are checked against the generated types. */
export function operation<TData, TVars>(route: Omit<OperationRoute<TData, TVars>, 'kind'>): OperationRoute<TData, TVars> {
  return { kind: 'operation', ...route };
}

/** Declares an event-stream route; the variable map and result field are checked against the generated types. */
export function eventStream<TData, TVars>(route: Omit<EventStreamRoute<TData, TVars>, 'kind'>): EventStreamRoute<TData, TVars> {
  return { kind: 'events', ...route };
}

/** Declares a byte-stream route; what `authorize` answers is what `handle` is given. */
export function stream<T>(route: Omit<StreamRoute<T>, 'kind'>): StreamRoute<T> {
  return { kind: 'stream', ...route };
}

/** The one operation of a route's document. @throws when the document has none */
export function operationOf(document: DocumentNode): OperationDefinitionNode {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error('a facade document must hold one operation');
  return operation;
}
