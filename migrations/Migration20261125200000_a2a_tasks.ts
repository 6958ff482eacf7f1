import { Migration } from '@mikro-orm/migrations';

/**
 * A2A tasks, scoped to the principal that made them (`key:<id>` or `local`), with their messages
 * (history, in order) and artifacts as the A2A wire shapes (jsonb). `status_at` is the status
 * timestamp (ListTasks orders and filters on it); `owner_id` pays for the task's model calls.
 * Written by hand in the generator's form.
 */
export class Migration20261125200000_a2a_tasks extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "a2a_tasks" ("id" text not null, "context_id" text not null, "principal" text not null, "owner_id" text not null, "state" text not null, "status_message" jsonb null, "status_at" timestamptz not null default date_trunc('milliseconds', clock_timestamp()), "created_at" timestamptz not null default now(), constraint "a2a_tasks_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "a2a_tasks" add constraint "a2a_tasks_state_check" check ("state" in ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_REJECTED', 'TASK_STATE_AUTH_REQUIRED'));`,
    );
    this.addSql(`create index "a2a_tasks_principal_status_at_index" on "a2a_tasks" ("principal", "status_at" desc, "id" desc);`);
    this.addSql(`create index "a2a_tasks_principal_context_id_index" on "a2a_tasks" ("principal", "context_id", "created_at");`);
    this.addSql(
      `create table "a2a_messages" ("task_id" text not null, "seq" int not null, "message" jsonb not null, "created_at" timestamptz not null default now(), constraint "a2a_messages_pkey" primary key ("task_id", "seq"));`,
    );
    this.addSql(
      `alter table "a2a_messages" add constraint "a2a_messages_task_id_foreign" foreign key ("task_id") references "a2a_tasks" ("id") on delete cascade;`,
    );
    this.addSql(
      `create table "a2a_artifacts" ("task_id" text not null, "artifact_id" text not null, "artifact" jsonb not null, "created_at" timestamptz not null default now(), constraint "a2a_artifacts_pkey" primary key ("task_id", "artifact_id"));`,
    );
    this.addSql(
      `alter table "a2a_artifacts" add constraint "a2a_artifacts_task_id_foreign" foreign key ("task_id") references "a2a_tasks" ("id") on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "a2a_artifacts" cascade;`);
    this.addSql(`drop table if exists "a2a_messages" cascade;`);
    this.addSql(`drop table if exists "a2a_tasks" cascade;`);
  }
}
