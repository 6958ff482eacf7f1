import { Check, Entity, Enum, Index, Opt, PrimaryKey, Property } from '@mikro-orm/core';
import { LANGUAGES } from './jail';
import { JOB_STATES, JobState } from './workspace-job.repository';

/**
 * Schema only: a background job of the agent's workspace (workspace-job.repository.ts reads and
 * writes it). The instance that runs it beats `heartbeat_at`; a job whose beats stop is `lost`.
 */
@Entity({ tableName: 'agent_workspace_jobs' })
@Index({ properties: ['contextId', 'state'] })
/** The sweeper reads the running jobs whose heartbeat stopped. */
@Index({
  name: 'agent_workspace_jobs_running_heartbeat_index',
  expression: `create index "agent_workspace_jobs_running_heartbeat_index" on "agent_workspace_jobs" ("heartbeat_at") where (state = 'running'::text)`,
})
@Check({ name: 'agent_workspace_jobs_finished_check', expression: `(state = 'running'::text) = (finished_at is null)` })
export class WorkspaceJobEntity {
  @PrimaryKey({ type: 'uuid' })
  id!: string;

  @Property({ type: 'text' })
  contextId!: string;

  @Property({ type: 'uuid' })
  instanceId!: string;

  @Enum({ items: [...LANGUAGES] })
  language!: string;

  @Enum({ items: [...JOB_STATES], default: 'running' })
  state!: JobState & Opt;

  @Property({ type: 'integer', nullable: true })
  exitCode: number | null = null;

  @Property({ type: 'text', nullable: true })
  signal: string | null = null;

  @Property({ type: 'text' })
  logPath!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  startedAt!: Date & Opt;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  heartbeatAt!: Date & Opt;

  @Property({ type: 'datetime', nullable: true })
  finishedAt: Date | null = null;
}
