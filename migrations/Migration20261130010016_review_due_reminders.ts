import { Migration } from '@mikro-orm/migrations';

/** A review's reviewer is reminded once when its due day comes (docs/api/reviews.md). */
export class Migration20261130010016_review_due_reminders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "trajectory_reviews" add column "due_reminded_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "trajectory_reviews" drop column "due_reminded_at";`);
  }
}
