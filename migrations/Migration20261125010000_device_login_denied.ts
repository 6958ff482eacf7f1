import { Migration } from '@mikro-orm/migrations';

/**
 * A device login can be denied from the approval page: the CLI's next poll is then told so
 * (403 "login denied") instead of waiting until the code expires.
 */
export class Migration20261125010000_device_login_denied extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "device_logins" drop constraint "device_logins_status_check";`);
    this.addSql(
      `alter table "device_logins" add constraint "device_logins_status_check" check ("status" in ('pending', 'approved', 'consumed', 'denied'));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "device_logins" where "status" = 'denied';`);
    this.addSql(`alter table "device_logins" drop constraint "device_logins_status_check";`);
    this.addSql(
      `alter table "device_logins" add constraint "device_logins_status_check" check ("status" in ('pending', 'approved', 'consumed'));`,
    );
  }
}
