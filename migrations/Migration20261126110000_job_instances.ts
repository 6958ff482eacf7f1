import { Migration } from '@mikro-orm/migrations';

/**
 * Instances that run durable jobs, with their last heartbeat: a job whose instance stopped
 * beating (killed, frozen, cut off from the database) is failed over long before its time-out.
 * Written by hand in the generator's form.
 */
export class Migration20261126110000_job_instances extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "job_instances" ("id" uuid not null, "seen_at" timestamptz not null default now(), constraint "job_instances_pkey" primary key ("id"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "job_instances" cascade;`);
  }
}
