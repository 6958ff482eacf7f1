import { Migration } from '@mikro-orm/migrations';

/**
 * Every change to what authenticates a caller is announced on the `labdesk_credentials` channel
 * when it commits, so that each instance drops the credentials it keeps in memory at once
 * (src/modules/auth/credential-cache.ts): a token's row (revoked, expired, used, deleted), its
 * user's row (disabled, demoted, renamed, storage used), the user's memberships (the lab tier).
 * The payload is the user's id; `*` (a lab's status changed: its members' tier) drops them all.
 * Triggers rather than calls in the services, so that no write path can forget to announce.
 * The same id also goes at once, as a NOTICE, to the connection that writes: the writing
 * instance drops it before its own commit answers, so its next request cannot race the NOTIFY.
 */
export class Migration20261130010010_credential_notices extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function labdesk_credentials_changed() returns trigger language plpgsql as $$
declare
  changed text[];
  one text;
begin
  if tg_table_name = 'labs' then
    changed := array['*'];
  elsif tg_table_name = 'users' then
    changed := array[coalesce(new.id, old.id)];
  elsif tg_op = 'DELETE' then
    changed := array[old.user_id];
  elsif tg_op = 'UPDATE' and new.user_id is distinct from old.user_id then
    changed := array[new.user_id, old.user_id];
  else
    changed := array[new.user_id];
  end if;
  foreach one in array changed loop
    perform pg_notify('labdesk_credentials', one);
    raise notice using message = 'labdesk_credentials', detail = one;
  end loop;
  return null;
end $$;`);
    this.addSql(
      `create trigger credentials_changed after update or delete on "auth_tokens" for each row execute function labdesk_credentials_changed();`,
    );
    this.addSql(
      `create trigger credentials_changed after update or delete on "users" for each row execute function labdesk_credentials_changed();`,
    );
    this.addSql(
      `create trigger credentials_changed after insert or update or delete on "lab_members" for each row execute function labdesk_credentials_changed();`,
    );
    this.addSql(
      `create trigger credentials_changed after update of status or delete on "labs" for each row execute function labdesk_credentials_changed();`,
    );
  }

  override async down(): Promise<void> {
    for (const table of ['auth_tokens', 'users', 'lab_members', 'labs'])
      this.addSql(`drop trigger if exists credentials_changed on "${table}";`);
    this.addSql(`drop function if exists labdesk_credentials_changed();`);
  }
}
