import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { Person } from '../users/user.types';

@ObjectType({ description: 'A read-only link to a trajectory for people without an account (docs/api/sharing.md).' })
export class ShareLink {
  @Field(() => ID)
  linkId!: string;

  @Field(() => ID)
  sessionId!: string;

  @Field(() => Person, { description: 'Who made it: it opens only while they may share the trajectory.' })
  createdBy!: Person;

  @Field({ description: 'E-mail addresses are masked too, besides secrets.' })
  maskEmails!: boolean;

  @Field({ description: 'Its figures are shown too, as they are (images are not masked).' })
  includeFigures!: boolean;

  @Field(() => Date, { nullable: true, description: 'When it stops opening; null: until revoked.' })
  expiresAt!: Date | null;

  @Field(() => Date, { nullable: true })
  revokedAt!: Date | null;

  @Field({ description: 'Whether it opens now (not revoked, not expired).' })
  open!: boolean;

  @Field(() => Int, { description: 'Times it was opened.' })
  views!: number;

  @Field(() => Date, { nullable: true })
  lastViewedAt!: Date | null;

  @Field(() => Date)
  createdAt!: Date;
}

@ObjectType()
export class ShareLinkCreated {
  @Field(() => ShareLink)
  link!: ShareLink;

  @Field({ description: 'The link’s address, token included (after `#`): shown this once, never again.' })
  url!: string;
}

@InputType()
export class ShareLinkInput {
  @Field(() => Int, { nullable: true, description: 'Days until it stops opening, 1-365; none: until revoked.' })
  expiresInDays?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Also mask e-mail addresses (default false).' })
  maskEmails?: boolean | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Also show its figures, as they are: nothing in an image is masked (default false).',
  })
  includeFigures?: boolean | null;
}

@ObjectType({ description: 'What a share link shows of its trajectory besides the records.' })
export class SharedTrajectory {
  @Field({ description: 'Its title, masked as its records are.' })
  title!: string;

  @Field()
  source!: string;

  @Field(() => Int)
  recordCount!: number;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date)
  updatedAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the link stops opening.' })
  expiresAt!: Date | null;

  @Field()
  maskEmails!: boolean;

  @Field({ description: 'Its figures are shown (`sharedTrajectoryFigureUrl`); otherwise none is.' })
  includeFigures!: boolean;
}

@ObjectType()
export class SharedRecord {
  @Field(() => Int)
  seq!: number;

  @Field({ description: 'The record’s JSON, every secret in it replaced by `⟦masked: <kind>⟧`.' })
  text!: string;

  @Field(() => Int, { description: 'How many spans of it were masked.' })
  masked!: number;
}

@ObjectType()
export class SharedRecordPage {
  @Field(() => [SharedRecord])
  items!: SharedRecord[];

  @Field()
  hasMore!: boolean;
}
