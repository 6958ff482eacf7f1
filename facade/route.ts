import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { DocumentNode, Kind, OperationDefinitionNode } from 'graphql';
import type { Request, Response } from 'express';
import type { Ctx } from '../src/context';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route, checked before any work and published in the OpenAPI document.
 * `user` and `admin` need a bearer token; `release` the release token (contracts §7). The
 * domain layer still enforces roles itself.
 */
export type RouteAuth = 'none' | 'user' | 'admin' | 'release';

/** Where one GraphQL variable comes from in the HTTP request. */
export type VariableSource =
  | { from: 'path'; name: string }
  | { from: 'query'; name: string }
  /**
   * The whole JSON body (snake_case members become the input type's camelCase fields). Members
   * named in `rawArrays` arrive as the exact source text of each element (records are stored
   * byte for byte).
   */
  | { from: 'body'; rawArrays?: string[] };

export const path = (name: string): VariableSource => ({ from: 'path', name });
export const query = (name: string): VariableSource => ({ from: 'query', name });
export const body = (opts: { rawArrays?: string[] } = {}): VariableSource => ({ from: 'body', ...opts });

interface RouteBase {
  method: HttpMethod;
  /** OpenAPI-style template, e.g. `/api/labs/{lab_id}`. */
  path: string;
  auth: RouteAuth;
  /** One line for the OpenAPI document. */
  summary: string;
  tag: string;
  /** Largest JSON body for this route; default MAX_JSON_BODY_BYTES. */
  maxBodyBytes?: number;
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
  /** Wrap a list result as `{items, total}` (contracts §2). */
  list?: boolean;
  /** Leave out null members: for answers whose members depend on a state (e.g. a pending login). */
  omitNulls?: boolean;
  status?: number;
  /** A null result is a 204 with an empty body (e.g. no release published yet). */
  noContentWhenNull?: boolean;
  /**
   * `Cache-Control` of every answer, for answers a shared cache may meet (public reads). Such an
   * answer that holds URLs built for the caller's origin also varies by that origin.
   */
  cacheControl?: string;
}

/**
 * A route that writes bytes itself (streams, downloads, redirects). Its handler must do every
 * lookup and authorization through the domain layer, with the same context as an operation.
 */
/** Runs a typed operation in the request's context; errors are thrown as `AppError`s. */
export type Run = <TData, TVars>(operation: TypedDocumentNode<TData, TVars>, variables: TVars) => Promise<TData>;

export interface StreamRoute extends RouteBase {
  kind: 'stream';
  handle(req: Request, res: Response, ctx: Ctx, run: Run): Promise<void>;
  /** Response media type for the OpenAPI document. */
  produces: string;
  /** Request media type when the handler reads the body itself (uploads); no JSON parsing then. */
  consumes?: string;
  /** Success status for the OpenAPI document (default 200). */
  status?: number;
}

export type Route = OperationRoute<any, any> | StreamRoute;

/** Declares an operation route; the variable map and result field are checked against the generated types. */
export function operation<TData, TVars>(route: Omit<OperationRoute<TData, TVars>, 'kind'>): OperationRoute<TData, TVars> {
  return { kind: 'operation', ...route };
}

export function stream(route: Omit<StreamRoute, 'kind'>): StreamRoute {
  return { kind: 'stream', ...route };
}

/** The one operation of a route's document. @throws when the document has none */
export function operationOf(document: DocumentNode): OperationDefinitionNode {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operation) throw new Error('a facade document must hold one operation');
  return operation;
}
