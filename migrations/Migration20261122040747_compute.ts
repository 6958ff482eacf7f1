import { Migration } from '@mikro-orm/migrations';

export class Migration20261122040747_compute extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "credit_accounts" ("user_id" text not null, "balance" numeric(14,4) not null default 0, "reserved" numeric(14,4) not null default 0, "tokens_in" bigint not null default 0, "tokens_out" bigint not null default 0, "token_credits" numeric(14,4) not null default 0, constraint "credit_accounts_pkey" primary key ("user_id"), constraint credit_accounts_check check (balance >= 0 and reserved >= 0 and reserved <= balance));`,
    );
    this.addSql(
      `create table "credit_entries" ("id" bigserial primary key, "user_id" text not null, "kind" text not null, "credits" numeric(14,4) not null, "lease_id" int null, "plan_id" int null, "reason" text null, "created_at" timestamptz not null default now(), constraint credit_entries_kind_check check (kind in ('allowance', 'grant', 'lease_spend', 'token_charge')));`,
    );
    this.addSql(`create index "credit_entries_user_id_id_index" on "credit_entries" ("user_id", "id");`);

    this.addSql(
      `create table "compute_plans" ("id" serial primary key, "user_id" text not null, "status" text not null, "goal" text not null, "inputs" jsonb not null, "machine" jsonb not null, "steps" jsonb not null, "estimated_minutes" int not null, "estimated_credits" numeric(14,4) not null, "spend_ceiling_credits" numeric(14,4) not null, "token_charge" jsonb not null, "created_at" timestamptz not null default now(), "decided_at" timestamptz null, constraint compute_plans_status_check check (status in ('awaiting_decision', 'approved', 'declined', 'superseded')));`,
    );
    // At most one undecided plan per user: a page reload cannot buy a second one.
    this.addSql(`create unique index "compute_plans_one_undecided" on "compute_plans" ("user_id") where status = 'awaiting_decision';`);

    this.addSql(
      `create table "compute_leases" ("id" serial primary key, "user_id" text not null, "plan_id" int null, "state" text not null, "provider" text not null, "machine" jsonb not null, "rate_credits_per_minute" numeric(14,4) not null, "ceiling_credits" numeric(14,4) null, "spent_credits" numeric(14,4) not null default 0, "claim_token_hash" text null, "process_token_hash" text null, "idle_expires_at" timestamptz not null, "bootstrap_deadline" timestamptz not null, "last_metered_at" timestamptz not null, "created_at" timestamptz not null default now(), "released_at" timestamptz null, constraint compute_leases_state_check check (state in ('awaiting_sandbox', 'ready', 'paused', 'released', 'expired')), constraint compute_leases_spend_check check (spent_credits >= 0 and (ceiling_credits is null or spent_credits <= ceiling_credits)));`,
    );
    this.addSql(`create unique index "compute_leases_claim_token_hash_index" on "compute_leases" ("claim_token_hash");`);
    this.addSql(`create index "compute_leases_state_last_metered_at_index" on "compute_leases" ("state", "last_metered_at");`);
    this.addSql(`create index "compute_leases_user_id_state_index" on "compute_leases" ("user_id", "state");`);

    this.addSql(
      `create table "lease_idle_refreshes" ("id" bigserial primary key, "lease_id" int not null, "source" text not null, "at" timestamptz not null, "idle_expires_at" timestamptz not null);`,
    );
    this.addSql(`create index "lease_idle_refreshes_lease_id_at_index" on "lease_idle_refreshes" ("lease_id", "at");`);

    this.addSql(
      `alter table "credit_entries" add constraint "credit_entries_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "credit_accounts" add constraint "credit_accounts_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "compute_plans" add constraint "compute_plans_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "compute_leases" add constraint "compute_leases_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "lease_idle_refreshes" add constraint "lease_idle_refreshes_lease_id_foreign" foreign key ("lease_id") references "compute_leases" ("id") on update cascade on delete cascade;`,
    );

    // Accounts that exist already get their plan's allowance, as new ones do (docs/api/admin.md, "Plans").
    this.addSql(
      `insert into credit_accounts (user_id, balance) select id, case plan_code when 'pro' then 100 when 'lab' then 200 when 'enterprise' then 1000 else 10 end from users;`,
    );
    this.addSql(
      `insert into credit_entries (user_id, kind, credits, reason) select user_id, 'allowance', balance, 'plan allowance' from credit_accounts;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "lease_idle_refreshes" cascade;`);
    this.addSql(`drop table if exists "compute_leases" cascade;`);
    this.addSql(`drop table if exists "compute_plans" cascade;`);
    this.addSql(`drop table if exists "credit_entries" cascade;`);
    this.addSql(`drop table if exists "credit_accounts" cascade;`);
  }
}
