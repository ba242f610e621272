import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrateToLatest, openDatabase } from "#db/connect.server";
import { startPostgres } from "./postgres";

/**
 * Global set-up of the `postgres` test project: one throwaway cluster for the run, with a
 * migrated template database every test database is created from (CREATE DATABASE … TEMPLATE,
 * a file copy, instead of migrating again). Stopped when the run ends.
 */
export default async function setup(project: TestProject) {
  const cluster = await startPostgres();
  const admin = new pg.Client({ connectionString: cluster.url("postgres") });
  await admin.connect();
  await admin.query("CREATE DATABASE shop_template");
  await admin.end();
  const db = openDatabase(cluster.url("shop_template"));
  await migrateToLatest(db);
  await db.destroy();
  project.provide("postgresAdminUrl", cluster.url("postgres"));
  return () => cluster.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    postgresAdminUrl: string;
  }
}
