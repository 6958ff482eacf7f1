import { Migration } from '@mikro-orm/migrations';

/**
 * Activity per user and UTC day (DAU/WAU/MAU, online users) and the indexes admin stats and
 * segmentation read through. Generated, then reviewed: the generator also proposed dropping the
 * hand-written check constraints, partial indexes and the token→lease foreign key that the
 * entities do not model; those lines were removed.
 */
export class Migration20261125171150_activity_stats extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "user_activity_days" ("user_id" text not null, "day" date not null, "last_seen_at" timestamptz not null, constraint "user_activity_days_pkey" primary key ("user_id", "day"), constraint "user_activity_days_day_check" check ("day" = ("last_seen_at" at time zone 'UTC')::date));`,
    );
    this.addSql(`create index "user_activity_days_day_user_id_index" on "user_activity_days" ("day", "user_id");`);
    // The five-minute `last_active_at` kept until now is each user's first day of history.
    this.addSql(
      `insert into "user_activity_days" ("user_id", "day", "last_seen_at") select "id", ("last_active_at" at time zone 'UTC')::date, "last_active_at" from "users" where "last_active_at" is not null;`,
    );

    this.addSql(`create index "usage_entries_created_at_index" on "usage_entries" ("created_at");`);
    this.addSql(`create index "users_domain_index" on "users" ("domain");`);
    this.addSql(`create index "users_created_at_index" on "users" ("created_at");`);
    this.addSql(`create index "users_last_active_at_index" on "users" ("last_active_at");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "user_activity_days" cascade;`);
    this.addSql(`drop index "usage_entries_created_at_index";`);
    this.addSql(`drop index "users_domain_index";`);
    this.addSql(`drop index "users_created_at_index";`);
    this.addSql(`drop index "users_last_active_at_index";`);
  }
}
