import { Migration } from '@mikro-orm/migrations';

/** Reservation moves get their own kind and record the reserved delta, so the ledger explains `reserved` too. */
export class Migration20261122045800_credit_reservations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "credit_entries" add column "reserved" numeric(14,4) not null default 0;`);
    this.addSql(`alter table "credit_entries" drop constraint credit_entries_kind_check;`);
    this.addSql(
      `alter table "credit_entries" add constraint credit_entries_kind_check check (kind in ('allowance', 'grant', 'reservation', 'lease_spend', 'token_charge'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "credit_entries" drop constraint credit_entries_kind_check;`);
    this.addSql(`update "credit_entries" set kind = 'lease_spend' where kind = 'reservation';`);
    this.addSql(
      `alter table "credit_entries" add constraint credit_entries_kind_check check (kind in ('allowance', 'grant', 'lease_spend', 'token_charge'));`,
    );
    this.addSql(`alter table "credit_entries" drop column "reserved";`);
  }
}
