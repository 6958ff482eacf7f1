/**
 * The anchor side of bench:a2a: what an agent built on the official SDK with a database and a
 * model costs on this machine, in a process of its own. The SDK's own server parts
 * (`DefaultRequestHandler`, its Express JSON-RPC handler, as in bench/a2a-reference-server.ts),
 * a PostgreSQL task store (`PgTaskStore`: one table, the task as jsonb, `pg`'s pool) and an
 * executor that asks the same scripted model our side asks (an OpenAI-compatible chat
 * completion over HTTP), then completes the task with the model's answer as an artifact and an
 * agent message: the events an SDK sample agent publishes (the task, the artifact, the final
 * status), which the SDK's `ResultManager` persists one by one (a load and a save each).
 *
 * Settings (environment): PORT; MODEL_URL, the model server's base URL (`…/v1`); DATABASE_URL,
 * its database (created by the bench), or else DATA_DIR, where it runs an embedded PostgreSQL
 * of its own as its child (the path `labdesk serve` takes without DATABASE_URL). Sends
 * `{ port, databaseUrl }` when listening; answers the IPC message `'statements'` with
 * `{ statements }`, the SQL statements it has sent so far. Started by bench/a2a.ts (`fork`).
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Pool } from 'pg';
import { AgentCard, ListTasksResponse, Task } from '@a2a-js/sdk';
import { UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, TaskStore } from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { EmbeddedDatabase, startEmbeddedPostgres } from '../src/db/embedded';
import { AnswerExecutor } from './a2a-sdk-agent';

/** Every statement the anchor sends goes through here, so the bench can count them. */
let statements = 0;

/**
 * The SDK's `TaskStore` on one table: the task in the SDK's own JSON form (`Task.toJSON`, as
 * its Kysely-based `DatabaseTaskStore` writes it) in a jsonb column, saved by an upsert and
 * loaded by its key. Not scoped by caller: the bench has one unauthenticated caller.
 */
class PgTaskStore implements TaskStore {
  constructor(private readonly pool: Pool) {}

  async migrate(): Promise<void> {
    statements++;
    await this.pool.query('create table if not exists a2a_anchor_tasks (id text primary key, task jsonb not null)');
  }

  async save(task: Task): Promise<void> {
    statements++;
    await this.pool.query('insert into a2a_anchor_tasks (id, task) values ($1, $2) on conflict (id) do update set task = excluded.task', [
      task.id,
      JSON.stringify(Task.toJSON(task)),
    ]);
  }

  async load(taskId: string): Promise<Task | undefined> {
    statements++;
    const { rows } = await this.pool.query<{ task: unknown }>('select task from a2a_anchor_tasks where id = $1', [taskId]);
    return rows.length ? Task.fromJSON(rows[0].task) : undefined;
  }

  /** The bench never lists; a real store would page over the table (the SDK's does, with a count). */
  list(): Promise<ListTasksResponse> {
    return Promise.reject(new UnsupportedOperationError('ListTasks is not part of the bench anchor'));
  }
}

/** The model's answer to one user text: a non-streamed chat completion, as an SDK agent calling an OpenAI-compatible API makes. */
async function askModel(modelUrl: string, text: string): Promise<string> {
  const response = await fetch(`${modelUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
    body: JSON.stringify({ model: 'gpt-5', messages: [{ role: 'user', content: text }] }),
  });
  if (!response.ok) throw new Error(`the model answered ${response.status}`);
  const completion = (await response.json()) as { choices?: { message?: { content?: string | null } }[] };
  const answer = completion.choices?.[0]?.message?.content;
  if (typeof answer !== 'string') throw new Error('the model answered no text');
  return answer;
}

async function main() {
  const port = Number(process.env.PORT ?? 0);
  const modelUrl = process.env.MODEL_URL;
  if (!modelUrl) throw new Error('MODEL_URL is not set');
  let embedded: EmbeddedDatabase | undefined;
  if (!process.env.DATABASE_URL) {
    if (!process.env.DATA_DIR) throw new Error('neither DATABASE_URL nor DATA_DIR is set');
    embedded = await startEmbeddedPostgres(process.env.DATA_DIR, { database: 'anchor' });
  }
  const databaseUrl = process.env.DATABASE_URL ?? embedded!.url;
  // Idle connections stay open (no idle time-out): while the other sides' rounds run, a closed
  // connection would take its backend's CPU out of the count and cost a new one next round.
  const pool = new Pool({ connectionString: databaseUrl, max: 10, idleTimeoutMillis: 0 });
  const store = new PgTaskStore(pool);
  await store.migrate();

  const card = AgentCard.fromJSON({
    name: 'SDK anchor agent',
    description: 'Answers with the model, tasks in PostgreSQL (bench:a2a anchor).',
    version: '1.0.0',
    supportedInterfaces: [{ url: `http://127.0.0.1:${port}/a2a/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: false, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'Answer', description: 'Answers with the model.', tags: ['answer'] }],
  });
  const handler = new DefaultRequestHandler(card, store, new AnswerExecutor((text) => askModel(modelUrl, text)));
  const app = express();
  app.disable('x-powered-by');
  app.use('/a2a/v1', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  const server = app.listen(port, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port, databaseUrl }));
  process.on('message', (message) => {
    if (message === 'statements') process.send?.({ statements });
  });
  process.on('SIGTERM', () =>
    server.close(
      () =>
        void pool
          .end()
          .then(() => embedded?.stop())
          .then(() => process.exit(0)),
    ),
  );
}

main().catch((error) => {
  process.stderr.write(`a2a anchor server failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
