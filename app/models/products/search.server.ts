import type { DB } from "#db/connect.server";
import type { Currency } from "#db/schema";
import { listProducts, normalizeSearch } from "./catalog.server";

export const SEARCH_PANEL_LIMIT = 10;

export interface SearchHit {
  id: number;
  name_en: string;
  name_zh: string;
  category_en: string | null;
  category_zh: string | null;
  image_url: string | null;
  price_cents: number;
  currency: Currency;
}

/** The header panel's results: at most 10, best (featured, newest) first. */
export async function searchProducts(db: DB, term: string, currency: Currency): Promise<SearchHit[]> {
  const q = normalizeSearch(term);
  if ([...q].length < 2) return [];
  const { products } = await listProducts(db, {
    categoryId: null,
    search: q,
    sort: "featured",
    page: 1,
    currency,
    pageSize: SEARCH_PANEL_LIMIT,
  });
  return products.map((p) => ({
    id: p.id,
    name_en: p.name_en,
    name_zh: p.name_zh,
    category_en: p.category_name_en,
    category_zh: p.category_name_zh,
    image_url: p.image_url,
    price_cents: p.price_cents,
    currency: p.currency,
  }));
}
