import type { Kysely } from "kysely";

// Frozen in time: never import application code here.

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(_db: Kysely<any>): Promise<void> {}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(_db: Kysely<any>): Promise<void> {}
