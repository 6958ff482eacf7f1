import { Migration } from '@mikro-orm/migrations';

/**
 * The analysis agent's loop state, per task (`a2a_turns`): what the model has seen and said so far
 * (the transcript), the calls waiting for an approval and the decision taken, the background jobs
 * the turn started, and its answer while those jobs still run. Kept in PostgreSQL so that a
 * decision or a job's end may arrive hours later, on any instance. `a2a_context_grants` records
 * `allow_session`: execution calls of that principal's context run without asking. Artifacts gain
 * a `position` (their 0-based index is the order of positions). Written by hand in the generator's form.
 */
export class Migration20261126010000_a2a_agent_turns extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "a2a_turns" ("task_id" text not null, "phase" text not null default 'running', "transcript" jsonb not null default '[]', "pending" jsonb null, "decision" text null, "steps" int not null default 0, "seen_seq" int not null default 0, "outputs_before" jsonb not null default '{}', "job_ids" text[] not null default '{}', "answer" text null, "updated_at" timestamptz not null default now(), constraint "a2a_turns_pkey" primary key ("task_id"));`,
    );
    this.addSql(
      `alter table "a2a_turns" add constraint "a2a_turns_task_id_foreign" foreign key ("task_id") references "a2a_tasks" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "a2a_turns" add constraint "a2a_turns_phase_check" check ("phase" in ('running', 'awaiting_approval', 'awaiting_jobs'));`,
    );
    this.addSql(
      `alter table "a2a_turns" add constraint "a2a_turns_decision_check" check ("decision" is null or "decision" in ('allow_once', 'allow_session'));`,
    );
    this.addSql(`create index "a2a_turns_phase_index" on "a2a_turns" ("phase") where "phase" = 'awaiting_jobs';`);
    this.addSql(
      `create table "a2a_context_grants" ("principal" text not null, "context_id" text not null, "granted_at" timestamptz not null default now(), constraint "a2a_context_grants_pkey" primary key ("principal", "context_id"));`,
    );
    this.addSql(`alter table "a2a_artifacts" add column "position" int not null default 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "a2a_artifacts" drop column "position";`);
    this.addSql(`drop table if exists "a2a_context_grants" cascade;`);
    this.addSql(`drop table if exists "a2a_turns" cascade;`);
  }
}
