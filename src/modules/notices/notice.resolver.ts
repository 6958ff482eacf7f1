import { Arg, Ctx as Context, Extensions, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../context';
import { Caller, SIGNED_IN } from '../../operation-rules';
import type { Viewer } from '../auth/viewer';
import * as notices from './notice.service';
import { NoticeList } from './notice.types';

@Resolver()
export class NoticeResolver {
  @Extensions(SIGNED_IN)
  @Query(() => NoticeList, { description: 'The caller’s notices, newest first, and how many are unread.' })
  async notices(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('first', () => Int, { nullable: true, description: `1-${notices.MAX_NOTICES} (default 30).` }) first?: number,
  ): Promise<NoticeList> {
    const { items, unread } = await notices.myNotices(ctx.em, viewer, first ?? 30);
    return {
      unread,
      items: items.map((n) => ({ noticeId: n.id, kind: n.kind, text: n.text, path: n.path, createdAt: n.createdAt, readAt: n.readAt })),
    };
  }

  @Extensions(SIGNED_IN)
  @Mutation(() => Int, { description: 'Marks the caller’s notices read (these, or all when no ids are given); answers how many changed.' })
  noticesMarkRead(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('ids', () => [ID], { nullable: true }) ids?: string[] | null,
  ): Promise<number> {
    return notices.markNoticesRead(ctx.em, viewer, ids ?? null);
  }
}
