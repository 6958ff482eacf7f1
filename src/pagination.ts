import { Field, ObjectType } from 'type-graphql';
import { invalid } from './errors';

/** Largest page a connection serves, and the page when `first` is not given. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

@ObjectType({ description: 'Where a page of a connection ends.' })
export class PageInfo {
  @Field({ description: 'Whether more items follow this page.' })
  hasNextPage!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Cursor of the last item of this page (pass as `after` for the next page); null for an empty page.',
  })
  endCursor!: string | null;
}

const cursorOf = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');

/**
 * The one normalizer of `first`/`after` for connections: offset cursors (so REST `limit`/`offset`
 * map one to one), `first` from 1 to MAX_PAGE_SIZE.
 * @throws VALIDATION_FAILED for a `first` out of range or a cursor this server did not give
 */
export function pageOf(first: number | null | undefined, after: string | null | undefined): { limit: number; offset: number } {
  const limit = first ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE)
    throw invalid([{ path: ['first'], msg: `must be an integer from 1 to ${MAX_PAGE_SIZE}`, type: 'value_error' }]);
  if (after === null || after === undefined) return { limit, offset: 0 };
  const match = /^offset:(\d{1,9})$/.exec(Buffer.from(after, 'base64url').toString('utf8'));
  if (!match) throw invalid([{ path: ['after'], msg: 'is not a cursor this server gave', type: 'value_error' }]);
  return { limit, offset: Number(match[1]) + 1 };
}

/** The page info of `count` items read at `offset` out of `total`. */
export function pageInfoOf(offset: number, count: number, total: number): PageInfo {
  return { hasNextPage: offset + count < total, endCursor: count > 0 ? cursorOf(offset + count - 1) : null };
}
