import {
  DocumentNode,
  FieldNode,
  FragmentDefinitionNode,
  getOperationAST,
  GraphQLError,
  GraphQLField,
  GraphQLObjectType,
  GraphQLSchema,
  Kind,
  OperationDefinitionNode,
  SelectionSetNode,
  valueFromAST,
  ValidationContext,
  ValidationRule,
} from 'graphql';
import { AppError } from './errors';
import { rulesOf } from './operation-rules';

/**
 * Bounds on what one GraphQL document may ask of the service, so that no single request (a
 * megabyte-sized query, a chain of fragments that doubles at every step, ten aliases of the
 * most expensive field) can hold the process or its memory.
 */
export const GRAPHQL_LIMITS = {
  /** Lexical tokens in a document: parsing stops at the first one over. */
  tokens: 10_000,
  /** Fields an operation selects in all, aliases and every spread of a fragment included. */
  fields: 1000,
  /** Levels of nested selections. */
  depth: 12,
  /** Total cost of an operation's root fields (see `ROOT_FIELD_COST`). */
  cost: 5000,
  /** Largest WebSocket message (a `subscribe` or `connection_init`), refused before it is parsed. */
  websocketMessageBytes: 1024 * 1024,
} as const;

/** Options for graphql-js `parse` (Apollo's `parseOptions`, and the WebSocket's own parse). */
export const PARSE_OPTIONS = { maxTokens: GRAPHQL_LIMITS.tokens };

/**
 * What a root field costs: `perRow` times its `limit` argument (the value given, else the
 * resolver's default) for fields whose work grows with the rows they scan (the board reads a
 * slice of each session's tail: ten times a list row), or a fixed `each` for fields that read a
 * whole session or may call the language model (at most five of those in one operation). Other
 * root fields cost 1. With the defaults, one operation may read the largest
 * board, or a board, the reviews and a page of sessions together.
 */
const ROOT_FIELD_COST: Record<string, { perRow: number; defaultLimit: number; arg?: 'first' } | { each: number }> = {
  labBoard: { perRow: 10, defaultLimit: 200 },
  labReviews: { perRow: 2, defaultLimit: 200 },
  trajectories: { perRow: 2, defaultLimit: 100 },
  adminUsers: { perRow: 1, defaultLimit: 100 },
  adminLabs: { perRow: 1, defaultLimit: 100 },
  adminTrajectories: { perRow: 2, defaultLimit: 100 },
  trajectoryCritique: { each: 1000 },
  trajectorySummaryAppend: { each: 1000 },
  computePlanDraft: { each: 1000 },
  // Each reads a whole session and makes a model call: at most five in one operation.
  trajectoryDiscuss: { each: 1000 },
  trajectoryDiscussStream: { each: 1000 },
  // Every record of a share link's page is masked (secretlint's rules over its text): ten times a
  // list row, so one operation masks at most two full pages (`first` is their size).
  sharedTrajectoryRecords: { perRow: 10, defaultLimit: 100, arg: 'first' },
  sharedTrajectoryPreviewRecords: { perRow: 10, defaultLimit: 100, arg: 'first' },
};
const LARGEST_LIMIT = 500;

interface Size {
  fields: number;
  depth: number;
}

/**
 * Root fields whose subtrees the depth limit leaves out. Introspection is answered from the
 * schema in memory, and graphql-js's own `getIntrospectionQuery()` (what GraphiQL, Apollo Sandbox
 * and codegen send) nests its type references deeper than any query of the domain needs. Their
 * fields still count, and every other field of the document is measured as before.
 */
const DEPTH_EXEMPT_FIELDS = new Set(['__schema', '__type']);

/**
 * Fields and depth of a selection set, each fragment measured once however often it is spread
 * (memoized by name), so that a document's cost to measure is linear in its length. A fragment
 * that is unknown or part of a cycle counts as empty: validation reports those itself. An
 * introspection field (`DEPTH_EXEMPT_FIELDS`) is one level deep whatever it selects. Stops at the
 * first field limit crossed (measuring on past the depth limit, so that the fields below an
 * introspection field are counted whole).
 */
function measure(
  selectionSet: SelectionSetNode,
  fragmentNamed: (name: string) => FragmentDefinitionNode | undefined,
  memo: Map<string, Size | 'measuring'>,
): Size {
  const size: Size = { fields: 0, depth: 0 };
  for (const selection of selectionSet.selections) {
    let child: Size;
    if (selection.kind === Kind.FIELD) {
      const inner = selection.selectionSet ? measure(selection.selectionSet, fragmentNamed, memo) : { fields: 0, depth: 0 };
      child = { fields: 1 + inner.fields, depth: DEPTH_EXEMPT_FIELDS.has(selection.name.value) ? 1 : 1 + inner.depth };
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      child = measure(selection.selectionSet, fragmentNamed, memo);
    } else {
      const name = selection.name.value;
      const known = memo.get(name);
      if (known === 'measuring') continue;
      if (known) {
        child = known;
      } else {
        const fragment = fragmentNamed(name);
        if (!fragment) continue;
        memo.set(name, 'measuring');
        child = measure(fragment.selectionSet, fragmentNamed, memo);
        memo.set(name, child);
      }
    }
    size.fields += child.fields;
    size.depth = Math.max(size.depth, child.depth);
    if (size.fields > GRAPHQL_LIMITS.fields) return size;
  }
  return size;
}

/** A validation rule: refuses operations selecting too many fields or nested too deep. */
export const operationLimits: ValidationRule = (context: ValidationContext) => {
  const memo = new Map<string, Size | 'measuring'>();
  return {
    OperationDefinition(node) {
      const { fields, depth } = measure(node.selectionSet, (name) => context.getFragment(name) ?? undefined, memo);
      if (fields > GRAPHQL_LIMITS.fields)
        context.reportError(new GraphQLError(`the operation selects more than ${GRAPHQL_LIMITS.fields} fields`, { nodes: [node] }));
      else if (depth > GRAPHQL_LIMITS.depth)
        context.reportError(new GraphQLError(`the operation is nested deeper than ${GRAPHQL_LIMITS.depth} levels`, { nodes: [node] }));
    },
  };
};

/** Who is asking, as far as screening needs to know. */
export interface Asker {
  signedIn: boolean;
  isAdmin: boolean;
}

/** What screening reads of a document besides the caller and the variables. */
interface OperationShape {
  operation: OperationDefinitionNode;
  rootType: GraphQLObjectType;
  fragments: Map<string, FragmentDefinitionNode>;
  /** Whether a root field declares `ADMIN` (src/operation-rules.ts): refused here before validation, and again as it runs. */
  adminOnly: boolean;
  introspects: boolean;
}

/** Shapes by schema, document and operation name: the facade and A2A screen the same few documents on every call. */
const shapes = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, OperationShape | null>>>();

function shapeOf(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): OperationShape | null {
  let ofSchema = shapes.get(schema);
  if (!ofSchema) shapes.set(schema, (ofSchema = new WeakMap<DocumentNode, Map<string, OperationShape | null>>()));
  let byName = ofSchema.get(document);
  if (!byName) ofSchema.set(document, (byName = new Map<string, OperationShape | null>()));
  const known = byName.get(operationName ?? '');
  if (known !== undefined) return known;
  const operation = getOperationAST(document, operationName);
  const rootType = operation && schema.getRootType(operation.operation);
  let shape: OperationShape | null = null;
  if (operation && rootType) {
    const fragments = new Map(
      document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
    );
    const roots = rootFieldsOf(operation, fragments);
    const adminOnly = [...roots.names].some((name) => {
      const field = rootType.getFields()[name];
      return field !== undefined && rulesOf(field).access === 'admin';
    });
    shape = { operation, rootType, fragments, adminOnly, introspects: roots.introspects };
  }
  byName.set(operationName ?? '', shape);
  return shape;
}

/**
 * Screens a parsed, not yet validated operation before anything else looks at it: root fields
 * declaring `ADMIN` access for anyone but an admin (FORBIDDEN, or UNAUTHENTICATED when anonymous: the shape
 * of admin inputs is nobody else's business), introspection for anonymous callers
 * (UNAUTHENTICATED; signed-in users' IDEs need it), and the total cost of the root fields with
 * the variables given (BAD_REQUEST). `asker` is called only when the answer depends on it.
 * @throws AppError
 */
export async function screenOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  asker: () => Promise<Asker>,
): Promise<void> {
  const shape = shapeOf(schema, document, operationName);
  if (!shape) return; // no operation, an ambiguous one, or no such root type: validation and execution say so
  const { operation, rootType, fragments, adminOnly, introspects } = shape;
  if (adminOnly || introspects) {
    const who = await asker();
    if (!who.signedIn)
      throw new AppError('UNAUTHENTICATED', adminOnly ? 'authentication required' : 'introspection requires authentication');
    if (adminOnly && !who.isAdmin) throw new AppError('FORBIDDEN', 'admin only');
  }

  const cost = costOf(operation.selectionSet, rootType, fragments, variables ?? {}, new Map());
  if (cost > GRAPHQL_LIMITS.cost) {
    throw new AppError(
      'BAD_REQUEST',
      `the operation costs ${cost}, at most ${GRAPHQL_LIMITS.cost} is allowed (an expensive field costs per row of its limit; ask for fewer aliases or smaller limits)`,
    );
  }
}

/** The names of the root fields an operation selects (through fragments too), and whether it introspects. */
function rootFieldsOf(operation: OperationDefinitionNode, fragments: Map<string, FragmentDefinitionNode>) {
  const names = new Set<string>();
  let introspects = false;
  const seen = new Set<string>();
  const visit = (selectionSet: SelectionSetNode) => {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === '__schema' || name === '__type') introspects = true;
        names.add(name);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  // Introspection below the root (`{ me { __type… } }` is not valid GraphQL) needs no search.
  return { names, introspects };
}

/** The cost of a root selection set, each fragment costed once (memoized) and counted as often as it is spread. */
function costOf(
  selectionSet: SelectionSetNode,
  rootType: GraphQLObjectType,
  fragments: Map<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
  memo: Map<string, number | 'costing'>,
): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = rootType.getFields()[selection.name.value];
      cost += field ? fieldCost(field, selection, variables) : 0;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      cost += costOf(selection.selectionSet, rootType, fragments, variables, memo);
    } else {
      const name = selection.name.value;
      let known = memo.get(name);
      if (known === 'costing') continue;
      if (known === undefined) {
        const fragment = fragments.get(name);
        if (!fragment) continue;
        memo.set(name, 'costing');
        known = costOf(fragment.selectionSet, rootType, fragments, variables, memo);
        memo.set(name, known);
      }
      cost += known;
    }
  }
  return cost;
}

function fieldCost(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): number {
  const rule = ROOT_FIELD_COST[field.name];
  if (!rule) return 1;
  if ('each' in rule) return rule.each;
  const name = rule.arg ?? 'limit';
  const limitArg = field.args.find((arg) => arg.name === name);
  const given = node.arguments?.find((arg) => arg.name.value === name);
  const value = given && limitArg ? valueFromAST(given.value, limitArg.type, variables) : undefined;
  const limit = typeof value === 'number' ? value : rule.defaultLimit;
  return rule.perRow * Math.min(Math.max(limit, 1), LARGEST_LIMIT);
}
