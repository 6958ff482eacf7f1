import {
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
} from 'graphql';
import { planVariables, snake } from './inputs';
import { operationOf, Route } from './route';

type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTimeISO: { type: 'string', format: 'date-time' },
};

const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

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

  const inputSchema = (type: GraphQLInputType): JsonSchema => {
    if (isNonNullType(type)) return inputSchema(type.ofType);
    const inner = inputOf(type);
    return orNull(inner);
  };
  const inputOf = (type: GraphQLInputType): JsonSchema => {
    const t = getNullableType(type) as GraphQLInputType;
    if (isListType(t)) return { type: 'array', items: inputSchema(t.ofType) };
    if (isScalarType(t)) return SCALARS[t.name] ?? {};
    if (isEnumType(t)) return { type: 'string', enum: t.getValues().map((v) => v.value) };
    if (isInputObjectType(t)) {
      if (!components[t.name]) {
        components[t.name] = {}; // placeholder against recursion
        const fields = Object.values(t.getFields());
        components[t.name] = {
          type: 'object',
          description: t.description ?? undefined,
          additionalProperties: false,
          properties: Object.fromEntries(fields.map((f) => [snake(f.name), { ...inputSchema(f.type), description: f.description ?? undefined }])),
          required: fields.filter((f) => isNonNullType(f.type) && f.defaultValue === undefined).map((f) => snake(f.name)),
        };
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
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.value) };
    if (isObjectType(type) && selection) {
      const fields = type.getFields();
      const properties: Record<string, JsonSchema> = {};
      for (const node of fieldsOf(selection)) {
        const field = fields[node.name.value];
        properties[node.alias?.value ?? node.name.value] = { ...outputSchema(field.type, node.selectionSet), description: field.description ?? undefined };
      }
      return { type: 'object', properties, required: Object.keys(properties) };
    }
    return {};
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const responses: Record<string, unknown> = {
      default: { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    };
    const entry: Record<string, unknown> = {
      summary: route.summary,
      tags: [route.tag],
      security: route.auth === 'none' ? [] : [{ bearer: [] }],
      responses,
    };
    const parameters: JsonSchema[] = [];
    if (route.kind === 'operation') {
      const op = operationOf(route.operation);
      entry.operationId = op.name?.value;
      fragments = new Map(
        route.operation.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d.selectionSet]),
      );
      for (const plan of planVariables(schema, op, route.variables)) {
        if (plan.source.from === 'body') {
          entry.requestBody = { required: isNonNullType(plan.type), content: { 'application/json': { schema: inputOf(plan.type) } } };
        } else {
          parameters.push({ name: plan.source.name, in: plan.source.from, required: plan.source.from === 'path' || isNonNullType(plan.type), schema: inputOf(plan.type) });
        }
      }
      const rootType = op.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
      const rootSelection = op.selectionSet.selections.find((s) => s.kind === Kind.FIELD && (s.alias?.value ?? s.name.value) === route.result);
      let body: JsonSchema = {};
      if (rootSelection?.kind === Kind.FIELD) body = outputSchema(rootType.getFields()[rootSelection.name.value].type, rootSelection.selectionSet);
      if (route.omitNulls && body.properties) {
        // Null members are left out of the answer: only the never-null ones are always there.
        const properties = body.properties as Record<string, JsonSchema>;
        body = { ...body, required: Object.keys(properties).filter((name) => !properties[name].anyOf) };
      }
      if (route.list) body = { type: 'object', properties: { items: body, total: { type: 'integer' } }, required: ['items', 'total'] };
      if (route.noContentWhenNull) responses['204'] = { description: 'Nothing to return yet' };
      responses[String(route.status ?? 200)] =
        route.status === 204 ? { description: 'No content' } : { description: 'OK', content: { 'application/json': { schema: body } } };
      if (op.variableDefinitions?.length) {
        responses['422'] = { description: 'Invalid input', content: { 'application/json': { schema: { $ref: '#/components/schemas/ValidationError' } } } };
      }
    } else {
      entry.operationId = `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;
      for (const [, name] of route.path.matchAll(/\{([^}]+)\}/g)) parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
      responses[String(route.status ?? 200)] = { description: 'OK', content: { [route.produces]: {} } };
      if (route.consumes) entry.requestBody = { required: true, content: { [route.consumes]: {} } };
    }
    if (parameters.length) entry.parameters = parameters;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = entry;
  }

  return {
    openapi: '3.1.0',
    info: { title: 'labdesk', version: '0.1.0', description: 'The labdesk platform API. Errors are `{detail}`; validation errors are 422 `{detail: [{loc, msg, type}]}`.' },
    paths,
    components: { schemas: components, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  };
}
