import { Migration } from '@mikro-orm/migrations';

/**
 * A task's newest message number on its row (`last_seq`), moved by every append under the row's
 * lock: a turn completes only while it holds the newest message, checked on the locked row (a
 * message committed while the turn waited for the lock is seen), so a request that arrives as
 * the answer is stored is answered, not dropped. Written by hand in the generator's form.
 */
export class Migration20261128010000_a2a_task_last_seq extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "a2a_tasks" add column "last_seq" int not null default 0;`);
    this.addSql(
      `update "a2a_tasks" t set "last_seq" = coalesce((select max(m."seq") from "a2a_messages" m where m."task_id" = t."id"), 0);`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "a2a_tasks" drop column "last_seq";`);
  }
}
