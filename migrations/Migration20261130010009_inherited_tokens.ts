import { Migration } from '@mikro-orm/migrations';

/**
 * The tokens a fork's seeded records reported, so that its header counts the turns it shows (its
 * own appends are in the usage ledger). Forks made before this count from 0, as they did.
 */
export class Migration20261130010009_inherited_tokens extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "trajectories" add column "inherited_tokens_in" bigint not null default 0, add column "inherited_tokens_out" bigint not null default 0;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "trajectories" drop column "inherited_tokens_in", drop column "inherited_tokens_out";`);
  }
}
