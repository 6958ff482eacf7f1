import { Arg, Ctx as Context, ID, Mutation, Resolver } from 'type-graphql';
import type { Ctx } from '../../context';
import { requireViewer } from '../auth/viewer';
import { recordFigures } from './figure.service';
import { FigureMapInput, FigureMapResult } from './figure.types';

@Resolver()
export class FigureResolver {
  @Mutation(() => FigureMapResult, {
    description: 'Records path-to-blob rows of a session’s figure map (owner only; a bad row rejects the request whole).',
  })
  async trajectoryFiguresRecord(
    @Context() ctx: Ctx,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => FigureMapInput) input: FigureMapInput,
  ): Promise<FigureMapResult> {
    return recordFigures(ctx.em, await requireViewer(ctx), sessionId, input.figures);
  }
}
