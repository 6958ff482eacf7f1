import { Migration } from '@mikro-orm/migrations';

/**
 * The file artifacts turns attached, with their apparent sizes (docs/api/a2a-agent.md,
 * "Artifact budgets and retention"): what a workspace's and an A2A owner's artifact budgets are counted from. A row is
 * written (under the owner's lock) before the bytes are read or copied, and goes with its task.
 * Written by hand in the generator's form.
 */
export class Migration20261129030000_a2a_artifact_files extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "a2a_artifact_files" ("task_id" text not null, "idx" int not null, "owner_id" text not null, "workspace" text not null, "bytes" bigint not null, "created_at" timestamptz not null default now(), constraint "a2a_artifact_files_pkey" primary key ("task_id", "idx"));`,
    );
    this.addSql(
      `alter table "a2a_artifact_files" add constraint "a2a_artifact_files_task_id_foreign" foreign key ("task_id") references "a2a_tasks" ("id") on delete cascade;`,
    );
    this.addSql(`create index "a2a_artifact_files_owner_id_index" on "a2a_artifact_files" ("owner_id");`);
    this.addSql(`create index "a2a_artifact_files_workspace_index" on "a2a_artifact_files" ("workspace");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "a2a_artifact_files";`);
  }
}
