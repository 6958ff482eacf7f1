import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Something the console tells the caller once (a review asked of them, a verdict).' })
export class NoticeNode {
  @Field(() => ID)
  noticeId!: string;

  @Field({ description: 'What it is about, e.g. review.requested, review.approved.' })
  kind!: string;

  @Field()
  text!: string;

  @Field({ description: 'Where in the console it leads.' })
  path!: string;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  readAt!: Date | null;
}

@ObjectType()
export class NoticeList {
  @Field(() => Int, { description: 'All the caller’s unread notices.' })
  unread!: number;

  @Field(() => [NoticeNode], { description: 'The newest first.' })
  items!: NoticeNode[];
}
