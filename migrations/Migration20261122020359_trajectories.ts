import { Migration } from '@mikro-orm/migrations';

export class Migration20261122020359_trajectories extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "trajectories" ("id" text not null, "owner_id" text not null, "lab_id" text null, "visibility" text not null default 'private', "title" text null, "source" text not null default 'api', "count" int not null default 0, "head_uuid" text null, "bytes" bigint not null default 0, "archived_at" timestamptz null, "forked_from_session" text null, "forked_from_uuid" text null, "summary" jsonb null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "trajectories_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "trajectories_lab_id_visibility_updated_at_index" on "trajectories" ("lab_id", "visibility", "updated_at");`);
    this.addSql(`create index "trajectories_owner_id_updated_at_index" on "trajectories" ("owner_id", "updated_at");`);

    this.addSql(
      `create table "trajectory_records" ("session_id" text not null, "seq" int not null, "uuid" text not null, "parent_uuid" text null, "type" text not null, "raw" text null, "payload_ref" text null, "bytes" int not null, "created_at" timestamptz not null default now(), constraint "trajectory_records_pkey" primary key ("session_id", "seq"));`,
    );
    this.addSql(
      `alter table "trajectory_records" add constraint "trajectory_records_session_id_uuid_unique" unique ("session_id", "uuid");`,
    );

    this.addSql(`create table "record_payloads" ("id" bigserial primary key, "session_id" text not null, "body" text not null);`);
    this.addSql(`create index "record_payloads_session_id_index" on "record_payloads" ("session_id");`);

    this.addSql(
      `create table "annotation_entries" ("id" bigserial primary key, "session_id" text not null, "annotation_id" text not null, "kind" text not null, "author_id" text not null, "record_uuid" text null, "body" text null, "reply_to" text null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "annotation_entries_session_id_id_index" on "annotation_entries" ("session_id", "id");`);

    this.addSql(
      `alter table "trajectories" add constraint "trajectories_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade;`,
    );
    this.addSql(
      `alter table "trajectories" add constraint "trajectories_lab_id_foreign" foreign key ("lab_id") references "labs" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "trajectory_records" add constraint "trajectory_records_session_id_foreign" foreign key ("session_id") references "trajectories" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "record_payloads" add constraint "record_payloads_session_id_foreign" foreign key ("session_id") references "trajectories" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "annotation_entries" add constraint "annotation_entries_session_id_foreign" foreign key ("session_id") references "trajectories" ("id") on update cascade on delete cascade;`,
    );

    // Invariants the application relies on (hand-written: the schema diff does not know checks).
    this.addSql(`alter table "trajectories" add constraint "trajectories_visibility_check" check ("visibility" in ('private', 'lab'));`);
    this.addSql(`alter table "trajectories" add constraint "trajectories_counts_check" check ("count" >= 0 and "bytes" >= 0);`);
    this.addSql(`alter table "annotation_entries" add constraint "annotation_entries_kind_check" check ("kind" in ('note', 'resolve'));`);
    this.addSql(`create index "annotation_entries_annotation_id_index" on "annotation_entries" ("annotation_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "trajectory_records" drop constraint "trajectory_records_session_id_foreign";`);

    this.addSql(`alter table "record_payloads" drop constraint "record_payloads_session_id_foreign";`);

    this.addSql(`alter table "annotation_entries" drop constraint "annotation_entries_session_id_foreign";`);

    this.addSql(`drop table if exists "trajectories" cascade;`);

    this.addSql(`drop table if exists "trajectory_records" cascade;`);

    this.addSql(`drop table if exists "record_payloads" cascade;`);

    this.addSql(`drop table if exists "annotation_entries" cascade;`);
  }
}
