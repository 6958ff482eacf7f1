import { Migration } from '@mikro-orm/migrations';

export class Migration20261130010002_people_sign_in extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "password_links" ("id" text not null, "user_id" text not null, "secret_hash" text not null, "created_by_id" text null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, "used_at" timestamptz null, constraint "password_links_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "password_links_user_id_index" on "password_links" ("user_id");`);

    this.addSql(
      `create table "user_sessions" ("id" text not null, "user_id" text not null, "secret_hash" text not null, "method" text check ("method" in ('password', 'password_link', 'oidc')) not null, "user_agent" text null, "address" text null, "created_at" timestamptz not null default now(), "last_seen_at" timestamptz not null default now(), "expires_at" timestamptz not null, "revoked_at" timestamptz null, constraint "user_sessions_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "user_sessions_user_id_created_at_index" on "user_sessions" ("user_id", "created_at");`);

    this.addSql(
      `alter table "password_links" add constraint "password_links_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "password_links" add constraint "password_links_created_by_id_foreign" foreign key ("created_by_id") references "users" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "user_sessions" add constraint "user_sessions_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`alter table "users" add column "password_hash" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "password_links" cascade;`);

    this.addSql(`drop table if exists "user_sessions" cascade;`);

    this.addSql(`alter table "users" drop column "password_hash";`);
  }
}
