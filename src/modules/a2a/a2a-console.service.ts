import { randomUUID } from 'node:crypto';
import { forkEm, type Services } from '../../context';
import { sqlOf } from '../../db/sql';
import { AppError, notFound } from '../../errors';
import type { ApprovalDecision } from './a2a-turn.repository';
import { createKey, listKeys, revokeKey, type StoredKey } from './a2a-settings.repository';
import { findTaskById } from './a2a-task.repository';
import { startMessage, taskWithDetails } from './a2a-task.service';
import type { A2aTask } from './a2a.types';
import { KEY_LABEL } from './a2a.policy';

/*
 * What the A2A owner and administrators do from the web console (the callers check who may):
 * the endpoint's keys, and answering a task that waits for an approval as its caller would.
 */

type ConsoleServices = Parameters<typeof startMessage>[0] & Pick<Services, 'orm' | 'config'>;

export const keys = (services: Pick<Services, 'orm'>): Promise<StoredKey[]> => listKeys(sqlOf(forkEm(services)));

/** A new key: its plaintext is in the answer once and never stored. @throws VALIDATION_FAILED */
export async function newKey(services: Pick<Services, 'orm'>, label: string) {
  if (!KEY_LABEL.test(label))
    throw new AppError('VALIDATION_FAILED', 'label: 1 to 100 letters, digits, spaces or ._:@/-', undefined, [
      { path: ['label'], msg: '1 to 100 letters, digits, spaces or ._:@/-', type: 'value_error' },
    ]);
  return createKey(sqlOf(forkEm(services)), label);
}

/** Revokes a key at once, on every instance. @throws NOT_FOUND for no such active key */
export async function endKey(services: Pick<Services, 'orm'>, id: string): Promise<StoredKey> {
  const revoked = await revokeKey(sqlOf(forkEm(services)), id);
  if (!revoked) throw notFound('active key');
  return revoked;
}

/**
 * Answers a task that waits for an approval, as its caller would with a data part
 * `{decision}` (sendMessage): `allow_once`, `allow_session` or `deny`. The message says who
 * answered (`metadata.answeredBy`).
 * @throws NOT_FOUND for an unknown task; VALIDATION_FAILED when it is not waiting for an approval
 */
export async function answerApproval(
  services: ConsoleServices,
  taskId: string,
  decision: ApprovalDecision,
  answeredBy: string,
): Promise<A2aTask> {
  const em = forkEm(services);
  const task = await findTaskById(sqlOf(em), taskId);
  if (!task) throw notFound('task');
  await startMessage(
    services,
    { id: task.principal, ownerId: task.ownerId },
    {
      message: {
        messageId: randomUUID(),
        taskId: task.id,
        role: 'ROLE_USER',
        parts: [{ data: { decision } }],
        metadata: { answeredBy },
      },
    },
  );
  return taskWithDetails(sqlOf(forkEm(services)), null, task.id, 20, services.config.publicUrl);
}
