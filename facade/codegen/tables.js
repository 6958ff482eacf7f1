// A graphql-codegen plugin (codegen.yml): writes facade/generated/tables.ts, the REST route table
// and the A2A JSON-RPC method table, from the @rest and @jsonrpc directives of the operation
// documents (facade/operations/*.graphql). Adding an endpoint is one operation with its directive,
// plus its resolver; `npm run codegen` writes the row. Who may call a route is not said here: it is
// the access its root field declares (src/operation-rules.ts), read from the `@access` directive
// schema/schema.graphql prints on each root field.
const { Kind, print } = require('graphql');

const snake = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const quote = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** A directive's arguments as plain values (strings, numbers, booleans, lists). */
function argumentsOf(directive) {
  const value = (node) => {
    if (node.kind === Kind.LIST) return node.values.map(value);
    if (node.kind === Kind.INT) return Number(node.value);
    if (node.kind === Kind.BOOLEAN || node.kind === Kind.STRING || node.kind === Kind.ENUM) return node.value;
    throw new Error(`@${directive.name.value}: ${print(node)} is not a literal`);
  };
  return Object.fromEntries((directive.arguments ?? []).map((arg) => [arg.name.value, value(arg.value)]));
}

/** Where each variable comes from: `$input` the JSON body, a variable named like a path parameter the path, any other the query. */
function variablesOf(op, rest, where) {
  const pathParams = new Set([...rest.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]));
  const rawArrays = (rest.rawArrays ?? []).map((entry) => entry.split(':'));
  const sources = (op.variableDefinitions ?? []).map((def) => {
    const name = def.variable.name.value;
    if (name === 'input') {
      const raw = rawArrays.map(([member, schema]) => `${member}: NAMED_SCHEMAS.${schema}`).join(', ');
      return `${name}: body(${raw ? `{ rawArrays: { ${raw} } }` : ''})`;
    }
    if (pathParams.delete(snake(name))) return `${name}: path(${quote(snake(name))})`;
    return `${name}: query(${quote(snake(name))})`;
  });
  if (pathParams.size) throw new Error(`${where}: no variable for path parameter ${[...pathParams].join(', ')}`);
  return `{ ${sources.join(', ')} }`;
}

const OPTIONAL = ['status', 'list', 'omitNulls', 'noContentWhenNull', 'cacheControl', 'maxBodyBytes'];

/** The route's `auth` for each declared access (facade/route.ts RouteAuth); an A2A caller exists only at /a2a/v1. */
const ROUTE_AUTH = { anyone: 'none', user: 'user', admin: 'admin', release: 'release', a2aOrUser: 'user' };

/** The access the schema's root field declares (`@access(level: …)` in schema/schema.graphql). */
function accessOf(schema, op, root, where) {
  const type = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() }[
    op.operation
  ];
  const field = type && type.getFields()[root.name.value];
  const directive = field && field.astNode && (field.astNode.directives || []).find((each) => each.name.value === 'access');
  if (!directive) throw new Error(`${where}: ${root.name.value} declares no access in the schema (run npm run schema:emit)`);
  const level = argumentsOf(directive).level;
  if (!ROUTE_AUTH[level]) throw new Error(`${where}: access ${level} cannot be served as a REST route`);
  return ROUTE_AUTH[level];
}

function routeOf(schema, op, rest, where) {
  const [root] = op.selectionSet.selections;
  if (root.kind !== Kind.FIELD) throw new Error(`${where}: the first selection must be the result's field`);
  const lines = [
    `method: ${quote(rest.method)}`,
    `path: ${quote(rest.path)}`,
    `auth: ${quote(accessOf(schema, op, root, where))}`,
    `tag: ${quote(rest.tag)}`,
    `summary: ${quote(rest.summary)}`,
    `operation: Op.${op.name.value}Document`,
    `variables: ${variablesOf(op, rest, where)}`,
    `result: ${quote((root.alias ?? root.name).value)}`,
  ];
  for (const name of OPTIONAL) {
    if (rest[name] === undefined) continue;
    lines.push(`${name}: ${typeof rest[name] === 'string' ? quote(rest[name]) : rest[name]}`);
  }
  if (rest.omitWhenNull) lines.push(`omitWhenNull: [${rest.omitWhenNull.map(quote).join(', ')}]`);
  if (rest.errors) {
    const errors = rest.errors.map((entry) => {
      const [code, schema] = entry.split(':');
      return `${code}: ${schema ? `NAMED_SCHEMAS.${schema}` : 'null'}`;
    });
    lines.push(`errors: { ${errors.join(', ')} }`);
  }
  return `  operation({\n${lines.map((line) => `    ${line},`).join('\n')}\n  }),`;
}

module.exports = {
  plugin(schema, documents) {
    const routes = [];
    const methods = [];
    for (const { document, location } of documents) {
      for (const op of document.definitions) {
        if (op.kind !== Kind.OPERATION_DEFINITION) continue;
        const where = `${location}: ${op.name.value}`;
        for (const directive of op.directives ?? []) {
          if (directive.name.value === 'rest') routes.push(routeOf(schema, op, argumentsOf(directive), where));
          if (directive.name.value === 'jsonrpc')
            methods.push(`  { name: ${quote(argumentsOf(directive).method)}, document: Op.${op.name.value}Document },`);
        }
      }
    }
    return [
      '// Written by `npm run codegen` (facade/codegen/tables.js) from the @rest and @jsonrpc directives of',
      '// facade/operations/*.graphql: change those, not this file.',
      "import * as Op from './operations';",
      "import { body, operation, path, query, type Route } from '../route';",
      "import { NAMED_SCHEMAS } from '../schemas';",
      '',
      '/** The REST routes that run one operation, in the order of the documents. */',
      `export const OPERATION_ROUTES: Route[] = [\n${routes.join('\n')}\n];`,
      '',
      '/** The A2A JSON-RPC methods, each served by one operation. */',
      `export const JSONRPC_OPERATIONS = [\n${methods.join('\n')}\n];`,
      '',
    ].join('\n');
  },
};
