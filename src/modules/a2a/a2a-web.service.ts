import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';
import { forbidden } from '../../errors';
import { forkEm, type Services } from '../../context';
import type { Viewer } from '../auth/viewer';
import { pageInfoOf, PageInfo } from '../../pagination';
import { isAdmin } from '../admin/admin.policy';
import { canUseA2aWebTools } from './a2a.policy';
import { enabledOwner } from './a2a-settings.repository';
import * as repo from './a2a-task.repository';
import { ContextRow } from './a2a-task.repository';
import { taskWithDetails } from './a2a-task.service';
import { taskOf } from './a2a-task.wire';
import type { A2aTask } from './a2a.types';

// Reads for the A2A owner's web tools: every principal's tasks (the callers authorize first).

/** Whether the viewer may use the A2A web tools now: admins, and the A2A owner while A2A is enabled (asked only for others). */
export async function mayUseWebTools(em: EntityManager, viewer: Viewer): Promise<boolean> {
  return isAdmin(viewer) || canUseA2aWebTools(viewer, await enabledOwner(sqlOf(em)));
}

export const notForWebTools = () => forbidden('A2A tasks are for the A2A owner and admins');

/** The signed-in viewer may use the web tools (`mayUseWebTools`). @throws FORBIDDEN */
export async function requireWebTools(em: EntityManager, viewer: Viewer): Promise<void> {
  if (!(await mayUseWebTools(em, viewer))) throw notForWebTools();
}

type WebServices = Pick<Services, 'orm' | 'config'>;
const queryOf = (services: WebServices) => sqlOf(forkEm(services));

/**
 * Any principal's task with its artifacts and most recent `historyLength` messages.
 * @throws NOT_FOUND (TASK_NOT_FOUND) for an unknown task
 */
export async function anyTask(services: WebServices, id: string, historyLength: number | null | undefined): Promise<A2aTask> {
  return taskWithDetails(queryOf(services), null, id, historyLength, services.config.publicUrl);
}

/** One page of every principal's tasks (newest status first) with their artifacts, filtered. */
export async function allTasks(
  services: WebServices,
  filter: { principal?: string; contextId?: string; state?: string },
  page: { limit: number; offset: number },
): Promise<{ nodes: A2aTask[]; pageInfo: PageInfo; totalCount: number }> {
  const q = queryOf(services);
  const { rows, total } = await repo.allTasks(q, filter, page.limit, page.offset);
  const artifacts = await repo.artifactsOf(
    q,
    rows.map((task) => task.id),
  );
  return {
    nodes: rows.map((task) => taskOf(task, undefined, artifacts.get(task.id), services.config.publicUrl)),
    pageInfo: pageInfoOf(page.offset, rows.length, total),
    totalCount: total,
  };
}

/** One page of every principal's contexts, most recently active first. */
export async function allContexts(
  services: WebServices,
  page: { limit: number; offset: number },
): Promise<{ nodes: ContextRow[]; pageInfo: PageInfo; totalCount: number }> {
  const { rows, total } = await repo.allContexts(queryOf(services), page.limit, page.offset);
  return { nodes: rows, pageInfo: pageInfoOf(page.offset, rows.length, total), totalCount: total };
}
