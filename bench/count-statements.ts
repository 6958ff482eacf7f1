/**
 * Preloaded into a benchmark server (`node --require`): counts the statements the process sends
 * to PostgreSQL, through whatever layer (the ORM, the query builder, the driver directly), by
 * wrapping the driver's `Client#query`. On SIGUSR2 it prints `statements <count so far>` on stdout.
 * The ORM's query log misses statements sent through the query builder, so it cannot be used.
 * With `COUNT_STATEMENTS_TEXTS` (a file path), the distinct SQL texts sent since the previous
 * SIGUSR2 are written there first, as a JSON array (bench:request-path compares its anchor's).
 */
import fs from 'node:fs';
import { Client } from 'pg';

let sent = 0;
const textsFile = process.env.COUNT_STATEMENTS_TEXTS;
const texts = new Set<string>();
// eslint-disable-next-line @typescript-eslint/unbound-method -- the driver's own method, kept to be called with `.apply(this, …)` on its client and put back; never called unbound
const query = Client.prototype.query;
Client.prototype.query = function countedQuery(this: Client, ...args: unknown[]) {
  sent++;
  if (textsFile) {
    const [statement] = args;
    const text = typeof statement === 'string' ? statement : (statement as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string') texts.add(text);
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof Client.prototype.query;
process.on('SIGUSR2', () => {
  if (textsFile) {
    fs.writeFileSync(textsFile, JSON.stringify([...texts]));
    texts.clear();
  }
  process.stdout.write(`statements ${sent}\n`);
});
