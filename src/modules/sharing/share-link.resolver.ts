import { Arg, Ctx as Context, Extensions, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Ctx } from '../../context';
import { ANYONE, AUTH_LIMITED, Caller, MINTS_CREDENTIAL, SIGNED_IN } from '../../operation-rules';
import { checks } from '../../validation';
import type { Viewer } from '../auth/viewer';
import { checkFigurePath, figureUrlOptions } from '../figures/figure.resolver';
import { loadPerson } from '../users/person.resolver';
import { Person } from '../users/user.types';
import type { ShareLinkRow } from './share-link.repository';
import * as sharing from './share-link.service';
import { ShareLink, ShareLinkCreated, ShareLinkInput, SharedRecordPage, SharedTrajectory } from './share-link.types';

type ShareLinkSource = Omit<ShareLink, 'createdBy'> & { createdById: string };

const present = (row: ShareLinkRow): ShareLinkSource => ({
  linkId: row.id,
  sessionId: row.sessionId,
  createdById: row.createdBy,
  maskEmails: row.maskEmails,
  includeFigures: row.includeFigures,
  expiresAt: row.expiresAt,
  revokedAt: row.revokedAt,
  open: !row.revokedAt && (!row.expiresAt || row.expiresAt > new Date()),
  views: row.views,
  lastViewedAt: row.lastViewedAt,
  createdAt: row.createdAt,
});

const checkPage = (after: number | undefined, first: number | undefined) =>
  checks()
    .int(['after'], after, { min: 0, max: 2 ** 31 - 1 })
    .int(['first'], first, { min: 1, max: 200 })
    .done();

@Resolver(() => ShareLink)
export class ShareLinkResolver {
  @Extensions(SIGNED_IN)
  @Query(() => [ShareLink], { description: 'A trajectory’s share links, newest first (who may make them).' })
  async trajectoryShareLinks(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
  ): Promise<ShareLinkSource[]> {
    return (await sharing.listShareLinks(ctx.em, viewer, sessionId)).map(present);
  }

  @Extensions({ ...SIGNED_IN, ...MINTS_CREDENTIAL })
  @Mutation(() => ShareLinkCreated, {
    description: 'A read-only link to the trajectory, secrets masked (the owner, or a mentor of the lab it is shared with).',
  })
  async trajectoryShareLinkCreate(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('input', () => ShareLinkInput, { nullable: true }) input?: ShareLinkInput | null,
  ): Promise<{ link: ShareLinkSource; url: string }> {
    const { link, url } = await sharing.createShareLink(ctx.em, viewer, ctx.services.config.publicUrl, sessionId, input ?? {});
    return { link: present(link), url };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => ShareLink, { description: 'Stops a share link from opening (again: no change).' })
  async trajectoryShareLinkRevoke(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('linkId', () => ID) linkId: string,
  ): Promise<ShareLinkSource> {
    return present(await sharing.revokeShareLink(ctx.em, viewer, linkId));
  }

  @Extensions({ ...ANYONE, ...AUTH_LIMITED })
  @Query(() => SharedTrajectory, {
    description: 'The trajectory a share link opens, for anyone with its token (counts a view). NOT_FOUND once revoked or expired.',
  })
  sharedTrajectory(@Context() ctx: Ctx, @Arg('token') token: string): Promise<SharedTrajectory> {
    return sharing.sharedTrajectory(ctx.em, token);
  }

  @Extensions(ANYONE)
  @Query(() => SharedRecordPage, { description: 'A page of a share link’s records, secrets masked.' })
  sharedTrajectoryRecords(
    @Context() ctx: Ctx,
    @Arg('token') token: string,
    @Arg('after', () => Int, { nullable: true, description: 'Records after this position (default 0).' }) after?: number,
    @Arg('first', () => Int, { nullable: true, description: '1-200 (default 100).' }) first?: number,
  ): Promise<SharedRecordPage> {
    checkPage(after, first);
    return sharing.sharedRecordPage(ctx.em, ctx.services.blobs, token, after ?? 0, first ?? 100);
  }

  @Extensions(ANYONE)
  @Query(() => String, {
    description:
      'A short-lived URL (5 minutes) of a figure of a share link that includes figures, by its canonical_path. NOT_FOUND otherwise.',
  })
  sharedTrajectoryFigureUrl(
    @Context() ctx: Ctx,
    @Arg('token') token: string,
    @Arg('path', { description: 'The figure’s canonical_path.' }) path: string,
  ): Promise<string> {
    checkFigurePath(path);
    return sharing.sharedFigureUrl(ctx.em, ctx.services.blobs, token, path, figureUrlOptions(ctx));
  }

  @Extensions(SIGNED_IN)
  @Query(() => SharedTrajectory, {
    description: 'What a share link to the trajectory would show, before making one (who may make links; no view counted).',
  })
  sharedTrajectoryPreview(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('maskEmails', { nullable: true, description: 'As the link would (default false).' }) maskEmails?: boolean,
    @Arg('includeFigures', { nullable: true, description: 'As the link would (default false).' }) includeFigures?: boolean,
  ): Promise<SharedTrajectory> {
    return sharing.previewShared(ctx.em, viewer, sessionId, { maskEmails: maskEmails === true, includeFigures: includeFigures === true });
  }

  @Extensions(SIGNED_IN)
  @Query(() => SharedRecordPage, { description: 'A page of the records a share link to the trajectory would show, secrets masked.' })
  sharedTrajectoryPreviewRecords(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('maskEmails', { nullable: true }) maskEmails?: boolean,
    @Arg('after', () => Int, { nullable: true, description: 'Records after this position (default 0).' }) after?: number,
    @Arg('first', () => Int, { nullable: true, description: '1-200 (default 100).' }) first?: number,
  ): Promise<SharedRecordPage> {
    checkPage(after, first);
    return sharing.previewRecordPage(ctx.em, ctx.services.blobs, viewer, sessionId, maskEmails === true, after ?? 0, first ?? 100);
  }

  @FieldResolver(() => Person)
  createdBy(@Root() link: ShareLinkSource, @Context() ctx: Ctx) {
    return loadPerson(ctx, link.createdById);
  }
}
