#!/usr/bin/env node
// The product CSV import at scale (npm run bench:csv, issue 19): a fresh SQLite shop with 3,000
// products of two colours, and a 10,000-row file that updates half of them, leaves the rest as
// they are and adds 2,000 new products of two colours. Times the preview (parse + check) and the
// confirm (parse + check again, then the one transaction) as the routes run them, and fails when
// the two together take 30 seconds or more. Runs the app's modules through Vite, as bench/run.mjs.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServer } from "vite";

const EXISTING = 3000;
const NEW = 2000;
const LIMIT_MS = 30_000;

const vite = await createServer({ server: { middlewareMode: true, hmr: false }, appType: "custom", logLevel: "error" });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-bench-csv-"));
let failed = false;
try {
  const { openDatabase, migrateToLatest } = await vite.ssrLoadModule("/db/connect.server.ts");
  const { planProductImport, applyProductImport, productCsvRecords, PRODUCT_CSV_COLUMNS } = await vite.ssrLoadModule(
    "/app/models/products/csv.server.ts",
  );
  const { csvStream } = await vite.ssrLoadModule("/app/lib/csv.server.ts");
  const db = openDatabase(`file:${path.join(dir, "bench.db")}`);
  await migrateToLatest(db);

  // The starting catalogue, written directly: the editor's one-product-at-a-time path is not
  // what is measured here.
  const at = new Date().toISOString();
  const categories = [];
  for (let i = 0; i < 20; i++) {
    categories.push({
      name_en: `Category ${i}`,
      name_zh: `分類 ${i}`,
      slug: `category-${i}`,
      sort_order: i,
      created_at: at,
      updated_at: at,
    });
  }
  await db.insertInto("categories").values(categories).execute();
  const categoryIds = (await db.selectFrom("categories").select("id").orderBy("id").execute()).map((row) => row.id);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < EXISTING; i++) {
      const { id } = await trx
        .insertInto("products")
        .values({
          category_id: categoryIds[i % categoryIds.length],
          name_en: `Bench rifle ${i}`,
          name_zh: `測試步槍 ${i}`,
          description_en: `A rifle, "model ${i}", for the bench.\nSecond line.`,
          description_zh: `第 ${i} 款步槍，測試用。`,
          price_hkd_cents: 100_000 + i,
          price_gbp_cents: 10_000,
          price_eur_cents: 11_000,
          price_usd_cents: 12_000,
          price_gbp_derived: 0,
          price_eur_derived: 0,
          price_usd_derived: 0,
          created_at: at,
          updated_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx
        .insertInto("product_variants")
        .values([
          { product_id: id, color: "Black", color_zh: "黑色", stock: 5, sort_order: 0 },
          { product_id: id, color: "Tan", color_zh: "沙色", stock: 3, sort_order: 1 },
        ])
        .execute();
    }
  });

  // The file: the export of that catalogue (half of it with a new HK$ price), then new products.
  const chunks = [];
  const reader = csvStream(PRODUCT_CSV_COLUMNS, productCsvRecords(db, "http://localhost:3000")).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(Buffer.from(value));
  }
  const exported = Buffer.concat(chunks).toString("utf8");
  const [header, ...rows] = exported.split("\r\n").filter(Boolean);
  const edited = rows.map((row) => {
    const id = Number(row.slice(0, row.indexOf(",")));
    return id % 2 === 0
      ? row.replace(
          /,(\d+)\.(\d\d),100\.00,110\.00,/,
          (_, whole, cents) => `,${Number(whole) + 1}.${cents},100.00,110.00,`,
        )
      : row;
  });
  // New products' rows by column name, in the header's order (columns come and go with releases).
  const columns = header.replace(/^\uFEFF/, "").split(",");
  const quote = (value) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const added = [];
  for (let i = 0; i < NEW; i++) {
    for (const [colour, zh] of [
      ["Black", "黑色"],
      ["Olive", "橄欖綠"],
    ]) {
      const record = {
        name_en: `New pistol ${i}`,
        name_zh: `新手槍 ${i}`,
        description_en: `A new pistol, "${i}"`,
        description_zh: "全新手槍",
        category: `category-${i % 20}`,
        price_hkd: "899.50",
        featured: "no",
        colour,
        colour_zh: zh,
        stock: String(i % 7),
      };
      added.push(columns.map((column) => quote(record[column] ?? "")).join(","));
    }
  }
  const file = Buffer.from(`${header}\r\n${[...edited, ...added].join("\r\n")}\r\n`);
  const rowCount = edited.length + added.length;

  let started = performance.now();
  const preview = await planProductImport(db, file);
  const previewMs = performance.now() - started;

  started = performance.now();
  const plan = await planProductImport(db, file);
  const counts = await applyProductImport(db, plan, null);
  const confirmMs = performance.now() - started;

  const { n } = await db
    .selectFrom("products")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  console.log(`product CSV import, ${rowCount} rows (${(file.length / 1024 / 1024).toFixed(1)} MB)`);
  console.log(
    `  preview: ${previewMs.toFixed(0)} ms — ${preview.creates.length} to create, ${preview.updates.length} to update, ${preview.unchanged} unchanged, ${preview.errors.length} errors`,
  );
  console.log(`  confirm: ${confirmMs.toFixed(0)} ms — ${JSON.stringify(counts)}; products now ${n}`);
  const total = previewMs + confirmMs;
  console.log(`  total:   ${total.toFixed(0)} ms (limit ${LIMIT_MS} ms)`);
  if (preview.errors.length > 0) {
    console.error("  the file should have no errors:", preview.errors.slice(0, 5));
    failed = true;
  }
  if (total >= LIMIT_MS) failed = true;
  await db.destroy();
} finally {
  await vite.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
