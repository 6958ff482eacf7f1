import { Arg, Extensions, Field, ID, ObjectType, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { Ctx } from '../../context';
import { callerOf, SIGNED_IN } from '../../operation-rules';
import { exportChunks } from './export.service';

@ObjectType({ description: 'A piece of an export, in order: the file is their concatenation.' })
export class ExportChunk {
  @Field()
  text!: string;
}

type ExportArgs = { sessionId: string; format: string; forSharing?: boolean | null };

@Resolver()
export class ExportResolver {
  @Extensions(SIGNED_IN)
  @Subscription(() => ExportChunk, {
    description:
      'A trajectory as a Jupyter notebook (format ipynb) or one HTML report (html), piece by piece as its records are read: what GET /api/trajectories/{session_id}/export writes. For a viewer of the session.',
    subscribe: async ({ args, context: ctx }: SubscribeResolverData<unknown, ExportArgs, Ctx>) =>
      exportChunks(ctx.em, ctx.services.blobs, await callerOf(ctx), args.sessionId, args.format, args.forSharing === true),
  })
  trajectoryExport(
    @Arg('sessionId', () => ID) _sessionId: string,
    @Arg('format', { description: 'ipynb or html.' }) _format: string,
    @Arg('forSharing', () => Boolean, { nullable: true, description: 'Secrets masked, as a share link masks them.' })
    _forSharing: boolean | null,
    @Root() chunk: string,
  ): ExportChunk {
    return { text: chunk };
  }
}
