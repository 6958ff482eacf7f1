import {
  DocumentNode,
  ExecutionResult,
  GraphQLError,
  GraphQLSchema,
  getOperationAST,
  parse,
  specifiedRules,
  subscribe,
  validate,
  type ExecutionArgs,
} from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { tracingOn } from './telemetry';
import type { Ctx } from './context';
import { AppError, ERROR_CODES, toAppError } from './errors';
import { operationLimits, PARSE_OPTIONS, screenOperation, type Asker } from './graphql-limits';
import { isAdmin } from './modules/admin/admin.policy';

/**
 * The one path every transport runs an operation on (docs/api/graphql.md, "One pipeline"):
 * context → screen → validate → execute or subscribe; each transport then formats the result in
 * its own wire shape. The WebSocket, the REST facade, its event streams and A2A JSON-RPC run it
 * whole; `/graphql` runs its screen in front of Apollo, which parses and validates with the same
 * options and rules (and its own document cache) and executes. The rules an operation declares
 * (src/operation-rules.ts) are part of its fields, so they hold on every path.
 */

/** Validation: graphql-js's rules and our size limits. Apollo is given `operationLimits` (it adds the specified rules itself). */
export const VALIDATION_RULES = [...specifiedRules, operationLimits];

const tracer = trace.getTracer('labdesk');

/** Documents kept parsed by their text: the WebSocket's clients send the same few over and over. */
const PARSED_DOCUMENTS = 500;

export interface OperationRequest {
  document: DocumentNode;
  operationName?: string | null;
  variables?: Record<string, unknown> | null;
}

export interface Pipeline {
  schema: GraphQLSchema;
  /** Parses a document's text under the token limit (cached). @throws GraphQLError when it does not parse */
  parse(text: string): DocumentNode;
  /** Refuses what the caller may not ask before anything else looks at it (admin fields, anonymous introspection, cost). @throws AppError */
  screen(request: OperationRequest, ctx: Ctx): Promise<void>;
  /** The document's validation errors, none when it is valid (cached per document). */
  validate(document: DocumentNode): readonly GraphQLError[];
  /** Screens, validates and executes a document of our own (the facade's, A2A's). @throws AppError, the first error */
  run<TData, TVars>(document: TypedDocumentNode<TData, TVars>, variables: TVars, ctx: Ctx): Promise<TData>;
  /**
   * A subscription of our own as its events' data: a refusal (screen, or its `subscribe` step) is
   * thrown at once, before any event; then an event's error is thrown. Leaving early returns the
   * subscription, which ends its source. @throws AppError
   */
  events<TData, TVars>(document: TypedDocumentNode<TData, TVars>, variables: TVars, ctx: Ctx): Promise<AsyncGenerator<TData>>;
  /** Screens, validates and starts a subscription of our own. @throws AppError */
  subscribe(request: OperationRequest, ctx: Ctx): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult>;
  /** The execution arguments of a screened and validated request, for graphql-ws. */
  argsOf(request: OperationRequest, ctx: Ctx): ExecutionArgs;
}

/** A result's first error: an `AppError` from the domain as thrown; one GraphQL raised itself means the document and schema disagree. */
const firstError = (errors: readonly GraphQLError[]) => errors[0].originalError ?? new Error(errors[0].message);

/** What screening needs to know of a caller (a bad credential counts as anonymous: the resolvers answer 401). */
export async function askerOf(ctx: Ctx): Promise<Asker> {
  const viewer = await ctx.viewer().catch(() => null);
  return { signedIn: viewer !== null, isAdmin: viewer !== null && isAdmin(viewer) };
}

/** A refusal as the GraphQL error the GraphQL transports send. */
export function graphQLErrorOf(error: AppError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { code: error.code, status: ERROR_CODES[error.code].http } });
}

export function makePipeline(schema: GraphQLSchema): Pipeline {
  const parsed = new Map<string, DocumentNode>();
  const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  const compiled = new WeakMap<DocumentNode, { query: CompiledQuery; span: string; attributes: Attributes }>();

  /**
   * Our own documents (the facade's, A2A's) run compiled: graphql-jit turns a document into one
   * function that calls the same resolvers, once per document. Clients' documents (/graphql, the
   * WebSocket) run on graphql-js: compiling costs more than a document seen once saves.
   */
  const compiledOf = (document: DocumentNode) => {
    let known = compiled.get(document);
    if (!known) {
      const result = compileQuery(schema, document);
      if (!isCompiledQuery(result)) throw firstError(result.errors ?? []);
      const operation = getOperationAST(document);
      const [type, name] = [operation?.operation ?? 'query', operation?.name?.value ?? ''];
      // Named and described as graphql-js's instrumentation names the operations it executes.
      const attributes = { 'graphql.operation.type': type, 'graphql.operation.name': name };
      compiled.set(document, (known = { query: result, span: `${type} ${name}`, attributes }));
    }
    return known;
  };

  /** Runs a compiled document; with traces on, in a span of the operation (its statements and calls beneath it). */
  const executeCompiled = async (document: DocumentNode, variables: Record<string, unknown>, ctx: Ctx) => {
    const { query, span, attributes } = compiledOf(document);
    if (!tracingOn()) return query.query(undefined, ctx, variables);
    return tracer.startActiveSpan(span, { attributes }, async (active) => {
      try {
        const result = await query.query(undefined, ctx, variables);
        if (result.errors?.length) active.setStatus({ code: SpanStatusCode.ERROR, message: result.errors[0].message });
        return result;
      } finally {
        active.end();
      }
    });
  };

  const pipeline: Pipeline = {
    schema,
    parse(text) {
      const known = parsed.get(text);
      if (known) return known;
      const document = parse(text, PARSE_OPTIONS);
      // Oldest out first (a Map keeps insertion order); a document's text is at most the WebSocket's message limit.
      if (parsed.size >= PARSED_DOCUMENTS) parsed.delete(parsed.keys().next().value!);
      parsed.set(text, document);
      return document;
    },
    screen: ({ document, operationName, variables }, ctx) =>
      screenOperation(schema, document, operationName, variables, () => askerOf(ctx)),
    validate(document) {
      let errors = validated.get(document);
      if (!errors) {
        errors = validate(schema, document, VALIDATION_RULES);
        validated.set(document, errors);
      }
      return errors;
    },
    argsOf: ({ document, operationName, variables }, ctx) => ({
      schema,
      document,
      operationName,
      variableValues: variables,
      contextValue: ctx,
    }),
    async run<TData, TVars>(document: TypedDocumentNode<TData, TVars>, variables: TVars, ctx: Ctx) {
      const request = { document, variables: variables as Record<string, unknown> };
      await prepare(request, ctx);
      const result = await executeCompiled(document, request.variables, ctx);
      if (result.errors?.length) throw firstError(result.errors);
      return result.data as TData;
    },
    async events<TData, TVars>(document: TypedDocumentNode<TData, TVars>, variables: TVars, ctx: Ctx) {
      const result = await pipeline.subscribe({ document, variables: variables as Record<string, unknown> }, ctx);
      if (!(Symbol.asyncIterator in result)) throw firstError(result.errors ?? []);
      return (async function* () {
        try {
          for await (const event of result) {
            if (event.errors?.length) throw firstError(event.errors);
            yield event.data as TData;
          }
        } finally {
          await result.return(undefined);
        }
      })();
    },
    async subscribe(request, ctx) {
      await prepare(request, ctx);
      return subscribe(pipeline.argsOf(request, ctx));
    },
  };

  async function prepare(request: OperationRequest, ctx: Ctx) {
    await pipeline.screen(request, ctx);
    const [error] = pipeline.validate(request.document);
    if (error) throw new Error(`an operation of ours does not validate: ${error.message}`);
  }

  return pipeline;
}

/** Screens a request for a GraphQL transport: the refusal, as the GraphQL error it sends, or nothing. */
export async function screenRefusal(pipeline: Pipeline, request: OperationRequest, ctx: Ctx): Promise<GraphQLError | undefined> {
  try {
    await pipeline.screen(request, ctx);
    return undefined;
  } catch (error) {
    return error instanceof GraphQLError ? error : graphQLErrorOf(toAppError(error));
  }
}
