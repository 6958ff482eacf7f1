import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sqlOf } from '../../db/sql';
import { messageTimes, taskCallers, type MessageKey, type TaskCallerRow } from './a2a-console.repository';

/** Per-request loaders for the console's fields of A2A tasks: a page of tasks or a history costs one query per field. */
export function makeA2aLoaders(emOf: () => EntityManager) {
  return {
    a2aCallerByTaskId: new DataLoader<string, TaskCallerRow | null>((taskIds) => taskCallers(sqlOf(emOf()), taskIds)),
    a2aMessageTimeByKey: new DataLoader<MessageKey, Date | null, string>((keys) => messageTimes(sqlOf(emOf()), keys), {
      cacheKeyFn: (key) => `${key.taskId} ${key.messageId}`,
    }),
  };
}
