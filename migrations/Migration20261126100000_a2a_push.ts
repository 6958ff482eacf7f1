import { Migration } from '@mikro-orm/migrations';

/**
 * A2A push notifications: the configs a caller registers on its tasks (`token` and
 * `auth_credentials` sealed by the service's Sealer), and the outbox of deliveries. A trigger
 * on `a2a_tasks` writes one delivery per config in the very transaction that moves a task to a
 * terminal or interrupted state, so a committed change always has its deliveries, whatever
 * code made it and whether or not the instance lives on; the job queue drains the outbox.
 * Written by hand in the generator's form.
 */
export class Migration20261126100000_a2a_push extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "a2a_push_configs" ("task_id" text not null, "id" text not null, "url" text not null, "token_sealed" text null, "auth_scheme" text null, "auth_credentials_sealed" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), constraint "a2a_push_configs_pkey" primary key ("task_id", "id"));`,
    );
    this.addSql(
      `alter table "a2a_push_configs" add constraint "a2a_push_configs_task_id_foreign" foreign key ("task_id") references "a2a_tasks" ("id") on delete cascade;`,
    );
    this.addSql(
      `create table "a2a_push_deliveries" ("id" bigserial not null, "task_id" text not null, "config_id" text not null, "state" text not null, "status_message" jsonb null, "status_at" timestamptz not null, "attempts" int not null default 0, "next_attempt_at" timestamptz not null default now(), "outcome" text null, "last_error" text null, "created_at" timestamptz not null default now(), "finished_at" timestamptz null, constraint "a2a_push_deliveries_pkey" primary key ("id"));`,
    );
    this.addSql(
      `alter table "a2a_push_deliveries" add constraint "a2a_push_deliveries_config_foreign" foreign key ("task_id", "config_id") references "a2a_push_configs" ("task_id", "id") on delete cascade;`,
    );
    this.addSql(
      `alter table "a2a_push_deliveries" add constraint "a2a_push_deliveries_outcome_check" check ("outcome" in ('delivered', 'failed') and "finished_at" is not null or "outcome" is null and "finished_at" is null);`,
    );
    this.addSql(`create index "a2a_push_deliveries_task_config_index" on "a2a_push_deliveries" ("task_id", "config_id", "id");`);
    this.addSql(`create index "a2a_push_deliveries_pending_index" on "a2a_push_deliveries" ("next_attempt_at") where "outcome" is null;`);
    this.addSql(`create or replace function a2a_push_enqueue() returns trigger language plpgsql as $$
begin
  if new.state in ('TASK_STATE_COMPLETED', 'TASK_STATE_FAILED', 'TASK_STATE_CANCELED', 'TASK_STATE_REJECTED', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_AUTH_REQUIRED')
     and (tg_op = 'INSERT' or new.state is distinct from old.state) then
    insert into a2a_push_deliveries (task_id, config_id, state, status_message, status_at)
      select new.id, c.id, new.state, new.status_message, new.status_at from a2a_push_configs c where c.task_id = new.id;
  end if;
  return null;
end
$$;`);
    this.addSql(
      `create trigger "a2a_tasks_push_enqueue" after insert or update of "state" on "a2a_tasks" for each row execute function a2a_push_enqueue();`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "a2a_tasks_push_enqueue" on "a2a_tasks";`);
    this.addSql(`drop function if exists a2a_push_enqueue();`);
    this.addSql(`drop table if exists "a2a_push_deliveries" cascade;`);
    this.addSql(`drop table if exists "a2a_push_configs" cascade;`);
  }
}
