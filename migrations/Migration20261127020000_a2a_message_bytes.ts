import { Migration } from '@mikro-orm/migrations';

/**
 * The size of each stored A2A message: `a2a_messages.bytes`, the octets of its JSON as
 * PostgreSQL prints it, computed once when the row is written (a stored generated column, so
 * every writer gets it). A history answered to a caller is cut to a byte budget by a window sum
 * of this column, which reads no message: `octet_length(message::text)` at read time would
 * detoast and print every message of the window on every read, and `pg_column_size` measures
 * the compressed size (a file of zeros would pass for small). Adding the column rewrites the
 * table once. Written by hand in the generator's form.
 */
export class Migration20261127020000_a2a_message_bytes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "a2a_messages" add column "bytes" int generated always as (octet_length("message"::text)) stored;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "a2a_messages" drop column "bytes";`);
  }
}
