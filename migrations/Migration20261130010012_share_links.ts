import { Migration } from '@mikro-orm/migrations';

/**
 * Share links: read-only links to a trajectory for people without an account, kept by their
 * token's SHA-256 (docs/api/sharing.md).
 */
export class Migration20261130010012_share_links extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "trajectory_share_links" ("id" text not null, "session_id" text not null, "created_by" text not null, "token_hash" text not null, "mask_emails" boolean not null default false, "expires_at" timestamptz null, "revoked_at" timestamptz null, "views" int not null default 0, "last_viewed_at" timestamptz null, "created_at" timestamptz not null default now(), constraint "trajectory_share_links_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "trajectory_share_links" add constraint "trajectory_share_links_token_hash_unique" unique ("token_hash");`);
    this.addSql(
      `create index "trajectory_share_links_session_id_created_at_index" on "trajectory_share_links" ("session_id", "created_at");`,
    );

    this.addSql(
      `alter table "trajectory_share_links" add constraint "trajectory_share_links_session_id_foreign" foreign key ("session_id") references "trajectories" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "trajectory_share_links" add constraint "trajectory_share_links_created_by_foreign" foreign key ("created_by") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "trajectory_share_links" cascade;`);
  }
}
