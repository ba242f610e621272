import { type Kysely, sql } from "kysely";

// Frozen in time: never import application code here.
// What a new owner needs to make the shop their own (docs/decisions/020):
// - GBP/EUR/USD prices that follow HKD: each is either typed by the operator or derived from the
//   HKD price at the shop's exchange rate, and a derived one is recomputed whenever the HKD price
//   or the rate changes.
// - Chinese colour names (null: the English name is shown), on variants and on order lines.
// - Demo content marked, so the owner can remove it in one step and the payment page can refuse
//   to send shoppers to the demo bank account.

const DERIVED = ["gbp", "eur", "usd"] as const;
/** The fixed rates of earlier releases, in millionths: a stored price equal to the conversion was left empty. */
const OLD_RATES_PPM = { gbp: 100_000, eur: 118_000, usd: 128_000 } as const;

/** The Chinese names of the demo catalogue's colours. */
const COLOUR_ZH: Record<string, string> = {
  Black: "黑色",
  Tan: "沙色",
  "Olive Drab": "橄欖綠",
  Grey: "灰色",
  "Coyote Brown": "狼棕色",
  "Multi-Terrain Camo": "多地形迷彩",
  "Ranger Green": "遊騎兵綠",
};

/** The demo catalogue as earlier releases seeded it (to mark it in shops that already have it). */
const DEMO_BANK_ACCOUNT = { account_number: "848-302915-838", account_holder: "Harbour Tactical Limited" };
const DEMO_CATEGORY_SLUGS = [
  "rifles",
  "pistols",
  "shotguns",
  "accessories",
  "tactical-gear",
  "new-arrivals",
  "bags-cases",
  "holsters-flashlight",
  "eyewear",
  "tactical-apparel",
];
const DEMO_PRODUCT_NAMES = [
  "M4 CQB Carbine AEG",
  "M-Series Carbine AEG Entry Edition",
  "Gas Blowback Carbine GBB",
  "Starter Spring Carbine",
  "AK Classic Stamped-Steel AEG",
  "Compact Bullpup AEG",
  "Longshot Bolt-Action Sniper Rifle",
  "Marksman DMR AEG 20-inch",
  "Compact Submachine Gun AEG",
  "G-Series Gas Blowback Pistol",
  "Classic 1911-Pattern GBB Pistol",
  "Compact Carry GBB Pistol",
  "Six-Inch CO2 Revolver",
  "Spring Pistol Training Twin Pack",
  "Target-Line NBB Gas Pistol",
  "Select-Fire Machine Pistol GBB",
  "Competition Race Gun GBB 5.1",
  "Electric Compact Pistol AEP",
  "Tri-Shot Spring Shotgun",
  "Tactical Pump Shotgun",
  "Shell-Ejecting Gas Pump Shotgun",
  "Breacher Short Spring Shotgun",
  "Over-Under Gas Shotgun",
  "1-4x24 Low Power Scope",
  "Compact Red Dot Sight 1x22",
  "3-9x40 Sniper Scope with Rings",
  "AEG Mid-Cap Magazine 120 rds (3-Pack)",
  "GBB Pistol Spare Magazine 25 rds",
  "0.25 g Precision BBs (4000 rds)",
  "0.20 g Biodegradable BBs (5000 rds)",
  "11.1V 1300 mAh LiPo Battery",
  "Two-Point Padded Sling",
  "Vertical Foregrip",
  "Mock Suppressor 14 mm CCW",
  "Folding Rail Bipod",
  "Plate Carrier Lite",
  "Assault Plate Carrier Pro",
  "Modular Chest Rig",
  "High-Cut Bump Helmet",
  "Mesh Lower Face Mask",
  "Full-Finger Tactical Gloves",
  "Triple Magazine Pouch (MOLLE)",
  "Padded Battle Belt",
  "Knee & Elbow Pad Set",
  "Padded Rifle Bag 100 cm",
  "Waterproof Hard Case 105 cm",
  "30 L Assault Backpack",
  "Polymer Retention Holster",
  "1000-Lumen Weapon Light",
  "Anti-Fog Tactical Goggles",
  "Ballistic Shooting Glasses (3-Lens Kit)",
  "Field Combat Shirt",
  "Tactical Baseball Cap",
];
const DEMO_POST_TITLES = [
  "Hong Kong's 2-Joule Rule: What Every Airsoft Buyer Should Know",
  "Gas, AEG or Spring? Choosing Your First Airsoft Gun",
  "Summer Field-Day Checklist for Hong Kong Players",
];

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current schema type
export async function up(db: Kysely<any>): Promise<void> {
  for (const currency of DERIVED) {
    const column = `price_${currency}_derived`;
    await db.schema
      .alterTable("products")
      .addColumn(column, "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db
      .updateTable("products")
      .set({ [column]: 1 })
      .where(
        sql.ref(`price_${currency}_cents`),
        "=",
        sql`(cast(price_hkd_cents as bigint) * ${sql.lit(OLD_RATES_PPM[currency])} + 500000) / 1000000`,
      )
      .execute();
  }

  await db.schema.alterTable("product_variants").addColumn("color_zh", "text").execute();
  await db.schema.alterTable("order_lines").addColumn("color_zh", "text").execute();
  for (const [en, zh] of Object.entries(COLOUR_ZH)) {
    await db.updateTable("product_variants").set({ color_zh: zh }).where("color", "=", en).execute();
    await db.updateTable("order_lines").set({ color_zh: zh }).where("color", "=", en).execute();
  }

  for (const table of ["categories", "products", "blog_posts", "bank_accounts"]) {
    await db.schema
      .alterTable(table)
      .addColumn("is_demo", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  }
  const demoAccount = await db
    .selectFrom("bank_accounts")
    .select("id")
    .where("account_number", "=", DEMO_BANK_ACCOUNT.account_number)
    .where("account_holder", "=", DEMO_BANK_ACCOUNT.account_holder)
    .executeTakeFirst();
  // Only a shop that was seeded with the demo has its bank account: mark the rest of the demo there.
  if (demoAccount) {
    await db.updateTable("bank_accounts").set({ is_demo: 1 }).where("id", "=", demoAccount.id).execute();
    await db.updateTable("categories").set({ is_demo: 1 }).where("slug", "in", DEMO_CATEGORY_SLUGS).execute();
    await db.updateTable("products").set({ is_demo: 1 }).where("name_en", "in", DEMO_PRODUCT_NAMES).execute();
    await db.updateTable("blog_posts").set({ is_demo: 1 }).where("title_en", "in", DEMO_POST_TITLES).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["categories", "products", "blog_posts", "bank_accounts"]) {
    await db.schema.alterTable(table).dropColumn("is_demo").execute();
  }
  await db.schema.alterTable("order_lines").dropColumn("color_zh").execute();
  await db.schema.alterTable("product_variants").dropColumn("color_zh").execute();
  for (const currency of DERIVED) {
    await db.schema.alterTable("products").dropColumn(`price_${currency}_derived`).execute();
  }
}
