import { Migration } from '@mikro-orm/migrations';

export class Migration20261122032423_blobs_releases_catalog extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "blobs" ("sha256" text not null, "bytes" bigint not null, "created_at" timestamptz not null default now(), constraint "blobs_pkey" primary key ("sha256"), constraint blobs_check check (sha256 ~ '^[0-9a-f]{64}$' and bytes >= 0));`,
    );

    this.addSql(
      `create table "model_catalogs" ("id" integer not null, "body" text not null, "updated_by" text not null, "updated_at" timestamptz not null default now(), constraint "model_catalogs_pkey" primary key ("id"), constraint model_catalogs_one check (id = 1));`,
    );

    this.addSql(
      `create table "release_files" ("product" text not null, "version" text not null, "filename" text not null, "size" bigint not null, "sha256" text not null, "sha512" text not null, "downloads" bigint not null default 0, "created_at" timestamptz not null default now(), constraint "release_files_pkey" primary key ("product", "version", "filename"), constraint release_files_check check (size >= 0 and downloads >= 0));`,
    );

    this.addSql(
      `create table "release_manifests" ("product" text not null, "version" text not null, "manifest" jsonb not null, "published_at" timestamptz not null default now(), constraint "release_manifests_pkey" primary key ("product", "version"));`,
    );
    this.addSql(`create index "release_manifests_current_index" on "release_manifests" ("product", "published_at");`);

    this.addSql(
      `create table "figures" ("session_id" text not null, "canonical_path" text not null, "cdn_url" text null, "storage_uri" text null, "original_uri" text null, "compressed" boolean null, "mime" text null, "bytes" bigint null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "figures_pkey" primary key ("session_id", "canonical_path"), constraint figures_target_check check (cdn_url is not null or storage_uri is not null));`,
    );

    this.addSql(
      `create table "blob_owners" ("user_id" text not null, "sha256" text not null, "bytes" bigint not null, "created_at" timestamptz not null default now(), constraint "blob_owners_pkey" primary key ("user_id", "sha256"));`,
    );
    this.addSql(`create index "blob_owners_sha256_index" on "blob_owners" ("sha256");`);

    this.addSql(
      `alter table "figures" add constraint "figures_session_id_foreign" foreign key ("session_id") references "trajectories" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "blob_owners" add constraint "blob_owners_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "blob_owners" add constraint "blob_owners_sha256_foreign" foreign key ("sha256") references "blobs" ("sha256") on update cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "blob_owners" cascade;`);
    this.addSql(`drop table if exists "figures" cascade;`);
    this.addSql(`drop table if exists "release_manifests" cascade;`);
    this.addSql(`drop table if exists "release_files" cascade;`);
    this.addSql(`drop table if exists "model_catalogs" cascade;`);
    this.addSql(`drop table if exists "blobs" cascade;`);
  }
}
