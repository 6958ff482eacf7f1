import { Migration } from '@mikro-orm/migrations';

/**
 * Limits on model-backed work (docs/api/limits.md, "Model limits"): one row per subject (`user:<id>`,
 * `a2a:<principal>`) and window (a UTC minute of requests, a UTC day of tokens). Requests are
 * counted at admission; tokens by a trigger on the ledger, so every metered call counts them in
 * the statement that records it, whichever path wrote it. The ledger row names the A2A principal
 * whose turn made the call. Written by hand in the generator's form.
 */
export class Migration20261129010000_model_limits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "usage_entries" add column "a2a_principal" text null;`);
    this.addSql(
      `create table "model_limits" ("subject" text not null, "window_kind" text not null, "window_start" timestamp not null, "requests" int not null default 0, "tokens" bigint not null default 0, constraint "model_limits_pkey" primary key ("subject", "window_kind", "window_start"));`,
    );
    this.addSql(`create index "model_limits_window_start_index" on "model_limits" ("window_start");`);
    this.addSql(`create function "model_limits_count_tokens"() returns trigger language plpgsql as $$
begin
  insert into model_limits (subject, window_kind, window_start, tokens)
  select subject, 'day', date_trunc('day', now() at time zone 'utc'), new.tokens_in + new.tokens_out
    from unnest(array['user:' || new.user_id] || case when new.a2a_principal is null then array[]::text[] else array['a2a:' || new.a2a_principal] end) as subject
  on conflict (subject, window_kind, window_start) do update set tokens = model_limits.tokens + excluded.tokens;
  return null;
end $$;`);
    this.addSql(
      `create trigger "usage_entries_model_tokens" after insert on "usage_entries" for each row when (new.source = 'model_call' and new.tokens_in + new.tokens_out > 0) execute function "model_limits_count_tokens"();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "usage_entries_model_tokens" on "usage_entries";`);
    this.addSql(`drop function if exists "model_limits_count_tokens"();`);
    this.addSql(`drop table if exists "model_limits";`);
    this.addSql(`alter table "usage_entries" drop column if exists "a2a_principal";`);
  }
}
