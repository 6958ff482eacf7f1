import fsp from 'node:fs/promises';
import type { Services } from '../../context';
import { sqlOf } from '../../db/sql';
import { startPeriodic } from '../../jobs/periodic';
import type { Logger } from '../../logger';
import { workspaceOf } from './a2a-workspace';
import { deleteTasks, expiredContexts } from './a2a-artifact.repository';
import { artifactDirOf } from './a2a-artifacts';
import { TERMINAL_STATES } from './a2a-states';

/** How often an instance looks for contexts past their retention. */
const RETENTION_SWEEP_SECONDS = 3600;
/** Contexts one pass removes at most (the next pass takes the rest). */
const CONTEXTS_PER_PASS = 100;

/**
 * Removes what A2A contexts that finished more than `A2A_RETENTION_DAYS` ago hold: the artifact
 * copies of their tasks, their workspace, then the tasks (with their messages, artifacts and
 * artifact budget rows). A context with a background job still running is left for a later pass.
 * Answers how many contexts were removed.
 */
export async function sweepExpiredContexts(services: Pick<Services, 'config' | 'orm' | 'agent'>, logger: Logger): Promise<number> {
  const days = services.config.a2aArtifacts.retentionDays;
  if (days === 0) return 0;
  const q = sqlOf(services.orm.em.fork());
  let removed = 0;
  for (const context of await expiredContexts(q, TERMINAL_STATES, days, CONTEXTS_PER_PASS)) {
    const workspace = workspaceOf(context.principal, context.contextId);
    try {
      if ((await services.agent.jobs.running(workspace)).length > 0) continue;
      for (const taskId of context.taskIds) await fsp.rm(artifactDirOf(services, taskId), { recursive: true, force: true });
      await services.agent.workspaces.removeWorkspace(workspace);
      await deleteTasks(q, context.taskIds);
      removed++;
    } catch (error) {
      logger.warn('an expired A2A context could not be removed', { contextId: context.contextId, error: String(error) });
    }
  }
  if (removed) logger.info('expired A2A contexts removed', { contexts: removed, retentionDays: days });
  return removed;
}

export function startRetentionSweep(services: Pick<Services, 'config' | 'orm' | 'agent'>, logger: Logger): () => Promise<void> {
  return startPeriodic(
    'A2A retention sweep',
    RETENTION_SWEEP_SECONDS,
    async () => void (await sweepExpiredContexts(services, logger)),
    logger,
  );
}
