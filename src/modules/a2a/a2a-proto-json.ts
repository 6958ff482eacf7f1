/** Members whose values are free-form JSON (google.protobuf.Struct and Value: metadata, a data part's value): kept as they are. */
const FREE_FORM = new Set(['metadata', 'data']);

/**
 * An A2A object (the model's, or a GraphQL result of it) as ProtoJSON, the one projection every
 * A2A answer, stream event and push delivery goes through: members that are null or undefined are
 * left out, as protobuf's JSON printer leaves out unset fields; free-form values are written as
 * they are, their nulls included. Field names are the model's already.
 */
export function protoJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(protoJson);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === null || member === undefined) continue;
    out[key] = FREE_FORM.has(key) ? member : protoJson(member);
  }
  return out;
}
