import { Migration } from '@mikro-orm/migrations';

/** The audit log's pages (docs/api/admin.md, "Audit log"): newest first, and one actor's. */
export class Migration20261130010007_audit_log_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "audit_events_actor_id_created_at_index" on "audit_events" ("actor_id", "created_at");`);
    this.addSql(`create index "audit_events_created_at_id_index" on "audit_events" ("created_at", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "audit_events_actor_id_created_at_index";`);
    this.addSql(`drop index "audit_events_created_at_id_index";`);
  }
}
