import { Migration } from '@mikro-orm/migrations';

/**
 * The peer tasks a turn started through its `a2a__<id>` tools (docs/api/outbound-agents.md,
 * "Tools"), kept with the loop state: a check after an approval or a restart finds them, and only
 * these may be checked. Written by hand in the generator's form.
 */
export class Migration20261127100000_a2a_turn_peer_tasks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "a2a_turns" add column "peer_tasks" jsonb not null default '[]';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "a2a_turns" drop column "peer_tasks";`);
  }
}
