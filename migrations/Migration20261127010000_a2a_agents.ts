import { Migration } from '@mikro-orm/migrations';

/**
 * The outbound A2A registry: each user's external agents (docs/api/outbound-agents.md). The
 * key is sealed by the service's Sealer (never in clear in the database); `status`, `error` and
 * `checked_at` record the last test; `test_until` is the lease of a test in flight, so two
 * instances never test one entry at once. Written by hand in the generator's form.
 */
export class Migration20261127010000_a2a_agents extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "a2a_agents" ("user_id" text not null, "id" text not null, "name" text not null, "url" text not null, "api_key_sealed" text null, "enabled" boolean not null default true, "allow_private" boolean not null default false, "status" text not null default 'pending', "error" text null, "checked_at" timestamptz null, "test_until" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "a2a_agents_pkey" primary key ("user_id", "id"));`,
    );
    this.addSql(
      `alter table "a2a_agents" add constraint "a2a_agents_user_id_foreign" foreign key ("user_id") references "users" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "a2a_agents" add constraint "a2a_agents_status_check" check ("status" = 'pending' and "error" is null and "checked_at" is null or "status" = 'ok' and "error" is null and "checked_at" is not null or "status" = 'failed' and "error" is not null and "checked_at" is not null);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "a2a_agents" cascade;`);
  }
}
