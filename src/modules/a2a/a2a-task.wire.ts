/** A task as A2A 1.0 ProtoJSON: what every A2A answer, stream event and push delivery shows of it. */
import { AppError } from '../../errors';
import { withAbsoluteUrls } from './a2a-artifacts';
import type { TaskRow } from './a2a-task.repository';

type Wire = Record<string, unknown>;

/** The same error for an unknown task and another principal's (spec: `task not found: <task_id>`): no existence oracle. */
export const taskNotFound = (id: string) => new AppError('NOT_FOUND', `task not found: ${id}`, { a2aReason: 'TASK_NOT_FOUND' });

/** A task's status on the wire (its message only when it has one). */
export const statusOnWire = (task: TaskRow): Wire => ({
  state: task.state,
  ...(task.statusMessage ? { message: task.statusMessage } : {}),
  timestamp: task.statusAt.toISOString(),
});

/**
 * A task on the wire (A2A 1.0 ProtoJSON). `history` undefined omits the key (historyLength 0), as
 * does `artifacts`; artifact URLs are made absolute on `baseUrl` (the caller's, like the card's).
 */
export function wireTask(task: TaskRow, history: Wire[] | undefined, artifacts: Wire[] | undefined, baseUrl: string): Wire {
  const shown = withAbsoluteUrls(artifacts, baseUrl);
  return {
    id: task.id,
    contextId: task.contextId,
    status: statusOnWire(task),
    ...(shown ? { artifacts: shown } : {}),
    ...(history ? { history } : {}),
  };
}
