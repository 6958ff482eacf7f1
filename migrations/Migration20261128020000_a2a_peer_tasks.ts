import { Migration } from '@mikro-orm/migrations';

/**
 * The tasks a principal's context started on peers through the `a2a__<id>` tools (docs/api.md
 * "Outbound agents", Tools): a later turn of the same context may read them with `a2a_check`,
 * and no other task id. Written by hand in the generator's form.
 */
export class Migration20261128020000_a2a_peer_tasks extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "a2a_peer_tasks" ("principal" text not null, "context_id" text not null, "agent_id" text not null, "peer_task_id" text not null, "task_id" text not null, "created_at" timestamptz not null default now(), constraint "a2a_peer_tasks_pkey" primary key ("principal", "context_id", "agent_id", "peer_task_id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "a2a_peer_tasks";`);
  }
}
