import { Migration } from '@mikro-orm/migrations';

export class Migration20261122013349_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "audit_events" ("id" bigserial primary key, "lab_id" text null, "actor_id" text null, "subject_user_id" text null, "action" text not null, "detail" jsonb null, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "audit_events_lab_id_created_at_index" on "audit_events" ("lab_id", "created_at");`);

    this.addSql(
      `create table "instance_secrets" ("name" text not null, "value" text not null, constraint "instance_secrets_pkey" primary key ("name"));`,
    );

    this.addSql(
      `create table "usage_entries" ("id" bigserial primary key, "user_id" text not null, "lab_id" text null, "session_id" text null, "source" text not null, "tokens_in" bigint not null default 0, "tokens_out" bigint not null default 0, "created_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "usage_entries_user_id_created_at_index" on "usage_entries" ("user_id", "created_at");`);
    this.addSql(`create index "usage_entries_lab_id_user_id_index" on "usage_entries" ("lab_id", "user_id");`);

    this.addSql(
      `create table "users" ("id" text not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "email" text not null, "name" text not null, "phone" text null, "plan_code" text not null default 'free', "plan_source" text not null default 'admin', "plan_expires_at" timestamptz null, "is_admin" boolean not null default false, "disabled" boolean not null default false, "domain" text not null default 'omics', "institution" text null, "institution_tier" text null, "institution_type" text null, "institution_name" text null, "storage_quota_bytes" bigint null, "storage_used_bytes" bigint not null default 0, "last_active_at" timestamptz null, constraint "users_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "users" add constraint "users_email_unique" unique ("email");`);
    this.addSql(`create index "users_plan_code_index" on "users" ("plan_code");`);

    this.addSql(
      `create table "labs" ("id" text not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "name" text not null, "status" text not null default 'active', "seat_quota" int not null default 10, "owner_id" text not null, "code_hash" text not null, "code_sealed" text not null, "code_expires_at" timestamptz not null, constraint "labs_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "labs_status_index" on "labs" ("status");`);
    this.addSql(`alter table "labs" add constraint "labs_code_hash_unique" unique ("code_hash");`);

    this.addSql(
      `create table "lab_members" ("id" bigserial primary key, "lab_id" text not null, "user_id" text not null, "role" text not null, "status" text not null, "created_at" timestamptz not null default now(), "joined_at" timestamptz null, "updated_at" timestamptz not null default now());`,
    );
    this.addSql(`create index "lab_members_user_id_index" on "lab_members" ("user_id");`);
    this.addSql(`alter table "lab_members" add constraint "lab_members_lab_id_user_id_unique" unique ("lab_id", "user_id");`);

    this.addSql(
      `create table "device_logins" ("id" text not null, "device_code_hash" text not null, "user_code" text not null, "status" text not null default 'pending', "user_id" text null, "expires_at" timestamptz not null, "created_at" timestamptz not null default now(), constraint "device_logins_pkey" primary key ("id"));`,
    );
    this.addSql(`alter table "device_logins" add constraint "device_logins_device_code_hash_unique" unique ("device_code_hash");`);
    this.addSql(`alter table "device_logins" add constraint "device_logins_user_code_unique" unique ("user_code");`);

    this.addSql(
      `create table "auth_tokens" ("id" text not null, "user_id" text not null, "kind" text not null, "label" text not null default '', "secret_hash" text not null, "family_id" text null, "expires_at" timestamptz null, "revoked_at" timestamptz null, "used_at" timestamptz null, "created_at" timestamptz not null default now(), constraint "auth_tokens_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "auth_tokens_user_id_index" on "auth_tokens" ("user_id");`);
    this.addSql(`create index "auth_tokens_family_id_index" on "auth_tokens" ("family_id");`);

    this.addSql(
      `alter table "labs" add constraint "labs_owner_id_foreign" foreign key ("owner_id") references "users" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "lab_members" add constraint "lab_members_lab_id_foreign" foreign key ("lab_id") references "labs" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "lab_members" add constraint "lab_members_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade;`,
    );

    this.addSql(
      `alter table "device_logins" add constraint "device_logins_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "auth_tokens" add constraint "auth_tokens_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );

    // Invariants the application relies on, enforced where no code path can skip them.
    this.addSql(`alter table "users" add constraint "users_plan_code_check" check ("plan_code" in ('free', 'pro', 'lab', 'enterprise'));`);
    this.addSql(
      `alter table "users" add constraint "users_plan_source_check" check ("plan_source" in ('paid', 'promo', 'trial', 'admin'));`,
    );
    this.addSql(
      `alter table "users" add constraint "users_storage_check" check ("storage_used_bytes" >= 0 and ("storage_quota_bytes" is null or "storage_quota_bytes" >= 0));`,
    );
    this.addSql(`alter table "labs" add constraint "labs_status_check" check ("status" in ('active', 'suspended', 'archived'));`);
    this.addSql(`alter table "labs" add constraint "labs_seat_quota_check" check ("seat_quota" >= 1);`);
    this.addSql(`alter table "lab_members" add constraint "lab_members_role_check" check ("role" in ('owner', 'mentor', 'member'));`);
    this.addSql(
      `alter table "lab_members" add constraint "lab_members_status_check" check ("status" in ('pending', 'active', 'rejected', 'revoked', 'left'));`,
    );
    this.addSql(`alter table "auth_tokens" add constraint "auth_tokens_kind_check" check ("kind" in ('pat', 'access', 'refresh'));`);
    this.addSql(
      `alter table "device_logins" add constraint "device_logins_status_check" check ("status" in ('pending', 'approved', 'consumed'));`,
    );
  }

  override async down(): Promise<void> {
    for (const table of [
      'auth_tokens',
      'device_logins',
      'lab_members',
      'labs',
      'users',
      'usage_entries',
      'instance_secrets',
      'audit_events',
    ]) {
      this.addSql(`drop table if exists "${table}" cascade;`);
    }
  }
}
