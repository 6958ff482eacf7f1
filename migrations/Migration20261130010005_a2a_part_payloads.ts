import { Migration } from '@mikro-orm/migrations';

/**
 * `raw` parts' payloads stored apart from their messages (docs/api/a2a-files.md): a message's
 * JSON keeps a `rawApart` member (the decoded size) in their place, and `apart_chars` counts the
 * base64 characters taken out, for the history's byte budget. Messages stored before keep their
 * payloads inline; the readers take both forms.
 */
export class Migration20261130010005_a2a_part_payloads extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "a2a_part_payloads" ("task_id" text not null, "seq" int not null, "part" int not null, "chunk" int not null, "data" text not null, constraint "a2a_part_payloads_pkey" primary key ("task_id", "seq", "part", "chunk"));`,
    );
    this.addSql(
      `alter table "a2a_part_payloads" add constraint "a2a_part_payloads_task_id_foreign" foreign key ("task_id") references "a2a_tasks" ("id") on update no action on delete cascade;`,
    );
    this.addSql(`alter table "a2a_messages" add column "apart_chars" int not null default 0;`);
  }

  override async down(): Promise<void> {
    // The release before reads payloads inline only: they go back into their messages first.
    this.addSql(
      `update "a2a_messages" m set "message" = jsonb_set(m."message", '{parts}', (
         select jsonb_agg(case when jsonb_typeof(p.part->'rawApart') = 'number'
             then (p.part - 'rawApart') || jsonb_build_object('raw', coalesce((select string_agg(c."data", '' order by c."chunk") from "a2a_part_payloads" c
                                                                              where c."task_id" = m."task_id" and c."seq" = m."seq" and c."part" = p.place - 1), ''))
             else p.part end order by p.place)
           from jsonb_array_elements(m."message"->'parts') with ordinality as p (part, place)))
       where m."apart_chars" > 0;`,
    );
    this.addSql(`drop table if exists "a2a_part_payloads" cascade;`);
    this.addSql(`alter table "a2a_messages" drop column "apart_chars";`);
  }
}
