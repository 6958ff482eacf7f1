import { Migration } from '@mikro-orm/migrations';

/** A share link may show the trajectory's figures, as they are: the maker chooses (docs/api/sharing.md). */
export class Migration20261130010015_share_link_figures extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "trajectory_share_links" add column "include_figures" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "trajectory_share_links" drop column "include_figures";`);
  }
}
