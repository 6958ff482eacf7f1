import { Arg, Ctx as Context, ID, Mutation, Query, Resolver, Extensions } from 'type-graphql';
import type { Ctx } from '../../context';
import type { Viewer } from '../auth/viewer';
import { checks, unstorable } from '../../validation';
import { invalid } from '../../errors';
import { ANYONE, Caller, SIGNED_IN } from '../../operation-rules';
import {
  checkUploadFields,
  figureLocation,
  recordFigures,
  signedBlob,
  storeFigureUpload,
  uploadTarget,
  viewableFigureServeUrls,
} from './figure.service';
import {
  FigureMapInput,
  FigureMapResult,
  FigureRow,
  FigureServeUrl,
  FigureUploadInput,
  FigureUploadTarget,
  SignedBlobNode,
} from './figure.types';

/** A figure's canonical_path as an argument. */
export const checkFigurePath = (path: string) =>
  checks()
    .text(['path'], path, {
      min: 1,
      max: 1024,
      pattern: { test: (value) => unstorable(value) === null },
      hint: 'must be valid text, no NUL',
    })
    .done();

/** Where a figure URL may point, for this request. */
export const figureUrlOptions = (ctx: Ctx) => ({ baseUrl: ctx.baseUrl, cdnHosts: ctx.services.config.figureCdnHosts });

/** A file the request received, by the name the facade gave it. */
function receivedFile(ctx: Ctx, name: string, field: string) {
  const file = ctx.received?.get(name);
  if (!file) throw invalid([{ path: ['input', field], msg: 'names no file this request sent', type: 'value_error' }]);
  return file;
}

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
    checkFigurePath(path);
    return figureLocation(ctx.em, viewer, ctx.services.blobs, sessionId, path, figureUrlOptions(ctx));
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

  @Extensions(SIGNED_IN)
  @Query(() => FigureUploadTarget, {
    description:
      'Where a figure upload may go, settled before its body is read: the session’s owner, and a configured drive; with the largest file allowed.',
  })
  async trajectoryFigureUploadTarget(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
  ): Promise<FigureUploadTarget> {
    await uploadTarget(ctx.em, viewer, ctx.services.blobs, sessionId);
    return { sessionId, maxBytes: ctx.services.config.maxFigureBytes };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => FigureRow, {
    description:
      'Keeps a figure this request uploaded (and its original) in the private drive and maps its canonical path to it (owner only; charged to storage once per distinct blob).',
  })
  async trajectoryFigureUpload(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => FigureUploadInput) input: FigureUploadInput,
  ): Promise<FigureRow> {
    const fields = { canonicalPath: input.canonicalPath ?? undefined, mime: input.mime ?? undefined };
    checkUploadFields(fields);
    return storeFigureUpload(ctx.em, viewer, ctx.services.blobs, sessionId, {
      file: receivedFile(ctx, input.file, 'file'),
      original: input.original ? receivedFile(ctx, input.original, 'original') : undefined,
      canonicalPath: fields.canonicalPath!,
      mime: fields.mime ?? null,
      compressed: input.compressed ?? null,
    });
  }

  @Extensions(ANYONE)
  @Query(() => SignedBlobNode, {
    description:
      'What a signed blob URL (GET /blobs/sha256/{sha256}) serves, when its parts are genuine and unexpired: the URL is the credential.',
  })
  async signedBlob(
    @Context() ctx: Ctx,
    @Arg('sha256') sha256: string,
    @Arg('expires', () => String, { nullable: true }) expires: string | null,
    @Arg('type', () => String, { nullable: true }) type: string | null,
    @Arg('signature', () => String, { nullable: true }) signature: string | null,
  ): Promise<SignedBlobNode> {
    return signedBlob(ctx.services.blobs, sha256, { expires: expires ?? null, type: type ?? null, signature: signature ?? null });
  }

  @Extensions(SIGNED_IN)
  @Query(() => [FigureServeUrl], {
    description:
      'The session’s figure map as canonical path and serve URL, for a viewer of the session: what a cloud client is given instead of local paths.',
  })
  async trajectoryFigureServeUrls(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
  ): Promise<FigureServeUrl[]> {
    const urls = await viewableFigureServeUrls(ctx.em, viewer, sessionId, ctx.baseUrl);
    return [...urls].map(([path, url]) => ({ path, url }));
  }
}
