import { Arg, ID, Int, Resolver, Root, Subscription } from 'type-graphql';
import { Ctx, requireViewer } from '../../context';
import { forbidden, invalid } from '../../errors';
import { failureAsLastEvent, SourceFailure } from '../../subscriptions';
import { authenticate } from '../auth/auth.service';
import { StreamResponse, TaskReader, taskEvents } from './a2a-task.events';
import { canUseA2aWebTools } from './a2a.policy';
import { A2aStreamResponse } from './a2a.types';

const MAX_HISTORY = 1000;
const notForWebTools = () => forbidden('A2A tasks are for the A2A owner and admins');

/**
 * Who reads A2A tasks in this context: the A2A principal the A2A endpoint put there, else a
 * signed-in A2A owner or admin (every principal's tasks). Both are checked again by `stillAllowed`.
 * @throws UNAUTHENTICATED without a caller; FORBIDDEN for a user who is neither owner nor admin
 */
async function readerOf(ctx: Ctx): Promise<TaskReader> {
  const caller = ctx.a2a;
  if (caller) {
    return {
      principal: caller.principal.id,
      stillAllowed: async (em) => {
        if ((await caller.readmit(em)).id !== caller.principal.id) throw forbidden('the A2A principal changed');
      },
    };
  }
  const viewer = await requireViewer(ctx);
  if (!canUseA2aWebTools(viewer, ctx.services.a2aOwner)) throw notForWebTools();
  return {
    principal: null,
    stillAllowed: async (em) => {
      const current = await authenticate(em, ctx.authorization);
      if (!current || !canUseA2aWebTools(current, ctx.services.a2aOwner)) throw notForWebTools();
    },
  };
}

function checkHistoryLength(value: number | null | undefined) {
  if (value !== null && value !== undefined && (value < 0 || value > MAX_HISTORY)) {
    throw invalid([{ path: ['historyLength'], msg: `must be an integer from 0 to ${MAX_HISTORY}`, type: 'value_error' }]);
  }
}

@Resolver()
export class A2aResolver {
  @Subscription(() => A2aStreamResponse, {
    description:
      'The events of an A2A task (A2A StreamResponses): first the task as it is, then its status changes and new artifacts, in order, completing after a terminal state. For the task’s A2A principal (through the A2A endpoint) and for the A2A owner and admins. Read from the database at every change (any instance), with access checked again each time.',
    subscribe: async ({ args, context }) => {
      const ctx = context as Ctx;
      checkHistoryLength(args.historyLength);
      const reader = await readerOf(ctx);
      return failureAsLastEvent(taskEvents(ctx.services, reader, args.taskId, { refuseTerminal: args.refuseTerminal, historyLength: args.historyLength ?? 0 }));
    },
  })
  a2aTaskEvents(
    @Arg('taskId', () => ID, { description: 'The task.' }) _taskId: string,
    @Arg('refuseTerminal', { defaultValue: false, description: 'Refuse a task that is terminal already (UNSUPPORTED_OPERATION), as A2A SubscribeToTask does; otherwise its one event is the task.' }) _refuseTerminal: boolean,
    @Arg('historyLength', () => Int, { nullable: true, description: 'Messages (the most recent, 0 to 1000) in the first event’s task; none by default.' }) _historyLength: number | null,
    @Root() event: StreamResponse | SourceFailure,
  ): StreamResponse {
    if ('failed' in event) throw event.failed;
    return event;
  }
}
