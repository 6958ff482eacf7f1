import { Migration } from '@mikro-orm/migrations';

/** When a personal access token was last used, for the account page's token list (docs/api/browser-sessions.md, "Your tokens"). */
export class Migration20261130010006_token_last_used extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "auth_tokens" add column "last_used_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "auth_tokens" drop column "last_used_at";`);
  }
}
