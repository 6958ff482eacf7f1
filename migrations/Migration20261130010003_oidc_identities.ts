import { Migration } from '@mikro-orm/migrations';

export class Migration20261130010003_oidc_identities extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "oidc_identities" ("issuer" text not null, "subject" text not null, "user_id" text not null, "email" text null, "created_at" timestamptz not null default now(), "last_sign_in_at" timestamptz not null default now(), constraint "oidc_identities_pkey" primary key ("issuer", "subject"));`,
    );
    this.addSql(`create index "oidc_identities_user_id_index" on "oidc_identities" ("user_id");`);

    this.addSql(
      `alter table "oidc_identities" add constraint "oidc_identities_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "oidc_identities" cascade;`);
  }
}
