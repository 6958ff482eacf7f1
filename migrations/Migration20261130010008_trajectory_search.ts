import { Migration } from '@mikro-orm/migrations';

/** Full-text search over titles and record text (docs/api/trajectories.md, "Search"): GIN indexes on the searched expressions. */
export class Migration20261130010008_trajectory_search extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "trajectories_title_search" on "trajectories" using gin (to_tsvector('simple'::regconfig, COALESCE(title, ''::text)));`,
    );

    this.addSql(
      `create index "trajectory_records_text_search" on "trajectory_records" using gin (to_tsvector('simple'::regconfig, regexp_replace(raw, '"\\w+"\\s*:|\\\\[nrt]'::text, ' '::text, 'g'::text))) where (raw is not null);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "trajectories_title_search";`);

    this.addSql(`drop index "trajectory_records_text_search";`);
  }
}
