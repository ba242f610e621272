import type { Kysely } from "kysely";

// Frozen in time: never import application code here.
// E-mail verification (optional at sign-up) and one table of single-use account tokens
// (password reset, e-mail verification), told apart by purpose.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("email_verified_at", "text").execute();
  await db.schema
    .alterTable("password_reset_tokens")
    .addColumn("purpose", "text", (c) => c.notNull().defaultTo("reset"))
    .execute();
  await db.schema
    .createIndex("password_reset_tokens_user")
    .on("password_reset_tokens")
    .columns(["user_id", "purpose"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("password_reset_tokens_user").execute();
  await db.schema.alterTable("password_reset_tokens").dropColumn("purpose").execute();
  await db.schema.alterTable("users").dropColumn("email_verified_at").execute();
}
