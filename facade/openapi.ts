import {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  getNullableType,
  GraphQLInputType,
  GraphQLOutputType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  SelectionSetNode,
  OperationTypeNode,
} from 'graphql';
import { ERROR_CODES, ErrorCode } from '../src/errors';
import { snake } from '../src/http/answers';
import { planVariables } from './inputs';
import { JsonSchema, operationOf, Route, SCHEMA_DEFINITION, StreamResponse, TAGS } from './route';

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTimeISO: { type: 'string', format: 'date-time' },
  JSONObject: { type: 'object' },
};

const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

/** What each error answer means, in the document's words. */
const ERROR_DESCRIPTIONS: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST: 'Malformed request: the body is not JSON (or not a readable form), or the path is not valid percent-encoding',
  UNAUTHENTICATED: 'Missing or invalid credentials',
  PAYMENT_REQUIRED: 'Not enough credits',
  FORBIDDEN: 'The caller may not do this',
  NOT_FOUND: 'No such resource, or not visible to the caller',
  CONFLICT: 'Conflicts with the current state (or a concurrent update: retry)',
  PAYLOAD_TOO_LARGE: 'Request body too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported body media type, encoding or charset',
  RANGE_NOT_SATISFIABLE: 'No requested byte range is inside the content',
  VALIDATION_FAILED: 'Invalid input: every problem, at its wire location',
  UNAVAILABLE: 'Unavailable: no language model is configured, or the model call failed (the detail names provider and model)',
};

/** `NOT_FOUND` → `NotFound`: the name of an error's response under `components/responses`. */
const responseName = (code: ErrorCode) => code.toLowerCase().replace(/(?:^|_)(.)/g, (_m, c: string) => c.toUpperCase());

const isOperationShape = (response: StreamResponse): response is Extract<StreamResponse, { like: unknown }> => 'like' in response;

/**
 * Replaces every `schemaRef` in `value` by its plain reference, listing its definition once under
 * `schemas`. @throws when two different definitions share a name
 */
function hoistSchemas(value: unknown, schemas: Record<string, JsonSchema>): unknown {
  if (Array.isArray(value)) return value.map((item) => hoistSchemas(item, schemas));
  if (typeof value !== 'object' || value === null) return value;
  const definition = (value as { [SCHEMA_DEFINITION]?: JsonSchema })[SCHEMA_DEFINITION];
  const out = Object.fromEntries(Object.entries(value).map(([key, member]) => [key, hoistSchemas(member, schemas)]));
  if (definition) {
    const name = String(out.$ref).split('/').pop()!;
    const hoisted = hoistSchemas(definition, schemas) as JsonSchema;
    if (schemas[name] && JSON.stringify(schemas[name]) !== JSON.stringify(hoisted)) throw new Error(`two different schemas named ${name}`);
    schemas[name] = hoisted;
  }
  return out;
}

/**
 * The OpenAPI 3.1 document, generated from the same route table and GraphQL types that serve
 * the requests, so it cannot drift from what the service does.
 */
export function buildOpenApi(schema: GraphQLSchema, routes: Route[]) {
  const components: Record<string, JsonSchema> = {
    Error: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
    ValidationError: {
      type: 'object',
      required: ['detail'],
      properties: {
        detail: {
          type: 'array',
          items: {
            type: 'object',
            required: ['loc', 'msg', 'type'],
            properties: {
              loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
              msg: { type: 'string' },
              type: { type: 'string' },
            },
          },
        },
      },
    },
  };
  const errorResponses: Record<string, unknown> = {};
  /** The response of an error code with the plain body (or the 422 body), listed once under `components/responses`. */
  const errorResponse = (code: ErrorCode) => {
    const name = responseName(code);
    errorResponses[name] ??= {
      description: ERROR_DESCRIPTIONS[code] ?? name,
      content: {
        'application/json': { schema: { $ref: `#/components/schemas/${code === 'VALIDATION_FAILED' ? 'ValidationError' : 'Error'}` } },
      },
    };
    return { $ref: `#/components/responses/${name}` };
  };

  /** The raw-array members each input object type was published with: one way per type. */
  const rawArrayMembers = new Map<string, string>();
  /** A nullable input is `anyOf [T, null]`; a non-null one is `T` itself. */
  const inputSchema = (type: GraphQLInputType): JsonSchema => (isNonNullType(type) ? inputOf(type.ofType) : orNull(inputOf(type)));
  /** `rawArrays`: list members of the body's input type whose elements arrive as JSON values of these schemas (not as strings). */
  const inputOf = (type: GraphQLInputType, rawArrays: Record<string, JsonSchema> = {}): JsonSchema => {
    const t: GraphQLInputType = getNullableType(type);
    if (isListType(t)) return { type: 'array', items: inputSchema(t.ofType) };
    if (isScalarType(t)) return SCALARS[t.name] ?? {};
    if (isEnumType(t)) return { type: 'string', enum: t.getValues().map((v) => v.value as string) };
    if (isInputObjectType(t)) {
      const raw = new Set(Object.keys(rawArrays));
      if (!components[t.name]) {
        components[t.name] = {}; // placeholder against recursion
        const fields = Object.values(t.getFields());
        const fieldSchema = (f: (typeof fields)[number]): JsonSchema => {
          if (!raw.has(snake(f.name))) return { ...inputSchema(f.type), description: f.description ?? undefined };
          const list: JsonSchema = {
            type: 'array',
            items: rawArrays[snake(f.name)],
            description: 'Each element is stored exactly as sent, byte for byte.',
          };
          return isNonNullType(f.type) ? list : orNull(list);
        };
        components[t.name] = {
          type: 'object',
          description: t.description ?? undefined,
          additionalProperties: false,
          properties: Object.fromEntries(fields.map((f) => [snake(f.name), fieldSchema(f)])),
          required: fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => snake(f.name)),
        };
        rawArrayMembers.set(t.name, [...raw].sort().join());
      } else if ((rawArrayMembers.get(t.name) ?? '') !== [...raw].sort().join()) {
        throw new Error(`input ${t.name} is read with different raw arrays by two routes`);
      }
      return { $ref: `#/components/schemas/${t.name}` };
    }
    return {};
  };
  let fragments = new Map<string, SelectionSetNode>();
  /** Fields of a selection set with fragment spreads expanded. */
  const fieldsOf = (selection: SelectionSetNode): FieldNode[] =>
    selection.selections.flatMap((node) => {
      if (node.kind === Kind.FIELD) return [node];
      if (node.kind === Kind.FRAGMENT_SPREAD) return fieldsOf(fragments.get(node.name.value)!);
      return fieldsOf(node.selectionSet);
    });

  const outputSchema = (type: GraphQLOutputType, selection?: SelectionSetNode): JsonSchema => {
    if (isNonNullType(type)) return outputOf(type.ofType, selection);
    return orNull(outputOf(type, selection));
  };
  const outputOf = (type: GraphQLOutputType, selection?: SelectionSetNode): JsonSchema => {
    if (isListType(type)) return { type: 'array', items: outputSchema(type.ofType, selection) };
    if (isScalarType(type)) return SCALARS[type.name] ?? {};
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.value as string) };
    if (isObjectType(type) && selection) {
      const fields = type.getFields();
      const properties: Record<string, JsonSchema> = {};
      for (const node of fieldsOf(selection)) {
        const field = fields[node.name.value];
        properties[node.alias?.value ?? node.name.value] = {
          ...outputSchema(field.type, node.selectionSet),
          description: field.description ?? undefined,
        };
      }
      return { type: 'object', properties, required: Object.keys(properties) };
    }
    return {};
  };
  /** The JSON body of an operation's root field `result`, as the facade writes it. */
  const resultSchema = (document: DocumentNode, result: string): JsonSchema => {
    const op = operationOf(document);
    fragments = new Map(
      document.definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d.selectionSet]),
    );
    const rootType = op.operation === OperationTypeNode.MUTATION ? schema.getMutationType()! : schema.getQueryType()!;
    const rootSelection = op.selectionSet.selections.find((s) => s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === result);
    if (rootSelection?.kind !== Kind.FIELD) throw new Error(`operation ${op.name?.value} has no field ${result}`);
    return outputSchema(rootType.getFields()[rootSelection.name.value].type, rootSelection.selectionSet);
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {
      default: { description: 'Any other error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    };
    const entry: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      security: route.auth === 'none' ? [] : [{ bearer: [] }],
    };
    const parameters: JsonSchema[] = [];
    let hasBody = false;
    if (route.kind !== 'stream') {
      const op = operationOf(route.operation);
      entry.operationId = op.name?.value;
      for (const plan of planVariables(schema, op, route.variables)) {
        if (plan.source.from === 'body') {
          hasBody = true;
          entry.requestBody = {
            required: isNonNullType(plan.type),
            content: { 'application/json': { schema: inputOf(plan.type, plan.source.rawArrays) } },
          };
        } else {
          parameters.push({
            name: plan.source.name,
            in: plan.source.from,
            required: plan.source.from === 'path' || isNonNullType(plan.type),
            schema: inputOf(plan.type),
          });
        }
      }
    }
    if (route.kind === 'events') {
      responses['200'] = {
        description: 'OK: server-sent events',
        content: { 'text/event-stream': { schema: eventStreamSchema(route.events) } },
      };
    } else if (route.kind === 'operation') {
      let body = resultSchema(route.operation, route.result);
      if (route.omitNulls && body.properties) {
        // Null members are left out of the answer: only the never-null ones are always there.
        const properties = body.properties as Record<string, JsonSchema>;
        body = { ...body, required: Object.keys(properties).filter((name) => !properties[name].anyOf) };
      }
      if (route.omitWhenNull) body = optionalMembers(body, route.omitWhenNull);
      if (route.list) body = { type: 'object', properties: { items: body, total: { type: 'integer' } }, required: ['items', 'total'] };
      if (route.noContentWhenNull) responses['204'] = { description: 'Nothing to return yet' };
      responses[String(route.status ?? 200)] =
        route.status === 204 ? { description: 'No content' } : { description: 'OK', content: { 'application/json': { schema: body } } };
    } else {
      entry.operationId = `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
      for (const [, name] of route.path.matchAll(/\{([^}]+)\}/g))
        parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
      for (const param of route.query ?? [])
        parameters.push({
          name: param.name,
          in: 'query',
          required: param.required ?? false,
          description: param.description,
          schema: param.schema,
        });
      let body: JsonSchema | undefined;
      if (route.response && isOperationShape(route.response)) {
        const { like, result, members } = route.response;
        const base = resultSchema(like, result);
        body = {
          ...base,
          properties: { ...(base.properties as object), ...members },
          required: [...(base.required as string[]), ...Object.keys(members)],
        };
      } else {
        body = route.response;
      }
      const status = route.status ?? 200;
      const content = {
        [route.produces]: body ? { schema: body } : {},
        ...Object.fromEntries(Object.entries(route.alsoProduces ?? {}).map(([type, schema]) => [type, { schema }])),
      };
      responses[String(status)] =
        status >= 300 && status < 400
          ? {
              description: 'Redirect to the content',
              headers: { Location: { description: 'Where the content is', schema: { type: 'string', format: 'uri' } } },
            }
          : { description: 'OK', content };
      for (const [other, description] of Object.entries(route.alsoAnswers ?? {})) responses[other] = { description };
      if (route.consumes) {
        hasBody = true;
        entry.requestBody = { required: true, content: { [route.consumes]: route.requestBody ? { schema: route.requestBody } : {} } };
      }
    }

    // Error answers, from what the row says: who may call it, what it reads, whether it writes.
    const inPath = parameters.some((p) => p.in === 'path');
    const codes = new Set<ErrorCode>();
    if (hasBody || inPath) codes.add('BAD_REQUEST');
    if (route.auth !== 'none') codes.add('UNAUTHENTICATED');
    if (route.auth === 'admin' || route.auth === 'release' || (route.auth === 'user' && inPath)) codes.add('FORBIDDEN');
    if (inPath) codes.add('NOT_FOUND');
    if (route.method !== 'GET') codes.add('CONFLICT');
    if (hasBody) codes.add('PAYLOAD_TOO_LARGE').add('UNSUPPORTED_MEDIA_TYPE');
    if (hasBody || parameters.length) codes.add('VALIDATION_FAILED');
    for (const code of Object.keys(route.errors ?? {}) as ErrorCode[]) codes.add(code);
    for (const code of [...codes].sort((a, b) => ERROR_CODES[a].http - ERROR_CODES[b].http)) {
      const special = route.errors?.[code];
      responses[String(ERROR_CODES[code].http)] = special
        ? { description: ERROR_DESCRIPTIONS[code] ?? responseName(code), content: { 'application/json': { schema: special } } }
        : errorResponse(code);
    }

    if (parameters.length) entry.parameters = parameters;
    entry.responses = responses;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = entry;
  }

  // Schemas the route rows name (`schemaRef`) join those of the GraphQL types.
  const named: Record<string, JsonSchema> = {};
  const hoisted = hoistSchemas({ paths, schemas: components }, named) as {
    paths: Record<string, unknown>;
    schemas: Record<string, JsonSchema>;
  };
  const clash = Object.keys(named).find((name) => name in hoisted.schemas);
  if (clash) throw new Error(`schema ${clash} is both a GraphQL type and a named route schema`);
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'labdesk',
      version: '0.1.0',
      description: 'The labdesk platform API. Errors are `{detail}`; validation errors are 422 `{detail: [{loc, msg, type}]}`.',
    },
    // Relative: the document describes the server that serves it, at whatever origin.
    servers: [{ url: '/', description: 'The server that serves this document' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths: hoisted.paths,
    components: {
      schemas: { ...hoisted.schemas, ...named },
      responses: errorResponses,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
  };
  return document;
}

/**
 * A `text/event-stream` body: OpenAPI 3.1 cannot type the events of a stream, so the schema is
 * a string whose description lists them, with each event's data schema under `x-events`.
 */
function eventStreamSchema(events: Record<string, JsonSchema>): JsonSchema {
  const all = { ...events, error: { type: 'object', required: ['detail'], properties: { detail: { type: 'string' } } } };
  const names = Object.keys(events)
    .map((name) => `\`${name}\``)
    .join(', ');
  return {
    type: 'string',
    description: `Server-sent events (\`event: <name>\` then \`data: <JSON>\`): ${names}; a failure after the stream started is one \`error\` event \`{detail}\`, then the stream ends.`,
    'x-events': all,
  };
}

/** `schema` (an object, or an array of objects) with `members` no longer required: they are absent when null. */
function optionalMembers(schema: JsonSchema, members: readonly string[]): JsonSchema {
  if (schema.type === 'array' && schema.items) return { ...schema, items: optionalMembers(schema.items as JsonSchema, members) };
  if (!Array.isArray(schema.required)) return schema;
  return { ...schema, required: (schema.required as string[]).filter((name) => !members.includes(name)) };
}
