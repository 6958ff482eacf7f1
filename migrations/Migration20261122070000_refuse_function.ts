import { Migration } from '@mikro-orm/migrations';

/**
 * `labdesk_refuse(code, message)` raises an error with that SQLSTATE: a single statement that
 * has already written rows (the one-statement append, charging last) aborts with it, and so
 * takes its own writes back.
 */
export class Migration20261122070000_refuse_function extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function labdesk_refuse(code text, message text) returns integer language plpgsql as $$
begin
  raise exception using errcode = code, message = message;
end
$$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists labdesk_refuse(text, text);`);
  }
}
