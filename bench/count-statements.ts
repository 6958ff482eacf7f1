/**
 * Preloaded into a benchmark server (`node --require`): counts the statements the process sends
 * to PostgreSQL, through whatever layer (the ORM, the query builder, the driver directly), by
 * wrapping the driver's `Client#query`. On SIGUSR2 it prints `statements <count so far>` on stdout.
 * The ORM's query log misses statements sent through the query builder, so it cannot be used.
 */
import { Client } from 'pg';

let sent = 0;
// eslint-disable-next-line @typescript-eslint/unbound-method -- the driver's own method, kept to be called with `.apply(this, …)` on its client and put back; never called unbound
const query = Client.prototype.query;
Client.prototype.query = function countedQuery(this: Client, ...args: unknown[]) {
  sent++;
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof Client.prototype.query;
process.on('SIGUSR2', () => process.stdout.write(`statements ${sent}\n`));
