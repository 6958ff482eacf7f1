import { Migration } from '@mikro-orm/migrations';

/**
 * `labdesk_try_jsonb(text)`: the text as jsonb, or null when PostgreSQL's jsonb cannot hold it.
 * Stored records are valid JSON, but jsonb refuses some of it (an escaped NUL, a lone surrogate
 * escape, a number beyond its range); a read that projects records in SQL must not fail on them.
 */
export class Migration20261124030000_try_jsonb extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function labdesk_try_jsonb(value text) returns jsonb language plpgsql immutable parallel safe as $$
begin
  return value::jsonb;
exception when others then
  return null;
end
$$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists labdesk_try_jsonb(text);`);
  }
}
