import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { DEFAULT_SEARCH_SYNONYMS } from "~/content/search-synonyms";
import { fieldMessage, readFieldMessage } from "~/lib/problem";
import { listProducts } from "~/models/products/catalog.server";
import { searchProducts } from "~/models/products/search.server";
import {
  loadSearchSynonyms,
  resetSearchSynonyms,
  SEARCH_SYNONYMS_KEY,
  saveSearchSynonyms,
  searchTermsIn,
} from "~/models/settings/search-synonyms.server";
import type { CurrentUser } from "~/request/auth.server";
import { action, loader } from "~/routes/admin/search-synonyms";
import { loader as searchPageLoader } from "~/routes/resources/search";
import { loader as searchResultsLoader } from "~/routes/store/search";
import { formatSynonymGroups, parseSynonymGroups } from "~/schemas/search-synonyms";
import { catalogueVersion } from "../server/page-cache";
import { createCategory, createProduct, createSignedIn } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { formOf, runRoute } from "./setup/route";

/**
 * Issue 25 item 7: search synonyms (docs/decisions/043). 步槍 found 1 rifle where 長槍 found 9;
 * a term of a synonym group now finds what every word of the group finds, on both databases,
 * with the owner's list from Settings → Search synonyms (or the shop's default one).
 */

let svc: TestServices;
let db: DB;
let OWNER: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  db = svc.db;
  OWNER = await createSignedIn(db, { email: "owner@synonyms.test", admin: true });
});

const names = async (term: string) => (await searchProducts(db, term, "HKD")).map((hit) => hit.name_en).sort();

/** The status of a thrown answer: a Response, or `data(…, { status })`. */
function statusOf(thrown: unknown): number | undefined {
  if (thrown instanceof Response) return thrown.status;
  return (thrown as { init?: { status?: number } } | undefined)?.init?.status;
}

function post(body: Record<string, string>): Request {
  return new Request("http://shop.test/admin/settings/search", { method: "POST", body: formOf(body) });
}

/** A small catalogue whose words only meet through synonyms. */
async function rifleShelf() {
  const rifles = await createCategory(db, { name_en: "Long guns", name_zh: "長槍", slug: "long-guns" });
  await createProduct(db, { name_en: "Field Carbine", name_zh: "野戰卡賓槍", category_id: rifles.id });
  await createProduct(db, { name_en: "Marksman DMR", name_zh: "精準射手步槍" });
  await createProduct(db, { name_en: "Hunter Rifle", name_zh: "獵人槍" });
  await createProduct(db, { name_en: "Anti-Fog Goggles", name_zh: "防霧護目鏡" });
  await createProduct(db, { name_en: "Electric Carbine AEG", name_zh: "卡賓電動槍" });
  await createProduct(db, { name_en: "Compact Pistol", name_zh: "緊湊型手槍" });
}

describe("the synonym list's text", () => {
  it("reads one group a line, words split by commas or slashes (ASCII or full-width, 、), repeats within a group once", () => {
    const text = " 長槍 / 步槍,rifle \n\n電槍，電動槍／AEG、 aeg\r\n  goggles ,  護目鏡  ";
    expect(parseSynonymGroups(text)).toEqual({
      groups: [
        ["長槍", "步槍", "rifle"],
        ["電槍", "電動槍", "AEG"],
        ["goggles", "護目鏡"],
      ],
      issues: [],
    });
    expect(parseSynonymGroups("")).toEqual({ groups: [], issues: [] });
  });

  it("says what is wrong and on which line: one word, too short, too long, a word in two groups, too many", () => {
    const { issues } = parseSynonymGroups(
      ["rifle, 長槍", "pistol", "x, sniper", `${"a".repeat(41)}, scope`, "RIFLE / 步槍"].join("\n"),
    );
    expect(issues).toEqual([
      { key: "adminSearch.errors.oneTerm", params: { line: 2 } },
      { key: "adminSearch.errors.termTooShort", params: { line: 3, term: "x", min: 2 } },
      { key: "adminSearch.errors.termTooLong", params: { line: 4, max: 40 } },
      { key: "adminSearch.errors.termRepeated", params: { line: 5, term: "RIFLE", first: 1 } },
    ]);
    const eleven = Array.from({ length: 11 }, (_, i) => `word${i}`).join(", ");
    expect(parseSynonymGroups(eleven).issues).toEqual([
      { key: "adminSearch.errors.tooManyTerms", params: { line: 1, max: 10 } },
    ]);
    const many = Array.from({ length: 101 }, (_, i) => `a${i}, b${i}`).join("\n");
    expect(parseSynonymGroups(many).issues[0]).toEqual({
      key: "adminSearch.errors.tooManyGroups",
      params: { max: 100 },
    });
  });

  it("ships a default list that reads back as itself", () => {
    const text = formatSynonymGroups(DEFAULT_SEARCH_SYNONYMS);
    expect(parseSynonymGroups(text)).toEqual({ groups: DEFAULT_SEARCH_SYNONYMS, issues: [] });
  });

  it("carries a field message's parameters through one string, `count` as a number", () => {
    const message = fieldMessage("adminSearch.errors.termRepeated", { line: 3, term: "a&b=c?", first: 1 });
    expect(readFieldMessage(message)).toEqual({
      key: "adminSearch.errors.termRepeated",
      params: { line: "3", term: "a&b=c?", first: "1" },
    });
    expect(readFieldMessage(fieldMessage("adminSearch.errors.more", { count: 2 })).params?.count).toBe(2);
    expect(readFieldMessage("checkout.errors.required")).toEqual({ key: "checkout.errors.required" });
  });
});

describe("a search with synonyms", () => {
  it("expands a term of a group, ignoring case and full-width letters; other terms stay alone", () => {
    const groups = [
      ["長槍", "步槍", "rifle"],
      ["電槍", "AEG"],
    ];
    expect(searchTermsIn(groups, "步槍")).toEqual(["步槍", "長槍", "rifle"]);
    expect(searchTermsIn(groups, "RIFLE")).toEqual(["RIFLE", "長槍", "步槍"]);
    expect(searchTermsIn(groups, "ＡＥＧ")).toEqual(["ＡＥＧ", "電槍"]);
    expect(searchTermsIn(groups, "rifles")).toEqual(["rifles"]);
    expect(searchTermsIn([], "步槍")).toEqual(["步槍"]);
  });

  it("finds with 步槍 what 長槍 and rifle find (names and categories, 2- and 3+-character words), with the default list", async () => {
    await rifleShelf();
    const rifles = ["Field Carbine", "Hunter Rifle", "Marksman DMR"];
    expect(await names("步槍")).toEqual(rifles);
    expect(await names("長槍")).toEqual(rifles);
    expect(await names("Rifle")).toEqual(rifles);
    expect(await names("護目鏡")).toEqual(["Anti-Fog Goggles"]);
    expect(await names("goggles")).toEqual(["Anti-Fog Goggles"]);
    expect(await names("電槍")).toEqual(["Electric Carbine AEG"]);
    // A word of no group finds what it always found.
    expect(await names("carbine")).toEqual(["Electric Carbine AEG", "Field Carbine"]);
  });

  it("follows the owner's list: a new group, a group taken away, an empty list, the default again", async () => {
    await rifleShelf();
    await saveSearchSynonyms(db, [["槍械", "carbine", "手槍"]], { actorUserId: OWNER.id });
    expect(await names("槍械")).toEqual(["Compact Pistol", "Electric Carbine AEG", "Field Carbine"]);
    expect(await names("步槍")).toEqual(["Marksman DMR"]);
    await saveSearchSynonyms(db, [], { actorUserId: OWNER.id });
    expect(await names("長槍")).toEqual(["Field Carbine"]);
    expect((await loadSearchSynonyms(db)).groups).toEqual([]);
    await resetSearchSynonyms(db, { actorUserId: OWNER.id });
    expect(await names("長槍")).toEqual(["Field Carbine", "Hunter Rifle", "Marksman DMR"]);
    const audit = await db
      .selectFrom("audit_log")
      .select("action")
      .where("entity_id", "=", SEARCH_SYNONYMS_KEY)
      .orderBy("id")
      .execute();
    expect(audit.map((row) => row.action)).toEqual([
      "setting.search_synonyms_updated",
      "setting.search_synonyms_updated",
      "setting.search_synonyms_reset",
    ]);
  });

  it("counts and pages the whole expanded result, and says which words it also looked for", async () => {
    await rifleShelf();
    const listing = await listProducts(db, {
      categoryId: null,
      search: "步槍",
      sort: "newest",
      page: 1,
      currency: "HKD",
    });
    expect(listing.total).toBe(3);
    expect(listing.synonyms).toEqual(["長槍", "rifle", "rifles"]);
    const page = await runRoute(svc, searchResultsLoader, new Request("http://shop.test/search?q=步槍"), null);
    expect(page.result).toMatchObject({ total: 3, synonyms: "“長槍”, “rifle”, and “rifles”" });
    const plain = await runRoute(svc, searchResultsLoader, new Request("http://shop.test/search?q=carbine"), null);
    expect(plain.result).toMatchObject({ total: 2, synonyms: null });
    // The header's panel (search as you type) uses the same list.
    const panel = await runRoute(svc, searchPageLoader, new Request("http://shop.test/resources/search?q=步槍"), null);
    expect((panel.result as { results: unknown[] }).results).toHaveLength(3);
  });

  it("takes quotes and LIKE wildcards in a synonym literally", async () => {
    await createProduct(db, { name_en: 'The "50%" Deal', name_zh: "半價優惠" });
    await saveSearchSynonyms(db, [["半價", '"50%"', "a_b"]], { actorUserId: OWNER.id });
    expect(await names("半價")).toEqual(['The "50%" Deal']);
    expect(await names("a_b")).toEqual(['The "50%" Deal']);
  });

  it("invalidates cached pages when the list changes (site_settings raises the page cache's version)", async () => {
    let before = await catalogueVersion(db);
    await saveSearchSynonyms(db, [["長槍", "rifle"]], { actorUserId: OWNER.id });
    expect(await catalogueVersion(db)).toBeGreaterThan(before);
    before = await catalogueVersion(db);
    await resetSearchSynonyms(db, { actorUserId: OWNER.id });
    expect(await catalogueVersion(db)).toBeGreaterThan(before);
  });
});

describe("Settings → Search synonyms", () => {
  it("shows the list as text, one group a line; the default list until the owner saves one", async () => {
    const { result } = await runRoute(svc, loader, new Request("http://shop.test/admin/settings/search"), OWNER);
    expect(result).toMatchObject({
      text: formatSynonymGroups(DEFAULT_SEARCH_SYNONYMS),
      groups: DEFAULT_SEARCH_SYNONYMS.length,
      editedText: null,
    });
  });

  it("saves the owner's text and says so", async () => {
    const saved = await runRoute(
      svc,
      action,
      post({ intent: "save", synonyms: "長槍 / 步槍 / rifle\n電槍, AEG" }),
      OWNER,
    );
    expect((saved.result as Response).status).toBe(302);
    expect((saved.result as Response).headers.get("Location")).toBe("/admin/settings/search");
    expect(saved.flash).toMatchObject({ type: "success", key: "adminSearch.saved" });
    expect((await loadSearchSynonyms(db)).groups).toEqual([
      ["長槍", "步槍", "rifle"],
      ["電槍", "AEG"],
    ]);
    const { result } = await runRoute(svc, loader, new Request("http://shop.test/admin/settings/search"), OWNER);
    expect(result).toMatchObject({ text: "長槍, 步槍, rifle\n電槍, AEG", groups: 2 });
    expect((result as { editedText: string | null }).editedText).not.toBeNull();
  });

  it("refuses a bad list with a 400, the messages at the field and the text kept, and saves nothing", async () => {
    const text = "長槍, 步槍\nrifle\n步槍 / x";
    const bad = await runRoute(svc, action, post({ intent: "save", synonyms: text }), OWNER);
    const reply = bad.result as unknown as {
      data: { result: { error: Record<string, string[]>; initialValue: Record<string, string> } };
      init: { status: number };
    };
    expect(reply.init.status).toBe(400);
    // The text comes back as sent (a form post spells its line ends CRLF).
    expect(reply.data.result.initialValue.synonyms?.replace(/\r\n/g, "\n")).toBe(text);
    expect(reply.data.result.error.synonyms?.map((message) => readFieldMessage(message))).toEqual([
      { key: "adminSearch.errors.oneTerm", params: { line: "2" } },
      { key: "adminSearch.errors.termRepeated", params: { line: "3", term: "步槍", first: "1" } },
      { key: "adminSearch.errors.termTooShort", params: { line: "3", term: "x", min: "2" } },
    ]);
    expect((await loadSearchSynonyms(db)).editedAt).toBeNull();

    const huge = await runRoute(svc, action, post({ intent: "save", synonyms: "ab, cd\n".repeat(3000) }), OWNER);
    const hugeReply = huge.result as unknown as { data: { result: { error: Record<string, string[]> } } };
    expect(hugeReply.data.result.error.synonyms?.[0]).toMatch(/^adminSearch\.errors\.textTooLong\?/);
  });

  it("restores the default list after a confirmation", async () => {
    await saveSearchSynonyms(db, [["長槍", "rifle"]], { actorUserId: OWNER.id });
    const ask = await runRoute(svc, action, post({ intent: "reset" }), OWNER);
    expect((ask.result as Response).headers.get("Location")).toBe("/admin/settings/search?reset#reset");
    expect((await loadSearchSynonyms(db)).groups).toEqual([["長槍", "rifle"]]);
    const done = await runRoute(svc, action, post({ intent: "reset", confirmed: "1" }), OWNER);
    expect(done.flash).toMatchObject({ key: "adminSearch.resetDone" });
    expect(await loadSearchSynonyms(db)).toEqual({ groups: DEFAULT_SEARCH_SYNONYMS, editedAt: null });
  });

  it("is the owner's: staff are refused, customers and signed-out visitors too", async () => {
    const staff: CurrentUser = { ...(await createSignedIn(db, { admin: true })), role: "staff" };
    const customer = await createSignedIn(db);
    const read = (user: CurrentUser | null) =>
      runRoute(svc, loader, new Request("http://shop.test/admin/settings/search"), user);
    const write = (user: CurrentUser | null) =>
      runRoute(svc, action, post({ intent: "save", synonyms: "ab, cd" }), user);
    expect(statusOf((await read(staff)).thrown)).toBe(403);
    expect(statusOf((await write(staff)).thrown)).toBe(403);
    // Not an admin: the admin sign-in page for a GET, 403 for a post.
    expect(statusOf((await read(customer)).thrown)).toBe(302);
    expect(statusOf((await write(customer)).thrown)).toBe(403);
    expect(statusOf((await write(null)).thrown)).toBe(403);
    expect((await loadSearchSynonyms(db)).editedAt).toBeNull();
  });
});
