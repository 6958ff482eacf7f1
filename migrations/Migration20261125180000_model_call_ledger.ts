import { Migration } from '@mikro-orm/migrations';

/**
 * Model calls in the usage ledger: what each was for, the model, its credits at the catalog's
 * prices, its latency and outcome. Nullable (or 0) for the rows that trajectories and the
 * planner write. Generated, then reviewed: the generator also proposed dropping the
 * hand-written check constraints the entities do not model; those lines were removed.
 */
export class Migration20261125180000_model_call_ledger extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "usage_entries" add column "feature" text null, add column "model" text null, add column "credits" numeric(14,6) not null default 0, add column "latency_ms" int null, add column "outcome" text null;`,
    );
    this.addSql(`alter table "usage_entries" add constraint "usage_entries_outcome_check" check ("outcome" in ('ok', 'error'));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "usage_entries" drop constraint "usage_entries_outcome_check";`);
    this.addSql(
      `alter table "usage_entries" drop column "feature", drop column "model", drop column "credits", drop column "latency_ms", drop column "outcome";`,
    );
  }
}
