import { Migration } from '@mikro-orm/migrations';

/**
 * A reviewer's one open review of a trajectory is per lab: a trajectory moved to another lab
 * leaves the first lab's open reviews as they were and may be reviewed in the new one
 * (docs/api/reviews.md). And "asked by you" reads by requester.
 */
export class Migration20261130010014_review_index_per_lab extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "trajectory_reviews_one_open";`);
    this.addSql(
      `create unique index "trajectory_reviews_one_open" on "trajectory_reviews" ("session_id", "reviewer_id", "lab_id") where (state = any (array['requested'::text, 'in_review'::text, 'changes_requested'::text]));`,
    );
    this.addSql(`create index "trajectory_reviews_requested_by_state_index" on "trajectory_reviews" ("requested_by", "state");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "trajectory_reviews_requested_by_state_index";`);
    this.addSql(`drop index "trajectory_reviews_one_open";`);
    this.addSql(
      `create unique index "trajectory_reviews_one_open" on "trajectory_reviews" ("session_id", "reviewer_id") where (state = any (array['requested'::text, 'in_review'::text, 'changes_requested'::text]));`,
    );
  }
}
