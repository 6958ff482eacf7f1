import { Migration } from '@mikro-orm/migrations';

/**
 * Background jobs of the analysis agent's code workspaces. The row is the job's state for every
 * instance: the instance that runs it refreshes `heartbeat_at` while it runs, so any instance can
 * tell a job whose instance died (`lost`) from one still running.
 * Written by hand in the generator's form.
 */
export class Migration20261125193000_agent_workspace_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "agent_workspace_jobs" ("id" uuid not null, "context_id" text not null, "instance_id" uuid not null, "language" text not null, "state" text not null default 'running', "exit_code" int null, "signal" text null, "log_path" text not null, "started_at" timestamptz not null default now(), "heartbeat_at" timestamptz not null default now(), "finished_at" timestamptz null, constraint "agent_workspace_jobs_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "agent_workspace_jobs" add constraint "agent_workspace_jobs_state_check" check ("state" in ('running', 'succeeded', 'failed', 'timed_out', 'lost'));`,
    );
    this.addSql(
      `alter table "agent_workspace_jobs" add constraint "agent_workspace_jobs_language_check" check ("language" in ('python', 'shell'));`,
    );
    this.addSql(
      `alter table "agent_workspace_jobs" add constraint "agent_workspace_jobs_finished_check" check (("state" = 'running') = ("finished_at" is null));`,
    );
    this.addSql(`create index "agent_workspace_jobs_context_id_state_index" on "agent_workspace_jobs" ("context_id", "state");`);
    this.addSql(
      `create index "agent_workspace_jobs_running_heartbeat_index" on "agent_workspace_jobs" ("heartbeat_at") where "state" = 'running';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "agent_workspace_jobs" cascade;`);
  }
}
