import { describe, expect, it } from "vitest";
import { now } from "#db/connect.server";
import { MemoryStorage } from "~/lib/storage.server";
import { createBrand } from "~/models/brands.server";
import { removeDemoData } from "~/models/demo-data.server";
import { createProduct } from "./factories";
import { freshTestServices } from "./setup/db";

/*
 * "Remove demo data" and the demo brands (docs/decisions/052), on both databases: demo brands go
 * with the demo products; one the owner's product uses stays, no longer marked demo; the owner's
 * own brands stay.
 */

describe("removeDemoData and brands", () => {
  it("removes the demo brands except one a remaining product uses, which stays unmarked", async () => {
    const { db } = await freshTestServices();
    const at = now();
    const demoBrand = async (slug: string) =>
      (
        await db
          .insertInto("brands")
          .values({ name: slug, slug, sort_order: 0, is_demo: 1, created_at: at, updated_at: at })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
    const marui = await demoBrand("tokyo-marui");
    const vfc = await demoBrand("vfc");
    const krytac = await demoBrand("krytac");
    const own = (await createBrand(db, { name: "Own Brand" }, { actorUserId: null })).id;
    const demoProduct = await createProduct(db, { brand_id: vfc });
    await db.updateTable("products").set({ is_demo: 1 }).where("id", "=", demoProduct.id).execute();
    await createProduct(db, { brand_id: marui });
    await createProduct(db, { brand_id: own });

    await removeDemoData(db, new MemoryStorage(), { actorUserId: null });
    const left = await db.selectFrom("brands").select(["id", "is_demo"]).orderBy("id").execute();
    expect(left).toEqual([
      { id: marui, is_demo: 0 },
      { id: own, is_demo: 0 },
    ]);
    expect(left.map((row) => row.id)).not.toContain(krytac);
  });
});
