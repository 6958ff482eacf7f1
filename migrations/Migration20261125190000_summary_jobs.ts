import { Migration } from '@mikro-orm/migrations';

/**
 * Summaries are made by background jobs: the error of the last failed attempt is kept beside the
 * cached summary, so that its owner sees why it failed once the job is dead (pg-boss keeps its
 * own tables in the `pgboss` schema, which it creates and migrates itself).
 */
export class Migration20261125190000_summary_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "trajectories" add column "summary_error" text null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "trajectories" drop column "summary_error";`);
  }
}
