import { Migration } from '@mikro-orm/migrations';

/**
 * Files sent in and the `a2a` trajectory record of a context. `a2a_input_files` keeps where each
 * `raw` part of a message was saved in the context's workspace (or why it was not), one row per
 * part: the model's view of the message names the file, a retried turn does not save it twice, and
 * later turns of the context see it too. `a2a_turns.context_turns` counts the transcript entries a
 * turn started from (the context before it), so its own steps are what follows. Written by hand in
 * the generator's form.
 */
export class Migration20261126120000_a2a_inputs_and_records extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "a2a_input_files" ("task_id" text not null, "seq" int not null, "part" int not null, "path" text null, "media_type" text not null, "bytes" bigint not null, "note" text null, "created_at" timestamptz not null default now(), constraint "a2a_input_files_pkey" primary key ("task_id", "seq", "part"));`,
    );
    this.addSql(
      `alter table "a2a_input_files" add constraint "a2a_input_files_task_id_foreign" foreign key ("task_id") references "a2a_tasks" ("id") on delete cascade;`,
    );
    this.addSql(`alter table "a2a_turns" add column "context_turns" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "a2a_turns" drop column "context_turns";`);
    this.addSql(`drop table if exists "a2a_input_files" cascade;`);
  }
}
