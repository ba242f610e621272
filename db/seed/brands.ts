/**
 * The demo catalogue's brands (docs/decisions/052): makers Hong Kong airsoft buyers look for,
 * seeded with is_demo = 1 and removed with the demo data. A proper noun is written the same in
 * both languages unless the brand is commonly known by a Chinese name.
 */
export const SEED_BRANDS = [
  { slug: "tokyo-marui", name: "Tokyo Marui", name_zh: "東京丸井", sort_order: 1 },
  { slug: "g-g", name: "G&G", name_zh: null, sort_order: 2 },
  { slug: "krytac", name: "Krytac", name_zh: null, sort_order: 3 },
  { slug: "vfc", name: "VFC", name_zh: null, sort_order: 4 },
] as const;

export type SeedBrandSlug = (typeof SEED_BRANDS)[number]["slug"];

/** Which demo product (by its English name) is of which brand; the others have none. */
export const SEED_PRODUCT_BRANDS: Record<string, SeedBrandSlug> = {
  "G-Series Gas Blowback Pistol": "tokyo-marui",
  "Classic 1911-Pattern GBB Pistol": "tokyo-marui",
  "Competition Race Gun GBB 5.1": "tokyo-marui",
  "Electric Compact Pistol AEP": "tokyo-marui",
  "Tri-Shot Spring Shotgun": "tokyo-marui",
  "M-Series Carbine AEG Entry Edition": "g-g",
  "AK Classic Stamped-Steel AEG": "g-g",
  "Compact Bullpup AEG": "g-g",
  "M4 CQB Carbine AEG": "krytac",
  "Compact Submachine Gun AEG": "krytac",
  "Gas Blowback Carbine GBB": "vfc",
  "Select-Fire Machine Pistol GBB": "vfc",
};
