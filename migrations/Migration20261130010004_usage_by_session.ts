import { Migration } from '@mikro-orm/migrations';

export class Migration20261130010004_usage_by_session extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "usage_entries_session_id_index" on "usage_entries" ("session_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "usage_entries_session_id_index";`);
  }
}
