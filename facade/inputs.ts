import { unstorable } from '../src/validation';
import {
  getNamedType,
  GraphQLInputObjectType,
  GraphQLInputType,
  GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  OperationDefinitionNode,
  typeFromAST,
} from 'graphql';
import type { Request } from 'express';
import { snake, type WireIssue } from '../src/http/answers';
import { rawArrayElements } from './raw-json';
import type { VariableSource } from './route';

/** A request whose JSON body parser kept the raw bytes. */
export type RawBodyRequest = Request & { rawBody?: Buffer };

/**
 * The wire names of a path below a variable of `type`: fields of input objects become
 * snake_case; below a scalar (free-form JSON, such as a stored record) names stay as they are.
 */
export function wirePath(type: GraphQLInputType, path: (string | number)[]): (string | number)[] {
  let current: GraphQLInputType | undefined = type;
  return path.map((part) => {
    const unwrapped: GraphQLInputType | undefined = current && isNonNullType(current) ? current.ofType : current;
    if (typeof part === 'number') {
      current = unwrapped && isListType(unwrapped) ? unwrapped.ofType : undefined;
      return part;
    }
    if (unwrapped && isInputObjectType(unwrapped) && unwrapped.getFields()[part]) {
      current = unwrapped.getFields()[part].type;
      return snake(part);
    }
    current = undefined;
    return part;
  });
}

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

const BOOLEAN_TEXT: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

/** Text from the URL, read as the scalar the variable expects; anything unreadable stays text for `readInput` to reject. */
function fromText(text: string, type: GraphQLInputType): unknown {
  const named = getNamedType(type);
  if (!isScalarType(named)) return text;
  if (named.name === 'Int' && /^-?\d+$/.test(text)) return Number(text);
  if (named.name === 'Float' && text.trim() !== '' && !Number.isNaN(Number(text))) return Number(text);
  if (named.name === 'Boolean' && BOOLEAN_TEXT[text] !== undefined) return BOOLEAN_TEXT[text];
  return text;
}

const SCALAR_EXPECTATION: Record<string, string> = {
  String: 'must be a string',
  ID: 'must be a string',
  Int: 'must be an integer',
  Float: 'must be a number',
  Boolean: 'must be a boolean',
  DateTimeISO: 'must be an ISO 8601 date-time such as 2026-11-21T10:00:00.000Z',
};

/**
 * How a transport names the members of an input object and what it does with unknown ones. REST
 * (docs/api/wire.md): snake_case, and an unknown member is refused. ProtoJSON (A2A): the field's own
 * camelCase name or the proto's snake_case one (camelCase wins when both are sent), and an
 * unknown member is ignored (A2A §5.7).
 */
export type InputConvention = 'rest' | 'protojson';

const WIRE_NAMES = {
  rest: new WeakMap<GraphQLInputObjectType, Map<string, string>>(),
  protojson: new WeakMap<GraphQLInputObjectType, Map<string, string>>(),
};

/** An input type's fields by the names `convention` reads them under, worked out once per type. */
function fieldsByWireName(type: GraphQLInputObjectType, convention: InputConvention): Map<string, string> {
  let names = WIRE_NAMES[convention].get(type);
  if (!names) {
    const fields = Object.keys(type.getFields());
    names = new Map(fields.map((name) => [convention === 'rest' ? snake(name) : name, name]));
    if (convention === 'protojson') for (const name of fields) if (!names.has(snake(name))) names.set(snake(name), name);
    WIRE_NAMES[convention].set(type, names);
  }
  return names;
}

/**
 * Checks one value against its GraphQL input type and returns it in GraphQL's shape: members
 * named as `convention` says become the input type's fields. Every problem is reported at its
 * own wire location; values of JSON scalars are left untouched.
 */
export function readInput(
  value: unknown,
  type: GraphQLInputType,
  loc: (string | number)[],
  issues: WireIssue[],
  convention: InputConvention = 'rest',
): unknown {
  if (isNonNullType(type)) {
    if (value === null || value === undefined) {
      issues.push({ loc, msg: 'is required', type: 'missing' });
      return value;
    }
    return readInput(value, type.ofType, loc, issues, convention);
  }
  if (value === null || value === undefined) return value;
  if (isListType(type)) {
    if (!Array.isArray(value)) {
      issues.push({ loc, msg: 'must be an array', type: 'type_error' });
      return value;
    }
    return value.map((item, i) => readInput(item, type.ofType, [...loc, i], issues, convention));
  }
  if (isInputObjectType(type)) {
    if (typeof value !== 'object' || Array.isArray(value)) {
      issues.push({ loc, msg: 'must be an object', type: 'type_error' });
      return value;
    }
    const fields = type.getFields();
    const wireName = convention === 'rest' ? snake : (name: string) => name;
    const byWireName = fieldsByWireName(type, convention);
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      const field = byWireName.get(key);
      if (field === undefined) {
        if (convention === 'rest') issues.push({ loc: [...loc, key], msg: 'is not a known member', type: 'extra_forbidden' });
      } else if (!(field in out) || key === field) {
        out[field] = readInput(member, fields[field].type, [...loc, wireName(field)], issues, convention);
      }
    }
    for (const [name, field] of Object.entries(fields)) {
      if (!(name in out) && isNonNullType(field.type) && field.defaultValue === undefined) {
        issues.push({ loc: [...loc, wireName(name)], msg: 'is required', type: 'missing' });
      }
    }
    return out;
  }
  if (isEnumType(type)) {
    if (typeof value !== 'string' || !type.getValue(value)) {
      issues.push({
        loc,
        msg: `must be one of ${type
          .getValues()
          .map((v) => v.value as string)
          .join(', ')}`,
        type: 'enum',
      });
    }
    return value;
  }
  const scalar = type;
  // GraphQL's ID also takes numbers; ids on this API are strings (docs/api/wire.md).
  if (scalar.name === 'ID' && typeof value !== 'string') {
    issues.push({ loc, msg: SCALAR_EXPECTATION.ID, type: 'type_error' });
    return value;
  }
  try {
    scalar.parseValue(value);
  } catch {
    issues.push({ loc, msg: SCALAR_EXPECTATION[scalar.name] ?? `must be a valid ${scalar.name}`, type: 'type_error' });
    return value;
  }
  // Refused here rather than failing (or silently changing) in the database.
  const problem = typeof value === 'string' ? unstorable(value) : null;
  if (problem) issues.push({ loc, msg: problem, type: 'string_invalid' });
  return value;
}

/** The body, with each named array member replaced by the source text of its elements. */
function withRawArrays(req: RawBodyRequest, members: string[] | undefined): unknown {
  const parsed = req.body as unknown;
  if (!members || !req.rawBody || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return parsed;
  const text = req.rawBody.toString('utf8');
  const out: Record<string, unknown> = { ...parsed };
  for (const member of members) {
    if (Array.isArray(out[member])) out[member] = rawArrayElements(text, member);
  }
  return out;
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
      if (req.body === undefined && isNonNullType(plan.type)) {
        issues.push({ loc, msg: 'a JSON object body is required (Content-Type: application/json)', type: 'missing' });
        continue;
      }
      raw = withRawArrays(req as RawBodyRequest, plan.source.rawArrays && Object.keys(plan.source.rawArrays));
    } else {
      const bag = plan.source.from === 'path' ? req.params : (req.query as Record<string, unknown>);
      const text = bag[plan.source.name];
      if (Array.isArray(text) || (text !== undefined && typeof text !== 'string')) {
        issues.push({ loc, msg: 'must be given once, as a plain value', type: 'type_error' });
        continue;
      }
      raw = text === undefined ? undefined : fromText(text, plan.type);
    }
    const value = readInput(raw, plan.type, loc, issues);
    if (value !== undefined) variables[plan.name] = value;
  }
  return { variables, issues };
}
