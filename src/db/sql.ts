/** An ILIKE pattern matching `text` anywhere, with the caller's `%`, `_` and `\` taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Builds a WHERE condition from optional parts, keeping each part's parameters with it. */
export function conditions() {
  const clauses: string[] = [];
  const params: unknown[] = [];
  return {
    params,
    add(clause: string, ...values: unknown[]) {
      clauses.push(clause);
      params.push(...values);
    },
    sql: () => (clauses.length ? clauses.join(' and ') : 'true'),
  };
}
