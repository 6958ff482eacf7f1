import {
  Arg,
  Ctx as Context,
  Extensions,
  Field,
  FieldResolver,
  ID,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  registerEnumType,
  Root,
} from 'type-graphql';
import type { Ctx } from '../../context';
import type { Viewer } from '../auth/viewer';
import * as consoleTools from './a2a-console.service';
import { mayUseWebTools, requireWebTools } from './a2a-web.service';
import { OPEN_PRINCIPAL } from './a2a-caller';
import { A2aTask } from './a2a.types';
import { Caller, CallerA2aPrincipalId, MINTS_CREDENTIAL, SIGNED_IN } from '../../operation-rules';

enum ApprovalDecisionValue {
  allow_once = 'allow_once',
  allow_session = 'allow_session',
  deny = 'deny',
}
registerEnumType(ApprovalDecisionValue, {
  name: 'A2aApprovalDecision',
  description:
    'allow_once: the pending calls run; allow_session: these and every later one of the conversation; deny: the task is canceled.',
});

@ObjectType({ description: 'A key of the A2A endpoint (never its secret).' })
class A2aKeyNode {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Who it is for.' })
  label!: string;

  @Field()
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'Set once revoked: requests with it are refused (401).' })
  revokedAt!: Date | null;
}

@ObjectType({ description: 'A new key, with its secret: shown this once, only its digest is kept.' })
class A2aKeyCreated {
  @Field(() => A2aKeyNode)
  key!: A2aKeyNode;

  @Field({ description: 'The key to give the collaborator (`ldk_a2a_…`).' })
  secret!: string;
}

@ObjectType({ description: 'What the caller may do with the A2A endpoint from the console.' })
class A2aViewerCan {
  @Field({
    description:
      'The A2A web tools (canUseA2aWebTools): the keys (a2aKeys, a2aKeyCreate, a2aKeyRevoke), every task (a2aTasks, a2aTask) and approvals (a2aApprovalAnswer). The A2A owner while A2A is enabled, and admins.',
  })
  useWebTools!: boolean;
}

/** The A2A endpoint's keys and approvals, for the A2A owner and administrators (the web console). */
@Resolver()
export class A2aConsoleResolver {
  @Extensions(SIGNED_IN)
  @Query(() => A2aViewerCan, { description: 'What the caller may do with the A2A endpoint (any signed-in user may ask).' })
  async a2aViewerCan(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<A2aViewerCan> {
    return { useWebTools: await mayUseWebTools(ctx.em, viewer) };
  }

  @Extensions(SIGNED_IN)
  @Query(() => [A2aKeyNode], { description: 'The A2A endpoint’s keys, revoked ones too, oldest first: for the A2A owner and admins.' })
  async a2aKeys(@Context() ctx: Ctx, @Caller() viewer: Viewer): Promise<A2aKeyNode[]> {
    await requireWebTools(ctx.em, viewer);
    return consoleTools.keys(ctx.services);
  }

  @Extensions({ ...SIGNED_IN, ...MINTS_CREDENTIAL })
  @Mutation(() => A2aKeyCreated, { description: 'Creates a key of the A2A endpoint, usable at once: for the A2A owner and admins.' })
  async a2aKeyCreate(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('label', { description: '1 to 100 letters, digits, spaces or ._:@/-' }) label: string,
  ) {
    await requireWebTools(ctx.em, viewer);
    const { key, plaintext } = await consoleTools.newKey(ctx.services, label);
    return { key, secret: plaintext };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => A2aKeyNode, { description: 'Revokes a key at once, on every instance: for the A2A owner and admins.' })
  async a2aKeyRevoke(@Context() ctx: Ctx, @Caller() viewer: Viewer, @Arg('id', () => ID) id: string): Promise<A2aKeyNode> {
    await requireWebTools(ctx.em, viewer);
    return consoleTools.endKey(ctx.services, id);
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => A2aTask, {
    description:
      'Answers a task that waits for an approval (INPUT_REQUIRED) as its caller would: for the A2A owner and admins. The answer is a message of the task, with who answered in its metadata.',
  })
  async a2aApprovalAnswer(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('taskId', () => ID) taskId: string,
    @Arg('decision', () => ApprovalDecisionValue) decision: ApprovalDecisionValue,
  ): Promise<A2aTask> {
    await requireWebTools(ctx.em, viewer);
    return consoleTools.answerApproval(ctx.services, taskId, decision, viewer.user.email);
  }
}

@ObjectType({ description: 'Who gave an A2A task, for the console: the key it came with, by its label, and the A2A owner it ran for.' })
class A2aTaskCaller {
  @Field(() => String, {
    nullable: true,
    description: 'The label of the key the task came with; null for the open loopback endpoint (no keys), or a key no longer stored.',
  })
  keyLabel!: string | null;

  @Field(() => Date, { nullable: true, description: 'When that key was revoked; null while it works.' })
  keyRevokedAt!: Date | null;

  @Field({ description: 'Whether the task came through the open loopback endpoint, where no key is asked for.' })
  openEndpoint!: boolean;

  @Field(() => String, { nullable: true, description: 'The A2A owner the task ran for (whose plan it used), by name.' })
  ownerName!: string | null;
}

@ObjectType({ description: 'When a message of a task was stored, for the console (A2A messages carry no time).' })
class A2aMessageTime {
  @Field({ description: 'The message id its sender chose.' })
  messageId!: string;

  @Field(() => Date, { nullable: true, description: 'When the service stored it; null when it is not stored (any more).' })
  sentAt!: Date | null;
}

/**
 * The console's fields of a task, outside the A2A model (the A2A answers never select them).
 * Every query that yields a task has authorized reading it already.
 */
@Resolver(() => A2aTask)
export class A2aTaskConsoleResolver {
  @FieldResolver(() => A2aTaskCaller, {
    nullable: true,
    description: 'Who gave the task (not part of A2A): wherever the task may be read; an A2A caller sees only its own tasks’ caller.',
  })
  async caller(
    @Root() task: A2aTask,
    @Context() ctx: Ctx,
    @CallerA2aPrincipalId() principalId: string | null,
  ): Promise<A2aTaskCaller | null> {
    const row = await ctx.loaders.a2aCallerByTaskId.load(task.id);
    // Another principal's task cannot reach an A2A caller's answer; this keeps it so should that change.
    if (!row || (principalId !== null && row.principal !== principalId)) return null;
    return {
      keyLabel: row.keyLabel,
      keyRevokedAt: row.keyRevokedAt,
      openEndpoint: row.principal === OPEN_PRINCIPAL,
      ownerName: row.ownerName,
    };
  }

  @FieldResolver(() => [A2aMessageTime], {
    nullable: true,
    description: 'When each message of `history` was stored, in its order (not part of A2A); null where the history was not asked for.',
  })
  async historyTimes(@Root() task: A2aTask, @Context() ctx: Ctx): Promise<A2aMessageTime[] | null> {
    if (!task.history) return null;
    const times = await ctx.loaders.a2aMessageTimeByKey.loadMany(
      task.history.map((message) => ({ taskId: task.id, messageId: message.messageId })),
    );
    return task.history.map((message, index) => {
      const at = times[index];
      return { messageId: message.messageId, sentAt: at instanceof Date ? at : null };
    });
  }
}
