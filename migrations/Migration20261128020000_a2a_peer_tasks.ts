import { Migration } from '@mikro-orm/migrations';

/**
 * The tasks a principal's context started on peers through the `a2a__<id>` tools (docs/api/outbound-agents.md,
 * "Tools"): a later turn of the same context may read them with `a2a_check`,
 * and no other task id. Keyed by the A2A owner too: entry ids are per user, so after a change of
 * owner the new owner's entry of the same name does not get the old one's task ids. Written by hand in the generator's form.
 */
export class Migration20261128020000_a2a_peer_tasks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "a2a_peer_tasks" ("owner_id" text not null, "principal" text not null, "context_id" text not null, "agent_id" text not null, "peer_task_id" text not null, "task_id" text not null, "created_at" timestamptz not null default now(), constraint "a2a_peer_tasks_pkey" primary key ("owner_id", "principal", "context_id", "agent_id", "peer_task_id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "a2a_peer_tasks";`);
  }
}
