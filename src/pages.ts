import { ClassType, Field, Int, ObjectType } from 'type-graphql';

/** `{items, total, limit}`: one bounded list (docs/api/wire.md). Extend it to name a page type. */
export function LimitPage<T extends object>(item: ClassType<T>) {
  @ObjectType()
  abstract class Page {
    @Field(() => [item])
    items!: T[];

    @Field(() => Int, { description: 'Matches in all, across pages.' })
    total!: number;

    @Field(() => Int)
    limit!: number;
  }
  return Page;
}

/** `{items, total, limit, offset}`: a page of a list paged by offset. */
export function OffsetPage<T extends object>(item: ClassType<T>) {
  @ObjectType()
  abstract class Page extends LimitPage(item) {
    @Field(() => Int)
    offset!: number;
  }
  return Page;
}
