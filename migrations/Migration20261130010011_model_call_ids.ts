import { Migration } from '@mikro-orm/migrations';

/**
 * Each model call's ledger row carries the call's id (written once, `on conflict do nothing`): a
 * write that keeps an answer may be sent again after its connection was lost under it, and must
 * not bill the call twice (docs/api/models.md, "Ledger"). Older rows have none.
 */
export class Migration20261130010011_model_call_ids extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "usage_entries" add column "call_id" uuid null;`);
    this.addSql(`alter table "usage_entries" add constraint "usage_entries_call_id_unique" unique ("call_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "usage_entries" drop constraint "usage_entries_call_id_unique";`);
    this.addSql(`alter table "usage_entries" drop column "call_id";`);
  }
}
