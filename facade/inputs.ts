import {
  coerceInputValue,
  getNamedType,
  getNullableType,
  GraphQLInputType,
  GraphQLSchema,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  OperationDefinitionNode,
  typeFromAST,
} from 'graphql';
import type { Request } from 'express';
import type { VariableSource } from './route';

/** One entry of the 422 body: `loc` starts with body, query, path or header (contracts §2). */
export interface WireIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A GraphQL variable of an operation, prepared once when the route table is compiled. */
export interface VariablePlan {
  name: string;
  type: GraphQLInputType;
  source: VariableSource;
}

export function planVariables(schema: GraphQLSchema, op: OperationDefinitionNode, sources: Record<string, VariableSource>): VariablePlan[] {
  const plans: VariablePlan[] = [];
  for (const def of op.variableDefinitions ?? []) {
    const name = def.variable.name.value;
    const type = typeFromAST(schema, def.type as never) as GraphQLInputType | undefined;
    if (!type) throw new Error(`operation ${op.name?.value}: unknown type for $${name}`);
    const source = sources[name];
    if (!source) throw new Error(`operation ${op.name?.value}: no source for $${name}`);
    plans.push({ name, type, source });
  }
  const extra = Object.keys(sources).filter((name) => !plans.some((p) => p.name === name));
  if (extra.length) throw new Error(`operation ${op.name?.value}: sources for unknown variables ${extra.join(', ')}`);
  return plans;
}

/** Where a variable's issues are reported: the wire location of the variable itself. */
export function locOf(source: VariableSource): (string | number)[] {
  return source.from === 'body' ? ['body'] : [source.from, source.name];
}

/** Text from the URL, read as the scalar the variable expects; anything unreadable is left for coercion to reject. */
function fromText(text: string, type: GraphQLInputType): unknown {
  const named = getNamedType(type);
  if (!isScalarType(named)) return text;
  if (named.name === 'Int' && /^-?\d+$/.test(text)) return Number(text);
  if (named.name === 'Float' && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
  if (named.name === 'Boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/**
 * Renames a JSON body's snake_case members to the input type's fields, guided by the type, and
 * reports members the type does not have. Values of scalar fields (including JSON) are untouched.
 */
function fromJson(value: unknown, type: GraphQLInputType, loc: (string | number)[], issues: WireIssue[]): unknown {
  const nullable = getNullableType(type) as GraphQLInputType;
  if (value === null || value === undefined) return value;
  if (isListType(nullable)) {
    return Array.isArray(value) ? value.map((item, i) => fromJson(item, nullable.ofType, [...loc, i], issues)) : value;
  }
  if (!isInputObjectType(nullable) || typeof value !== 'object' || Array.isArray(value)) return value;
  const fields = nullable.getFields();
  const bySnake = new Map(Object.keys(fields).map((name) => [snake(name), name]));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    const field = bySnake.get(key);
    if (!field) {
      issues.push({ loc: [...loc, key], msg: 'is not a known member', type: 'extra_forbidden' });
      continue;
    }
    out[field] = fromJson(member, fields[field].type, [...loc, key], issues);
  }
  return out;
}

/** Maps a coercion error path (GraphQL field names) back to wire names. */
const wirePath = (path: readonly (string | number)[]) => path.map((part) => (typeof part === 'string' ? snake(part) : part));

function issueType(message: string, value: unknown): string {
  if (value === undefined || /not to be null|was not provided/.test(message)) return 'missing';
  if (/does not exist in .* enum/.test(message)) return 'enum';
  if (/is not defined by type/.test(message)) return 'extra_forbidden';
  return 'type_error';
}

/** GraphQL's wording, made readable for a REST caller. */
function issueMessage(message: string): string {
  return message
    .replace(/^Expected non-nullable type "[^"]+" not to be null\.?$/, 'is required')
    .replace(/^Field "[^"]+" of required type "[^"]+" was not provided\.?$/, 'is required')
    .replace(/; Did you mean.*$/, '');
}

/**
 * Builds the variables of one request. Returns either the variables or every problem found, as
 * the 422 body expects them. Nothing is executed when there is any problem.
 */
export function readVariables(req: Request, plans: VariablePlan[]): { variables: Record<string, unknown>; issues: WireIssue[] } {
  const variables: Record<string, unknown> = {};
  const issues: WireIssue[] = [];
  for (const plan of plans) {
    const loc = locOf(plan.source);
    let raw: unknown;
    if (plan.source.from === 'body') {
      raw = fromJson(req.body, plan.type, ['body'], issues);
      if (raw === undefined && isNonNullType(plan.type)) {
        issues.push({ loc, msg: 'a JSON object body is required', type: 'missing' });
        continue;
      }
    } else {
      const bag = plan.source.from === 'path' ? req.params : (req.query as Record<string, unknown>);
      const text = bag[plan.source.name];
      if (Array.isArray(text) || (text !== undefined && typeof text !== 'string')) {
        issues.push({ loc, msg: 'must be given once, as a plain value', type: 'type_error' });
        continue;
      }
      raw = text === undefined ? undefined : fromText(text, plan.type);
    }
    coerceInputValue(raw, plan.type, (path, value, error) => {
      issues.push({ loc: [...loc, ...wirePath(path)], msg: issueMessage(error.message), type: issueType(error.message, value) });
    });
    if (raw !== undefined) variables[plan.name] = raw;
  }
  return { variables, issues };
}
