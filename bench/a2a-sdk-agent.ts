/**
 * The agent both SDK-built sides of bench:a2a run (bench/a2a-reference-server.ts answers with
 * the caller's text, bench/a2a-anchor-server.ts with the scripted model's): the same events,
 * so the two differ only in their task store and where the answer comes from.
 */
import { Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { newId } from '../src/ids';

/** The text parts of the caller's message. */
export const textOf = (context: RequestContext) =>
  context.userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('\n');

/**
 * An agent as the SDK's samples build one: publishes the new task first (the SDK persists it
 * while the answer is made), then `answer`'s text as an artifact, then COMPLETED with it as the
 * agent's message. A failed answer rejects `execute`: the SDK then fails the task itself.
 */
export class AnswerExecutor implements AgentExecutor {
  constructor(
    private readonly answer: (text: string) => Promise<string>,
    /** The answer part's media type. */
    private readonly mediaType = 'text/plain',
  ) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    const now = () => new Date().toISOString();
    if (!context.task) {
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
          artifacts: [],
          history: [context.userMessage],
          metadata: undefined,
        }),
      );
    }
    const text = await this.answer(textOf(context));
    const part = { content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: this.mediaType };
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: { artifactId: `${taskId}-answer`, name: 'answer', description: '', parts: [part], metadata: undefined, extensions: [] },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    const answer = {
      messageId: newId('msg'),
      contextId,
      taskId,
      role: Role.ROLE_AGENT,
      parts: [part],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: answer, timestamp: now() },
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  async cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.finished();
  }
}
