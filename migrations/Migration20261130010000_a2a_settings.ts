import { Migration } from '@mikro-orm/migrations';

/**
 * The A2A endpoint's settings (one row: enabled, owner) and its keys (SHA-256 digests of their
 * secrets), formerly the files DATA_DIR/a2a.json and a2a-keys.json: in the database, they are in
 * its backups, shared by every instance, and changed at run time (docs/api/a2a.md, "Settings and keys").
 * The files are imported once at start (src/modules/a2a/a2a-settings.ts). Written by hand in the
 * generator's form.
 */
export class Migration20261130010000_a2a_settings extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "a2a_settings" ("id" boolean not null default true, "enabled" boolean not null, "owner_email" text not null, "updated_at" timestamptz not null default now(), constraint "a2a_settings_pkey" primary key ("id"), constraint "a2a_settings_single_row" check ("id"));`,
    );
    this.addSql(
      `create table "a2a_keys" ("id" text not null, "label" text not null, "secret_sha256" text not null, "created_at" timestamptz not null default now(), "revoked_at" timestamptz null, constraint "a2a_keys_pkey" primary key ("id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "a2a_keys";`);
    this.addSql(`drop table if exists "a2a_settings";`);
  }
}
