import { Migration } from '@mikro-orm/migrations';

/**
 * The review queue: a lab's request that a mentor review a lab-shared trajectory, with its
 * verdict (one open review per trajectory and reviewer); and notices, what the console tells a
 * person once (docs/api/reviews.md).
 */
export class Migration20261130010013_reviews extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "notices" ("id" text not null, "user_id" text not null, "kind" text not null, "text" text not null, "path" text not null, "created_at" timestamptz not null default now(), "read_at" timestamptz null, constraint "notices_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "notices_user_id_created_at_index" on "notices" ("user_id", "created_at");`);

    this.addSql(
      `create table "trajectory_reviews" ("id" text not null, "session_id" text not null, "lab_id" text not null, "requested_by" text not null, "reviewer_id" text not null, "state" text check ("state" in ('requested', 'in_review', 'changes_requested', 'approved', 'withdrawn')) not null default 'requested', "note" text null, "due_on" date null, "verdict_note" text null, "created_at" timestamptz not null default now(), "started_at" timestamptz null, "first_verdict_at" timestamptz null, "decided_at" timestamptz null, "updated_at" timestamptz not null default now(), constraint "trajectory_reviews_pkey" primary key ("id"), constraint trajectory_reviews_note_check check ((char_length(note) <= 2000) and (char_length(verdict_note) <= 4000)));`,
    );
    this.addSql(`create index "trajectory_reviews_session_id_created_at_index" on "trajectory_reviews" ("session_id", "created_at");`);
    this.addSql(`create index "trajectory_reviews_lab_id_created_at_index" on "trajectory_reviews" ("lab_id", "created_at");`);
    this.addSql(`create index "trajectory_reviews_reviewer_id_state_index" on "trajectory_reviews" ("reviewer_id", "state");`);
    this.addSql(
      `create unique index "trajectory_reviews_one_open" on "trajectory_reviews" ("session_id", "reviewer_id") where (state = any (array['requested'::text, 'in_review'::text, 'changes_requested'::text]));`,
    );

    this.addSql(
      `alter table "notices" add constraint "notices_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "trajectory_reviews" add constraint "trajectory_reviews_session_id_foreign" foreign key ("session_id") references "trajectories" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "trajectory_reviews" add constraint "trajectory_reviews_lab_id_foreign" foreign key ("lab_id") references "labs" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "trajectory_reviews" add constraint "trajectory_reviews_requested_by_foreign" foreign key ("requested_by") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "trajectory_reviews" add constraint "trajectory_reviews_reviewer_id_foreign" foreign key ("reviewer_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "notices" cascade;`);

    this.addSql(`drop table if exists "trajectory_reviews" cascade;`);
  }
}
