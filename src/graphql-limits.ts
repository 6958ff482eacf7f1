import { FieldNode, GraphQLError, Kind, SelectionSetNode, ValidationContext, ValidationRule } from 'graphql';

/** A query may select at most this many fields in all (aliases count), this many levels deep. */
export const MAX_FIELDS = 1000;
export const MAX_DEPTH = 12;

/**
 * Refuses operations too large to be a real client's: many aliases of an expensive field, or
 * deep nesting, would let one request do the work of thousands.
 */
export const operationLimits: ValidationRule = (context: ValidationContext) => ({
  OperationDefinition(node) {
    let fields = 0;
    let depth = 0;
    const walk = (selection: SelectionSetNode, level: number, seen: Set<string>) => {
      depth = Math.max(depth, level);
      for (const child of selection.selections) {
        if (fields > MAX_FIELDS || depth > MAX_DEPTH) return;
        if (child.kind === Kind.FIELD) {
          fields++;
          if ((child as FieldNode).selectionSet) walk((child as FieldNode).selectionSet!, level + 1, seen);
        } else if (child.kind === Kind.INLINE_FRAGMENT) {
          walk(child.selectionSet, level, seen);
        } else {
          const name = child.name.value;
          const fragment = context.getFragment(name);
          if (fragment && !seen.has(name)) walk(fragment.selectionSet, level, new Set([...seen, name]));
        }
      }
    };
    walk(node.selectionSet, 1, new Set());
    if (fields > MAX_FIELDS) context.reportError(new GraphQLError(`the operation selects more than ${MAX_FIELDS} fields`, { nodes: [node] }));
    if (depth > MAX_DEPTH) context.reportError(new GraphQLError(`the operation is nested deeper than ${MAX_DEPTH} levels`, { nodes: [node] }));
  },
});
