import { Migration } from '@mikro-orm/migrations';

/**
 * A2A push deliveries are claimed from the outbox one at a time by whichever instance has a free
 * delivery slot (docs/api/a2a-push.md): `claim` names the attempt that holds the
 * row and `claimed_until` when that hold lapses (an instance that died or stalled), so that the
 * deliveries in flight per A2A key are counted in the database and stay under the key's limit
 * over all instances. Written by hand in the generator's form.
 */
export class Migration20261129020000_a2a_push_claims extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "a2a_push_deliveries" add column "claim" uuid null, add column "claimed_until" timestamptz null;`);
    this.addSql(
      `alter table "a2a_push_deliveries" add constraint "a2a_push_deliveries_claim_check" check (("claim" is null) = ("claimed_until" is null));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "a2a_push_deliveries" drop constraint if exists "a2a_push_deliveries_claim_check";`);
    this.addSql(`alter table "a2a_push_deliveries" drop column if exists "claimed_until", drop column if exists "claim";`);
  }
}
