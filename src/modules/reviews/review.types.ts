import { Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Person } from '../users/user.types';

export enum ReviewStateValue {
  requested = 'requested',
  in_review = 'in_review',
  changes_requested = 'changes_requested',
  approved = 'approved',
  withdrawn = 'withdrawn',
}
registerEnumType(ReviewStateValue, {
  name: 'ReviewState',
  description: 'Where a review stands: requested, in_review and changes_requested are open; approved and withdrawn are done.',
});

export enum ReviewVerdictValue {
  approved = 'approved',
  changes_requested = 'changes_requested',
}
registerEnumType(ReviewVerdictValue, { name: 'ReviewVerdict', description: 'A reviewer’s verdict.' });

@ObjectType({ description: 'Whether the caller may do each review action now (its state included).' })
export class ReviewViewerCan {
  @Field({ description: 'trajectoryReviewStart (the reviewer; requested or changes_requested).' })
  start!: boolean;

  @Field({ description: 'trajectoryReviewDecide (the reviewer; requested or in_review).' })
  decide!: boolean;

  @Field({ description: 'trajectoryReviewRerequest (who asked, or the author; changes_requested).' })
  rerequest!: boolean;

  @Field({ description: 'trajectoryReviewWithdraw (who asked, or the lab owner; while open).' })
  withdraw!: boolean;
}

@ObjectType({ description: 'A request that a mentor review a lab-shared trajectory, and its verdict (docs/api/reviews.md).' })
export class TrajectoryReview {
  @Field(() => ID)
  reviewId!: string;

  @Field(() => ID)
  sessionId!: string;

  @Field(() => String, { description: 'The trajectory’s title now.' })
  trajectoryTitle!: string;

  @Field(() => ID)
  labId!: string;

  @Field(() => ReviewStateValue)
  state!: ReviewStateValue;

  @Field(() => Person)
  requestedBy!: Person;

  @Field(() => Person)
  reviewer!: Person;

  @Field(() => Person, { description: 'Who wrote the trajectory.' })
  author!: Person;

  @Field(() => String, { nullable: true, description: 'What the requester asks the reviewer to look at.' })
  note!: string | null;

  @Field(() => String, { nullable: true, description: 'The day it is due, YYYY-MM-DD.' })
  dueOn!: string | null;

  @Field({ description: 'Open, and its due day has passed (UTC).' })
  overdue!: boolean;

  @Field({ description: 'Changes were asked for and the trajectory has changed since: ready for another look.' })
  updatedSinceVerdict!: boolean;

  @Field(() => String, { nullable: true, description: 'The reviewer’s notes with the last verdict.' })
  verdictNote!: string | null;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => Date, { nullable: true, description: 'When the reviewer first took it, or gave a verdict without taking it.' })
  startedAt!: Date | null;

  @Field(() => Date, { nullable: true, description: 'The last verdict, or the withdrawal.' })
  decidedAt!: Date | null;

  @Field(() => ReviewViewerCan)
  viewerCan!: ReviewViewerCan;
}

@InputType()
export class ReviewRequestInput {
  @Field(() => ID, { description: 'A mentor or the owner of the lab the trajectory is shared with (not its author).' })
  reviewerId!: string;

  @Field(() => String, { nullable: true, description: 'YYYY-MM-DD, from yesterday (today somewhere) to a year on.' })
  dueOn?: string | null;

  @Field(() => String, { nullable: true, description: 'Up to 2,000 characters.' })
  note?: string | null;
}

@InputType()
export class ReviewVerdictInput {
  @Field(() => ReviewVerdictValue)
  verdict!: ReviewVerdictValue;

  @Field(() => String, { nullable: true, description: 'Up to 4,000 characters; required when asking for changes.' })
  note?: string | null;
}

@ObjectType({ description: 'A lab’s reviews: what is open, and how long verdicts take.' })
export class LabReviewSummary {
  @Field(() => Int)
  requested!: number;

  @Field(() => Int)
  inReview!: number;

  @Field(() => Int)
  changesRequested!: number;

  @Field(() => Int, { description: 'Open reviews past their due day.' })
  overdue!: number;

  @Field(() => Int, { description: 'Reviews with a first verdict in the last 90 days.' })
  decidedLast90Days!: number;

  @Field(() => Float, { nullable: true, description: 'Their median hours from request to first verdict; null: none.' })
  medianTurnaroundHours!: number | null;

  @Field(() => [TrajectoryReview], { description: 'The open reviews, due first (at most 200).' })
  open!: TrajectoryReview[];
}
