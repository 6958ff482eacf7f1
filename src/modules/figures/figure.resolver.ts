import { Arg, Ctx as Context, ID, Mutation, Query, Resolver, Extensions } from 'type-graphql';
import type { Ctx } from '../../context';
import type { Viewer } from '../auth/viewer';
import { checks, unstorable } from '../../validation';
import { figureLocation, recordFigures } from './figure.service';
import { FigureMapInput, FigureMapResult } from './figure.types';
import { SIGNED_IN, Caller } from '../../operation-rules';

@Resolver()
export class FigureResolver {
  @Extensions(SIGNED_IN)
  @Query(() => String, {
    description:
      'A short-lived URL (5 minutes) of a figure of the session, by its canonical_path: what GET …/figures/raw redirects to, for a viewer of the session. The web console shows figures with it.',
  })
  async trajectoryFigureUrl(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('path', { description: 'The figure’s canonical_path.' }) path: string,
  ): Promise<string> {
    checks()
      .text(['path'], path, {
        min: 1,
        max: 1024,
        pattern: { test: (value) => unstorable(value) === null },
        hint: 'must be valid text, no NUL',
      })
      .done();
    return figureLocation(ctx.em, viewer, ctx.services.blobs, sessionId, path, {
      baseUrl: ctx.baseUrl,
      cdnHosts: ctx.services.config.figureCdnHosts,
    });
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => FigureMapResult, {
    description: 'Records path-to-blob rows of a session’s figure map (owner only; a bad row rejects the request whole).',
  })
  async trajectoryFiguresRecord(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => FigureMapInput) input: FigureMapInput,
  ): Promise<FigureMapResult> {
    return recordFigures(ctx.em, viewer, sessionId, input.figures);
  }
}
