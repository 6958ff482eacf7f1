import { Arg, Ctx as Context, Field, ID, Int, ObjectType, Query, Resolver, Extensions } from 'type-graphql';
import type { Ctx } from '../../context';
import { OffsetPage } from '../../pages';
import { checks, pageArgs } from '../../validation';
import { isAdmin } from '../admin/admin.policy';
import type { Viewer } from '../auth/viewer';
import { findInTrajectory, searchTrajectories } from './trajectory-search.repository';
import { loadTrajectory } from './trajectory.service';
import { SIGNED_IN, Caller } from '../../operation-rules';

@ObjectType({ description: 'A match of a search: a session’s title, or one of its records.' })
class TrajectorySearchHit {
  @Field(() => ID)
  sessionId!: string;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => ID)
  ownerId!: string;

  @Field({ description: 'The name of the session’s owner.' })
  ownerName!: string;

  @Field(() => Int, { nullable: true, description: 'The record’s place in the session (the first is 1); null for a match on the title.' })
  seq!: number | null;

  @Field(() => String, { nullable: true, description: 'The record’s uuid; null for a match on the title.' })
  uuid!: string | null;

  @Field({ description: 'The words around the match, as plain text.' })
  snippet!: string;
}

@ObjectType({ description: 'A page of search matches: titles first, then records, newest session first.' })
class TrajectorySearchPage extends OffsetPage(TrajectorySearchHit) {}

@ObjectType({ description: 'The records of one trajectory that hold a text, by position.' })
class TrajectoryFindResult {
  @Field(() => [Int], { description: 'Their positions (the first record is 1), in order: at most `first` of them.' })
  seqs!: number[];

  @Field(() => Int, { description: 'How many records hold the text in all.' })
  total!: number;
}

/** Positions a find answers at most: more than a reader steps through one by one. */
const FIND_LIMIT = 1000;

@Resolver()
export class TrajectorySearchResolver {
  @Extensions(SIGNED_IN)
  @Query(() => TrajectorySearchPage, {
    description: 'Searches the titles and record text of the sessions the caller can read (words, "a phrase", -word, or), by pages.',
  })
  async trajectorySearch(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('q', { description: '1-200 characters.' }) q: string,
    @Arg('limit', () => Int, { nullable: true, description: '1-100 (default 20).' }) limit?: number,
    @Arg('offset', () => Int, { nullable: true, description: '≥ 0 (default 0).' }) offset?: number,
  ): Promise<TrajectorySearchPage> {
    checks().text(['q'], q.trim(), { min: 1, max: 200 }).done();
    const page = pageArgs(limit, offset, { max: 100, default: 20 });
    const { hits, total } = await searchTrajectories(ctx.em, { userId: viewer.user.id, admin: isAdmin(viewer) }, q.trim(), page);
    return { items: hits, total, ...page };
  }

  @Extensions(SIGNED_IN)
  @Query(() => TrajectoryFindResult, {
    description:
      'Finds a text in one trajectory’s records, as a plain case-insensitive substring (not the word search of trajectorySearch), for anyone who can view it. Records stored apart (very large ones) are not read.',
  })
  async trajectoryFind(
    @Context() ctx: Ctx,
    @Caller() viewer: Viewer,
    @Arg('sessionId', () => ID) sessionId: string,
    @Arg('text', { description: '1-200 characters, matched as written (spaces included), whatever their case.' }) text: string,
    @Arg('first', () => Int, { nullable: true, description: `1-${FIND_LIMIT} positions (default ${FIND_LIMIT}).` }) first?: number,
  ): Promise<TrajectoryFindResult> {
    checks()
      .text(['text'], text.trim() ? text : '', { min: 1, max: 200 })
      .int(['first'], first, { min: 1, max: FIND_LIMIT })
      .done();
    await loadTrajectory(ctx.em, viewer, sessionId, 'view');
    return findInTrajectory(ctx.em, sessionId, text, first ?? FIND_LIMIT);
  }
}
