import { Migration } from '@mikro-orm/migrations';

/**
 * The login pair a sandbox receives at bootstrap is bound to its lease: ending the lease revokes
 * every token bound to it (found through this indexed column, not by the family id's text).
 */
export class Migration20261122090000_sandbox_tokens extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "auth_tokens" add column "lease_id" integer null;`);
    this.addSql(
      `alter table "auth_tokens" add constraint "auth_tokens_lease_id_foreign" foreign key ("lease_id") references "compute_leases" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "auth_tokens_lease_id_index" on "auth_tokens" ("lease_id");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "auth_tokens_lease_id_index";`);
    this.addSql(`alter table "auth_tokens" drop constraint "auth_tokens_lease_id_foreign";`);
    this.addSql(`alter table "auth_tokens" drop column "lease_id";`);
  }
}
