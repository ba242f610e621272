import { createInstance } from "i18next";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { I18nextInstanceProvider as I18nextProvider } from "~/lib/i18n";
import { UserError } from "~/lib/problem";
import type { MemoryStorage } from "~/lib/storage.server";
import resources from "~/locales";
import { languageCookie } from "~/middleware/i18next";
import {
  createBankAccount,
  deleteBankAccount,
  findPaymentAccount,
  listBankAccounts,
  makePrimaryBankAccount,
  updateBankAccount,
} from "~/models/payment-accounts.server";
import {
  DEFAULT_HERO_URL,
  findHeroImage,
  getSetting,
  HERO_IMAGE_KEY,
  updateHeroImage,
} from "~/models/settings/site-settings.server";
import type { CurrentUser } from "~/request/auth.server";
import Settings, { action, loader } from "~/routes/admin/settings";
import { type BankAccountInput, bankAccountSchema } from "~/schemas/bank-account";
import { createSignedIn, uniqueTag } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

let svc: TestServices;
let db: DB;
let storage: MemoryStorage;
let ADMIN: CurrentUser;
let CUSTOMER: CurrentUser;
let actor: { actorUserId: string };
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db, storage } = svc);
  ADMIN = await createSignedIn(db, { email: "settings-boss@shop.hk", admin: true });
  CUSTOMER = await createSignedIn(db, { email: "settings-buyer@shop.hk" });
  actor = { actorUserId: ADMIN.id };
});

function input(overrides: Partial<BankAccountInput> = {}): BankAccountInput {
  const tag = uniqueTag();
  return {
    bank_name: `Test Bank ${tag}`,
    account_holder: "Harbour Tactical Limited",
    account_number: `000-${tag}`,
    fps_id: null,
    swift_code: null,
    routing_number: null,
    bank_address: null,
    is_primary: false,
    ...overrides,
  };
}

async function primaries() {
  return (await listBankAccounts(db)).filter((account) => account.is_primary).map((account) => account.id);
}

async function audits(action: string, entityId: number | string) {
  return db
    .selectFrom("audit_log")
    .selectAll()
    .where("action", "=", action)
    .where("entity_id", "=", String(entityId))
    .execute();
}

async function png(width = 60, height = 40): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 30 } } })
    .png()
    .toBuffer();
}

describe("the bank account schema", () => {
  it("requires bank name, account holder and account number with translation-key messages", () => {
    const result = bankAccountSchema.safeParse({ bank_name: " ", account_holder: "", account_number: "" });
    expect(result.success).toBe(false);
    const issues = result.error?.issues.map((issue) => [issue.path.join("."), issue.message]);
    expect(issues).toContainEqual(["bank_name", "adminSettings.errors.bankNameRequired"]);
    expect(issues).toContainEqual(["account_holder", "adminSettings.errors.accountHolderRequired"]);
    expect(issues).toContainEqual(["account_number", "adminSettings.errors.accountNumberRequired"]);
  });

  it("accepts a SWIFT code of 8 or 11 letters or digits (upper-cased), refuses other lengths", () => {
    const base = { bank_name: "HSBC", account_holder: "Me", account_number: "123-456" };
    expect(bankAccountSchema.parse({ ...base, swift_code: "hsbchkhh" }).swift_code).toBe("HSBCHKHH");
    expect(bankAccountSchema.parse({ ...base, swift_code: "HSBCHKHHHKH" }).swift_code).toBe("HSBCHKHHHKH");
    expect(bankAccountSchema.parse({ ...base }).swift_code).toBeNull();
    for (const bad of ["HSBCHK", "HSBCHKHHH", "HSBC-HKHH"]) {
      const result = bankAccountSchema.safeParse({ ...base, swift_code: bad });
      expect(result.error?.issues.map((issue) => issue.message)).toEqual(["adminSettings.errors.swiftInvalid"]);
    }
  });

  it("checks account numbers and FPS ids, and turns empty optional fields into null", () => {
    const base = { bank_name: "HSBC", account_holder: "Me" };
    expect(bankAccountSchema.safeParse({ ...base, account_number: "12<script>" }).success).toBe(false);
    const ok = bankAccountSchema.parse({ ...base, account_number: "848-302915-838", fps_id: "1648203" });
    expect(ok).toMatchObject({ fps_id: "1648203", routing_number: null, bank_address: null, is_primary: false });
    expect(bankAccountSchema.parse({ ...base, account_number: "1", fps_id: "shop@example.com" }).fps_id).toBe(
      "shop@example.com",
    );
    expect(bankAccountSchema.safeParse({ ...base, account_number: "1", fps_id: "abc" }).success).toBe(false);
    expect(bankAccountSchema.safeParse({ ...base, account_number: "1", bank_name: "x".repeat(101) }).success).toBe(
      false,
    );
  });
});

describe("bank account model", () => {
  it("makes the first account primary, then switches primary in one step; the payment page follows", async () => {
    const first = await createBankAccount(db, input(), actor);
    expect(first.is_primary).toBe(true);
    const second = await createBankAccount(db, input(), actor);
    expect(second.is_primary).toBe(false);
    expect(await primaries()).toEqual([first.id]);
    // Newest first.
    expect((await listBankAccounts(db))[0]?.id).toBe(second.id);

    const made = await makePrimaryBankAccount(db, second.id, actor);
    expect(made.is_primary).toBe(true);
    expect(await primaries()).toEqual([second.id]);
    expect((await findPaymentAccount(db))?.id).toBe(second.id);
    const [audit] = await audits("bank_account.made_primary", second.id);
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({
      before: { primary_account_id: first.id },
      after: { primary_account_id: second.id },
    });
    expect(audit?.actor_user_id).toBe(ADMIN.id);

    // A third one added as primary takes the role from the second.
    const third = await createBankAccount(db, input({ is_primary: true }), actor);
    expect(await primaries()).toEqual([third.id]);
    expect(await audits("bank_account.created", third.id)).toHaveLength(1);
  });

  it("leaves exactly one primary when two admins switch it to different accounts at the same moment", async () => {
    const accounts = [];
    for (let i = 0; i < 4; i++) accounts.push(await createBankAccount(db, input(), actor));
    // Four switches at once (on PostgreSQL each on its own connection: the table lock orders them).
    const results = await Promise.allSettled(accounts.map((account) => makePrimaryBankAccount(db, account.id, actor)));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    const primary = await primaries();
    expect(primary).toHaveLength(1);
    expect((await findPaymentAccount(db))?.id).toBe(primary[0]);
  });

  it("updates an account with before and after; the primary one cannot be unticked", async () => {
    const created = await createBankAccount(db, input({ is_primary: true }), actor);
    const { id } = created;
    await expect(updateBankAccount(db, id, input({ is_primary: false }), actor)).rejects.toMatchObject({
      problem: { field: "is_primary", key: "adminSettings.errors.primaryStays" },
    });

    const updated = await updateBankAccount(
      db,
      id,
      input({ bank_name: "Renamed Bank", swift_code: "HSBCHKHH", is_primary: true }),
      actor,
    );
    expect(updated).toMatchObject({ bank_name: "Renamed Bank", swift_code: "HSBCHKHH" });
    const [audit] = await audits("bank_account.updated", id);
    const details = JSON.parse(audit?.details ?? "{}");
    expect(details.before.bank_name).toBe(created.bank_name);
    expect(details.after.bank_name).toBe("Renamed Bank");

    const other = await createBankAccount(db, input(), actor);
    const switched = await updateBankAccount(db, other.id, input({ is_primary: true }), actor);
    expect(switched.is_primary).toBe(true);
    expect(await primaries()).toEqual([other.id]);
    await expect(updateBankAccount(db, 999_999, input(), actor)).rejects.toBeInstanceOf(UserError);
  });

  it("deleting the primary makes the newest remaining account primary", async () => {
    const older = await createBankAccount(db, input(), actor);
    const newer = await createBankAccount(db, input(), actor);
    const primary = await createBankAccount(db, input({ is_primary: true }), actor);
    const deleted = await deleteBankAccount(db, primary.id, actor);
    expect(deleted.id).toBe(primary.id);
    expect(await primaries()).toEqual([newer.id]);
    const [audit] = await audits("bank_account.deleted", primary.id);
    expect(JSON.parse(audit?.details ?? "{}")).toMatchObject({ before: { id: primary.id }, after: null });
    // Deleting one that is not primary leaves the primary alone.
    await deleteBankAccount(db, older.id, actor);
    expect(await primaries()).toEqual([newer.id]);
    await expect(deleteBankAccount(db, older.id, actor)).rejects.toBeInstanceOf(UserError);
  });
});

describe("hero image model", () => {
  it("upserts the setting, deletes the previous file, and audits", async () => {
    expect((await findHeroImage(db)).url).toBe(DEFAULT_HERO_URL);
    const first = "hero/first.webp";
    const second = "hero/second.webp";
    await storage.put("public", first, await png(), "image/webp");
    await storage.put("public", second, await png(), "image/webp");
    await updateHeroImage(db, storage, first, actor);
    expect(await getSetting(db, HERO_IMAGE_KEY)).toBe(first);
    await updateHeroImage(db, storage, second, actor);
    expect(await findHeroImage(db)).toMatchObject({ key: second, url: `/uploads/${second}` });
    expect(await storage.exists("public", first)).toBe(false);
    expect(await storage.exists("public", second)).toBe(true);
    const rows = await audits("setting.hero_updated", HERO_IMAGE_KEY);
    expect(rows.map((row) => JSON.parse(row.details ?? "{}"))).toContainEqual({
      before: { value: first },
      after: { value: second },
    });
  });
});

/* ---------------------------------------------------------------------------------------- */

const run = <T>(fn: (args: never) => Promise<T>, request: Request, user: CurrentUser | null) =>
  runRoute(svc, fn, request, user);

async function post(form: FormData, user: CurrentUser | null = ADMIN, search = "") {
  const request = new Request(`http://localhost/admin/settings${search}`, {
    method: "POST",
    body: form,
    headers: { Cookie: await languageCookie.serialize("en") },
  });
  return run(action, request, user);
}

type Reply = {
  data: { intent: string; result: { status?: string; error?: Record<string, string[]> } };
  init: { status: number };
};

const location = (result: unknown) => (result as Response).headers.get("Location");

describe("the Settings route", () => {
  it("refuses every non-admin post with 403 and changes nothing", async () => {
    const created = await createBankAccount(db, input(), actor);
    const before = await db.selectFrom("bank_accounts").selectAll().orderBy("id").execute();
    const heroBefore = await getSetting(db, HERO_IMAGE_KEY);
    const id = String(created.id);
    const hero = formOf({ intent: "hero" });
    hero.set("hero", new File([new Uint8Array(await png())], "h.png", { type: "image/png" }));
    const forms = [
      formOf({ intent: "create", bank_name: "Evil", account_holder: "Evil", account_number: "666" }),
      formOf({ intent: "update", id, bank_name: "Evil", account_holder: "Evil", account_number: "666" }),
      formOf({ intent: "make_primary", id }),
      formOf({ intent: "delete", id, confirmed: "1" }),
      formOf({ intent: "hero_reset" }),
      hero,
    ];
    for (const user of [CUSTOMER, null]) {
      for (const form of forms) {
        const { thrown } = await post(form, user);
        expect((thrown as Response).status).toBe(403);
      }
    }
    expect(await db.selectFrom("bank_accounts").selectAll().orderBy("id").execute()).toEqual(before);
    expect(await getSetting(db, HERO_IMAGE_KEY)).toBe(heroBefore);
  });

  it("sends a non-admin page view to /admin/login", async () => {
    const { thrown } = await run(loader, new Request("http://localhost/admin/settings"), CUSTOMER);
    expect((thrown as Response).headers.get("Location")).toBe("/admin/login");
  });

  it("adds an account with the flash, and answers bad input with 400 and field errors", async () => {
    const added = await post(
      formOf({
        intent: "create",
        bank_name: "Route Bank",
        account_holder: "Route Holder",
        account_number: "111-222-333",
        swift_code: "routhkhh",
      }),
    );
    expect(location(added.result)).toBe("/admin/settings");
    expect(added.flash).toMatchObject({ type: "success", key: "adminSettings.accountAdded" });
    const row = (await listBankAccounts(db)).find((account) => account.bank_name === "Route Bank");
    expect(row).toMatchObject({ swift_code: "ROUTHKHH", account_holder: "Route Holder" });
    expect(await audits("bank_account.created", row?.id ?? 0)).toHaveLength(1);

    const bad = await post(formOf({ intent: "create", bank_name: "", account_holder: "", account_number: "" }));
    const reply = bad.result as unknown as Reply;
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error?.bank_name).toEqual(["adminSettings.errors.bankNameRequired"]);
    expect(reply.data.result.error?.account_holder).toEqual(["adminSettings.errors.accountHolderRequired"]);
    expect(reply.data.result.error?.account_number).toEqual(["adminSettings.errors.accountNumberRequired"]);
  });

  it("updates, makes primary, and deletes only after a confirmation", async () => {
    await createBankAccount(db, input(), actor); // the shop's first account, so primary
    const created = await createBankAccount(db, input(), actor);
    const id = String(created.id);
    const updated = await post(
      formOf({ intent: "update", id, bank_name: "Edited Bank", account_holder: "H", account_number: "42" }),
      ADMIN,
      `?edit=${id}`,
    );
    expect(location(updated.result)).toBe("/admin/settings");
    expect(updated.flash).toMatchObject({ key: "adminSettings.accountUpdated" });

    const made = await post(formOf({ intent: "make_primary", id }));
    expect(made.flash).toMatchObject({ key: "adminSettings.accountMadePrimary" });
    expect(await primaries()).toEqual([created.id]);

    const first = await post(formOf({ intent: "delete", id }));
    expect(location(first.result)).toBe(`/admin/settings?delete=${id}#bank-delete`);
    expect(await primaries()).toEqual([created.id]);
    const done = await post(formOf({ intent: "delete", id, confirmed: "1" }));
    expect(location(done.result)).toBe("/admin/settings");
    expect(done.flash).toMatchObject({ key: "adminSettings.accountDeleted" });
    expect((await primaries()).length).toBe(1);
    expect(await primaries()).not.toContain(created.id);
  });

  it("uploads a hero image through the pipeline, resets it, and refuses a bad or too-large file", async () => {
    const previous = await getSetting(db, HERO_IMAGE_KEY);
    const form = formOf({ intent: "hero" });
    form.set("hero", new File([new Uint8Array(await png(3000, 2000))], "hero.png", { type: "image/png" }));
    const { result, flash } = await post(form);
    expect(location(result)).toBe("/admin/settings");
    expect(flash).toMatchObject({ key: "adminSettings.heroUpdated" });
    const key = await getSetting(db, HERO_IMAGE_KEY);
    expect(key).toMatch(/^hero\/[\w-]+\.webp$/);
    expect(key).not.toBe(previous);
    const stored = await storage.get("public", key ?? "");
    const meta = await sharp(stored?.data).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 2400, height: 1600 });
    if (previous) expect(await storage.exists("public", previous)).toBe(false);

    const text = formOf({ intent: "hero" });
    text.set("hero", new File(["not an image"], "x.png", { type: "image/png" }));
    const refused = (await post(text)).result as unknown as Reply;
    expect(refused.init.status).toBe(400);
    expect(refused.data.result.error?.hero).toEqual(["errors.image.unsupportedType"]);

    const big = formOf({ intent: "hero" });
    big.set("hero", new File([new Uint8Array(10 * 1024 * 1024 + 10)], "big.png", { type: "image/png" }));
    const tooLarge = (await post(big)).result as unknown as Reply;
    expect(tooLarge.init.status).toBe(400);
    expect(tooLarge.data.result.error?.hero).toEqual(["adminSettings.errors.heroTooLarge"]);
    expect(await getSetting(db, HERO_IMAGE_KEY)).toBe(key);

    const reset = await post(formOf({ intent: "hero_reset" }));
    expect(reset.flash).toMatchObject({ key: "adminSettings.heroReset" });
    expect(await getSetting(db, HERO_IMAGE_KEY)).toBeNull();
    expect(await storage.exists("public", key ?? "")).toBe(false);
  });
});

describe("the Settings page", () => {
  async function render(search: string, actionData?: unknown, language: "en" | "zh" = "en") {
    const request = new Request(`http://localhost/admin/settings${search}`, {
      headers: { Cookie: await languageCookie.serialize(language) },
    });
    const { result } = await run(loader, request, ADMIN);
    const i18n = createInstance();
    await i18n.init({ resources, lng: language, interpolation: { escapeValue: false } });
    const Stub = createRoutesStub([
      { id: "settings", path: "/admin/settings", Component: Settings as unknown as React.ComponentType },
    ]);
    return renderToString(
      createElement(
        I18nextProvider,
        { i18n },
        createElement(Stub, {
          initialEntries: [`/admin/settings${search}`],
          hydrationData: {
            loaderData: { settings: result },
            ...(actionData ? { actionData: { settings: actionData } } : {}),
          },
        }),
      ),
    );
  }

  it("shows both sections, the list with the primary badge, and the hero preview", async () => {
    const created = await createBankAccount(db, input({ bank_name: "Listed Bank", is_primary: true }), actor);
    const html = await render("");
    expect(html).toContain("Site Appearance");
    expect(html).toContain("Banking Information");
    expect(html).toContain("PNG, JPG, GIF or WebP up to 10MB");
    expect(html).toContain(`src="${DEFAULT_HERO_URL}"`);
    expect(html).toContain("Listed Bank");
    expect(html).toContain("Primary");
    expect(html).toContain("Add Bank Account");
    expect(html).toContain(`href="/admin/settings?edit=${created.id}#bank-form"`);
    expect(html).not.toContain('name="confirmed"');
    const zh = await render("", undefined, "zh");
    expect(zh).toContain("網站外觀");
    expect(zh).toContain("銀行資料");
  });

  it("pre-fills the form for ?edit= with Update and Cancel Edit, and confirms ?delete=", async () => {
    const created = await createBankAccount(db, input({ bank_name: "Edit Me Bank", swift_code: "EDITHKHH" }), actor);
    const edit = await render(`?edit=${created.id}`);
    expect(edit).toContain("Edit Bank Account");
    expect(edit).toContain('value="Edit Me Bank"');
    expect(edit).toContain('value="EDITHKHH"');
    expect(edit).toContain("Update");
    expect(edit).toContain("Cancel Edit");
    const confirm = await render(`?delete=${created.id}`);
    expect(confirm).toContain("Are you sure you want to delete this bank account?");
    expect(confirm).toContain('name="confirmed" value="1"');
  });

  it("keeps the typed values and shows the message next to the field after a 400", async () => {
    const created = await createBankAccount(db, input(), actor);
    const id = String(created.id);
    const { result } = await post(
      formOf({
        intent: "update",
        id,
        bank_name: "Typed Bank",
        account_holder: "",
        account_number: "9",
        swift_code: "BAD",
      }),
      ADMIN,
      `?edit=${id}`,
    );
    const reply = result as unknown as Reply;
    expect(reply.init.status).toBe(400);
    const html = await render(`?edit=${id}`, reply.data);
    expect(html).toContain('value="Typed Bank"');
    expect(html).toContain('value="BAD"');
    expect(html).toContain("Account holder is required");
    expect(html).toContain("A SWIFT code has 8 or 11 letters or digits.");
  });

  it("shows the spec's size message for a too-large hero image", async () => {
    const big = formOf({ intent: "hero" });
    big.set("hero", new File([new Uint8Array(10 * 1024 * 1024 + 10)], "big.png", { type: "image/png" }));
    const reply = (await post(big)).result as unknown as Reply;
    const html = await render("", reply.data);
    expect(html).toContain("Image file size must be less than 10MB");
  });
});
