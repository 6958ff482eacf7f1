import { Migration } from '@mikro-orm/migrations';

export class Migration20261122021743_discussions extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "discussion_turns" ("id" text not null, "session_id" text not null, "viewer_id" text not null, "question" text not null, "answer" text not null, "created_at" timestamptz not null default now(), constraint "discussion_turns_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "discussion_turns_session_id_created_at_index" on "discussion_turns" ("session_id", "created_at");`);
    this.addSql(
      `alter table "discussion_turns" add constraint "discussion_turns_session_id_foreign" foreign key ("session_id") references "trajectories" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "discussion_turns" add constraint "discussion_turns_viewer_id_foreign" foreign key ("viewer_id") references "users" ("id") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "discussion_turns" cascade;`);
  }
}
