import { beforeEach, describe, expect, it } from "vitest";
import { convertFromHkd } from "~/lib/money";
import { productZoneIds, setCategoryZones, setProductZones } from "~/models/orders/restrictions.server";
import { loadShop } from "~/models/settings/shop.server";
import { listZones, loadZone } from "~/models/shipping/zones.server";
import type { CurrentUser } from "~/request/auth.server";
import { action as formAction, loader as formLoader } from "~/routes/admin/shipping-zone";
import { action as listAction, loader as listLoader } from "~/routes/admin/shipping-zones";
import { createCategory, createProduct, createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { adminAccount, dataOf, formOf, runRoute, statusOf } from "./setup/route";

/*
 * Settings → Shipping zones (issue 27, docs/decisions/047) on a real database — SQLite, and
 * PostgreSQL in the `postgres` project: the owner adds, edits and deletes zones with their
 * countries, fees, thresholds and weight bands; staff and customers are refused; bad input comes
 * back next to its field with the input kept; a zone that is some item's only destination stays.
 */

let svc: TestServices;
let owner: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  owner = await adminAccount(svc, "owner");
});

const BASE = "http://localhost";
const post = (path: string, fields: Record<string, string | string[]>) =>
  new Request(`${BASE}${path}`, { method: "POST", body: formOf(fields) });

const MACAU = {
  name_en: "Macau",
  name_zh: "澳門",
  sort_order: "1",
  "countries[]": ["MO"],
  fee_hkd: "35",
  free_above_hkd: "500.00",
  "bands_hkd[0].max_grams": "5000",
  "bands_hkd[0].fee": "45",
  "bands_hkd[1].max_grams": "1000",
  "bands_hkd[1].fee": "20.50",
  fee_eur: "4.00",
};

async function macauId(): Promise<number> {
  const zone = (await listZones(svc.db)).find((candidate) => candidate.nameEn === "Macau");
  if (!zone) throw new Error("no Macau zone");
  return zone.id;
}

describe("Settings → Shipping zones", () => {
  it("adds a zone with its countries, fees and bands; an empty currency follows HKD; the list and audit show it", async () => {
    const added = await runRoute(svc, formAction, post("/admin/settings/shipping/new", MACAU), owner);
    expect(added.flash).toMatchObject({ key: "adminZones.created", params: { name: "Macau / 澳門" } });
    const id = await macauId();
    const zone = await loadZone(svc.db, id);
    const { exchangeRates } = await loadShop(svc.db);
    expect(zone).toMatchObject({ countries: ["MO"], restOfWorld: false });
    expect(zone?.rates.HKD).toEqual({
      feeCents: 35_00,
      freeAboveCents: 500_00,
      bands: [
        { maxGrams: 1000, feeCents: 20_50 },
        { maxGrams: 5000, feeCents: 45_00 },
      ],
    });
    // GBP left empty: HKD's rule at the shop's rate, bands too. EUR typed: its own flat fee.
    expect(zone?.rates.GBP).toEqual({
      feeCents: convertFromHkd(35_00, exchangeRates.GBP),
      freeAboveCents: convertFromHkd(500_00, exchangeRates.GBP),
      bands: [
        { maxGrams: 1000, feeCents: convertFromHkd(20_50, exchangeRates.GBP) },
        { maxGrams: 5000, feeCents: convertFromHkd(45_00, exchangeRates.GBP) },
      ],
    });
    expect(zone?.rates.EUR).toEqual({ feeCents: 4_00, freeAboveCents: null, bands: [] });

    const list = await runRoute(svc, listLoader, new Request(`${BASE}/admin/settings/shipping`), owner);
    const row = list.result?.zones.find((candidate) => candidate.id === id);
    expect(row).toMatchObject({ countries: ["Macau"], restOfWorld: false });
    expect(row?.rates.find((rate) => rate.currency === "HKD")).toMatchObject({
      fee: "HK$35.00",
      freeAbove: "HK$500.00",
      bands: 2,
    });

    // The edit page: GBP shows empty (it follows HKD), EUR its own fee, HKD's bands lightest first.
    const page = await runRoute(svc, formLoader, new Request(`${BASE}/admin/settings/shipping/${id}`), owner, {
      id: String(id),
    });
    expect(page.result?.defaults).toMatchObject({
      name_en: "Macau",
      countries: ["MO"],
      fee_hkd: "35.00",
      bands_hkd: [
        { max_grams: "1000", fee: "20.50" },
        { max_grams: "5000", fee: "45.00" },
      ],
      fee_eur: "4.00",
    });
    expect(page.result?.defaults).not.toHaveProperty("fee_gbp");
    const audit = await svc.db.selectFrom("audit_log").select(["action", "actor_user_id"]).execute();
    expect(audit).toContainEqual({ action: "shipping_zone.created", actor_user_id: owner.id });
  });

  it("edits a zone: new countries and rates replace the old, and a country of another zone is refused there (409)", async () => {
    await runRoute(svc, formAction, post("/admin/settings/shipping/new", MACAU), owner);
    const id = await macauId();
    const saved = await runRoute(
      svc,
      formAction,
      post(`/admin/settings/shipping/${id}`, { ...MACAU, "countries[]": ["MO", "TW"], free_above_hkd: "" }),
      owner,
      { id: String(id) },
    );
    expect(saved.flash).toMatchObject({ key: "adminZones.updated" });
    expect(await loadZone(svc.db, id)).toMatchObject({
      countries: ["MO", "TW"],
      rates: { HKD: { freeAboveCents: null } },
    });

    const taken = await runRoute(
      svc,
      formAction,
      post("/admin/settings/shipping/new", { ...MACAU, name_en: "Asia", name_zh: "亞洲", "countries[]": ["TW", "JP"] }),
      owner,
    );
    expect(statusOf(taken.result)).toBe(409);
    expect(dataOf<{ problem: { key: string; field: string } }>(taken.result).problem).toMatchObject({
      key: "adminZones.errors.countryTaken",
      field: "countries",
    });
    expect((await listZones(svc.db)).map((zone) => zone.nameEn)).not.toContain("Asia");

    const missing = await runRoute(svc, formLoader, new Request(`${BASE}/admin/settings/shipping/999999`), owner, {
      id: "999999",
    });
    expect(statusOf(missing.thrown)).toBe(404);
  });

  it("answers bad input with 400, each message at its field and the input kept", async () => {
    const bad = await runRoute(
      svc,
      formAction,
      post("/admin/settings/shipping/new", {
        name_en: "",
        name_zh: "澳門",
        "countries[]": ["MO", "XX"],
        fee_hkd: "",
        "bands_hkd[0].max_grams": "1.5",
        "bands_hkd[0].fee": "abc",
        "bands_hkd[1].max_grams": "800",
        "bands_hkd[1].fee": "10",
        "bands_hkd[2].max_grams": "800",
        "bands_hkd[2].fee": "12",
      }),
      owner,
    );
    expect(statusOf(bad.result)).toBe(400);
    const { result } = dataOf<{ result: { error: Record<string, string[]>; initialValue: Record<string, unknown> } }>(
      bad.result,
    );
    expect(result.error).toMatchObject({
      name_en: ["adminZones.errors.nameRequired"],
      countries: ["adminZones.errors.countryUnknown"],
      fee_hkd: ["adminZones.errors.feeRequired"],
      "bands_hkd[0].max_grams": ["adminZones.errors.gramsInvalid"],
      "bands_hkd[0].fee": ["adminZones.errors.amountInvalid"],
      "bands_hkd[2].max_grams": ["adminZones.errors.gramsRepeated"],
    });
    expect(result.initialValue).toMatchObject({
      name_zh: "澳門",
      bands_hkd: [{ max_grams: "1.5", fee: "abc" }, { max_grams: "800" }, { max_grams: "800" }],
    });

    // A GBP threshold without a GBP fee is half a rule: the fee is asked for (HKD's fields being right).
    const half = await runRoute(
      svc,
      formAction,
      post("/admin/settings/shipping/new", { ...MACAU, free_above_gbp: "20" }),
      owner,
    );
    expect(statusOf(half.result)).toBe(400);
    expect(dataOf<{ result: { error: Record<string, string[]> } }>(half.result).result.error).toEqual({
      fee_gbp: ["adminZones.errors.feeForOwnRule"],
    });
    expect(await listZones(svc.db)).toHaveLength(1);
  });

  it("adds and removes band rows without JavaScript (Conform's list intents through the server), saving nothing", async () => {
    const added = await runRoute(
      svc,
      formAction,
      post("/admin/settings/shipping/new", {
        ...MACAU,
        __intent__: JSON.stringify({
          type: "insert",
          payload: { name: "bands_usd", defaultValue: { max_grams: "", fee: "" } },
        }),
      }),
      owner,
    );
    const { result } = dataOf<{ result: { initialValue: Record<string, unknown> } }>(added.result);
    expect(result.initialValue.bands_usd).toHaveLength(1);
    expect(result.initialValue).toMatchObject({ name_en: "Macau", fee_hkd: "35" });
    expect(await listZones(svc.db)).toHaveLength(1);
  });

  it("refuses staff, customers and signed-out visitors, changing nothing", async () => {
    const staff = await adminAccount(svc, "staff");
    const customer = await createSignedIn(svc.db);
    const everywhere = (await listZones(svc.db))[0];
    for (const who of [staff, customer, null]) {
      const page = await runRoute(svc, listLoader, new Request(`${BASE}/admin/settings/shipping`), who);
      expect(page.result).toBeUndefined();
      expect([302, 403]).toContain(statusOf(page.thrown));
      const form = await runRoute(svc, formLoader, new Request(`${BASE}/admin/settings/shipping/new`), who);
      expect([302, 403]).toContain(statusOf(form.thrown));
      const add = await runRoute(svc, formAction, post("/admin/settings/shipping/new", MACAU), who);
      expect(statusOf(add.thrown ?? add.result)).toBe(403);
      const remove = await runRoute(
        svc,
        listAction,
        post("/admin/settings/shipping", { intent: "delete", id: String(everywhere?.id), confirmed: "1" }),
        who,
      );
      expect(statusOf(remove.thrown ?? remove.result)).toBe(403);
    }
    expect(await listZones(svc.db)).toHaveLength(1);
  });
});

describe("deleting a zone", () => {
  it("asks first (a plain post leads to the confirmation), then deletes it", async () => {
    await runRoute(svc, formAction, post("/admin/settings/shipping/new", MACAU), owner);
    const id = await macauId();
    const first = await runRoute(
      svc,
      listAction,
      post("/admin/settings/shipping", { intent: "delete", id: String(id) }),
      owner,
    );
    expect((first.result as Response).headers.get("Location")).toBe(`/admin/settings/shipping?delete=${id}`);
    const page = await runRoute(svc, listLoader, new Request(`${BASE}/admin/settings/shipping?delete=${id}`), owner);
    expect(page.result?.deleting).toEqual({ id, name: "Macau / 澳門" });
    const confirmed = await runRoute(
      svc,
      listAction,
      post("/admin/settings/shipping", { intent: "delete", id: String(id), confirmed: "1" }),
      owner,
    );
    expect(confirmed.flash).toMatchObject({ key: "adminZones.deleted" });
    expect(await loadZone(svc.db, id)).toBeNull();
  });

  it("refuses to delete the only zone an item may go to (409, named); one of several limits just goes", async () => {
    await runRoute(svc, formAction, post("/admin/settings/shipping/new", MACAU), owner);
    const macau = await macauId();
    const everywhere = (await listZones(svc.db)).find((zone) => zone.restOfWorld)?.id ?? 0;
    const rifle = await createProduct(svc.db, { name_en: "Macau Rifle", name_zh: "澳門步槍" });
    await setProductZones(svc.db, rifle.id, [macau]);
    const both = await createProduct(svc.db);
    await setProductZones(svc.db, both.id, [macau, everywhere]);

    const refused = await runRoute(
      svc,
      listAction,
      post("/admin/settings/shipping", { intent: "delete", id: String(macau), confirmed: "1" }),
      owner,
    );
    expect(statusOf(refused.result)).toBe(409);
    expect(dataOf<{ problem: { key: string; params: Record<string, unknown> } }>(refused.result).problem).toMatchObject(
      {
        key: "adminZones.errors.onlyLimit",
        params: { name: "Macau Rifle / 澳門步槍", count: 1 },
      },
    );
    expect(await loadZone(svc.db, macau)).not.toBeNull();

    // A category limited to Everywhere only keeps Everywhere too.
    const category = await createCategory(svc.db, { name_en: "Rifles only", name_zh: "只限長槍" });
    await setCategoryZones(svc.db, category.id, [everywhere]);
    const everywhereRefused = await runRoute(
      svc,
      listAction,
      post("/admin/settings/shipping", { intent: "delete", id: String(everywhere), confirmed: "1" }),
      owner,
    );
    expect(
      dataOf<{ problem: { params: Record<string, unknown> } }>(everywhereRefused.result).problem.params,
    ).toMatchObject({
      name: "Rifles only / 只限長槍",
    });

    // The rifle may go elsewhere now: Macau goes, and the other product keeps Everywhere.
    await setProductZones(svc.db, rifle.id, [macau, everywhere]);
    const deleted = await runRoute(
      svc,
      listAction,
      post("/admin/settings/shipping", { intent: "delete", id: String(macau), confirmed: "1" }),
      owner,
    );
    expect(deleted.flash).toMatchObject({ key: "adminZones.deleted" });
    expect(await productZoneIds(svc.db, both.id)).toEqual([everywhere]);
    expect(await productZoneIds(svc.db, rifle.id)).toEqual([everywhere]);
  });
});
