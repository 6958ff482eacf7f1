import { Migration } from '@mikro-orm/migrations';

/**
 * The token line read from the ledgers, model critique findings reused while a session is
 * unchanged, and who drafted a plan.
 * - The token line's counts were kept twice (usage rows with `source = planner` and counters on
 *   `credit_accounts`); it now sums the usage ledger's `plan` rows (model calls and the
 *   estimator's nominal rows) and the credit ledger's `token_charge` entries, so the counters
 *   go. Existing planner rows get `feature = plan` and the nominal credits they were priced at.
 * Written by hand in the generator's form; down() rebuilds the counters from the ledgers.
 */
export class Migration20261125191000_model_planner_critique extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "trajectory_critiques" ("session_id" text not null, "head_uuid" text not null, "record_count" int not null, "model" text not null, "findings" jsonb not null, "created_at" timestamptz not null default now(), constraint "trajectory_critiques_pkey" primary key ("session_id"));`,
    );
    this.addSql(
      `alter table "trajectory_critiques" add constraint "trajectory_critiques_session_id_foreign" foreign key ("session_id") references "trajectories" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`alter table "compute_plans" add column "drafted_by" text not null default 'estimator';`);
    this.addSql(
      `alter table "compute_plans" add constraint "compute_plans_drafted_by_check" check ("drafted_by" in ('model', 'estimator'));`,
    );

    this.addSql(
      `update "usage_entries" set "feature" = 'plan', "credits" = round(("tokens_in" + "tokens_out") / 1000.0 * 0.002, 4) where "source" = 'planner';`,
    );
    this.addSql(`create index "usage_entries_user_id_feature_index" on "usage_entries" ("user_id", "feature");`);
    this.addSql(`create index "credit_entries_user_id_kind_index" on "credit_entries" ("user_id", "kind");`);
    this.addSql(`alter table "credit_accounts" drop column "tokens_in", drop column "tokens_out", drop column "token_credits";`);
  }

  override async down(): Promise<void> {
    this.addSql(
      `alter table "credit_accounts" add column "tokens_in" bigint not null default 0, add column "tokens_out" bigint not null default 0, add column "token_credits" numeric(14,4) not null default 0;`,
    );
    this.addSql(`update "credit_accounts" a set
      "tokens_in" = coalesce((select sum(u."tokens_in") from "usage_entries" u where u."user_id" = a."user_id" and u."feature" = 'plan'), 0),
      "tokens_out" = coalesce((select sum(u."tokens_out") from "usage_entries" u where u."user_id" = a."user_id" and u."feature" = 'plan'), 0),
      "token_credits" = coalesce((select -sum(e."credits") from "credit_entries" e where e."user_id" = a."user_id" and e."kind" = 'token_charge'), 0);`);
    this.addSql(`drop index "credit_entries_user_id_kind_index";`);
    this.addSql(`drop index "usage_entries_user_id_feature_index";`);
    this.addSql(`update "usage_entries" set "feature" = null, "credits" = 0 where "source" = 'planner';`);

    this.addSql(`alter table "compute_plans" drop constraint "compute_plans_drafted_by_check";`);
    this.addSql(`alter table "compute_plans" drop column "drafted_by";`);
    this.addSql(`drop table if exists "trajectory_critiques" cascade;`);
  }
}
