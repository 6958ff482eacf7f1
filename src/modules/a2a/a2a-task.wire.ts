/** A task as the A2A model shows it: what every A2A answer, stream event and push delivery shows of it. */
import { A2aError } from '../../errors';
import { withAbsoluteUrls } from './a2a-artifacts';
import type { TaskRow } from './a2a-task.repository';
import type { A2aArtifact, A2aMessage, A2aTask, A2aTaskStatus } from './a2a.types';

/** The same error for an unknown task and another principal's (spec: `task not found: <task_id>`): no existence oracle. */
export const taskNotFound = (id: string) => new A2aError('TASK_NOT_FOUND', `task not found: ${id}`);

/** A task's status (its message only when it has one). */
export const statusOf = (task: TaskRow): A2aTaskStatus => ({
  state: task.state,
  message: task.statusMessage,
  timestamp: task.statusAt.toISOString(),
});

/**
 * A task with the history and artifacts asked for (undefined: not asked, so not shown);
 * artifact URLs are made absolute on `baseUrl` (the caller's, like the card's).
 */
export function taskOf(task: TaskRow, history: A2aMessage[] | undefined, artifacts: A2aArtifact[] | undefined, baseUrl: string): A2aTask {
  return {
    id: task.id,
    contextId: task.contextId,
    status: statusOf(task),
    artifacts: withAbsoluteUrls(artifacts, baseUrl),
    history,
  };
}
