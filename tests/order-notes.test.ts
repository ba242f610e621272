import { beforeEach, describe, expect, it } from "vitest";
import type { DB } from "#db/connect.server";
import { UserError } from "~/lib/problem";
import type { Language } from "~/locales";
import { languageCookie } from "~/middleware/i18next";
import { transitionOrder } from "~/models/orders/desk.server";
import { addOrderNote, listOrderNotes, orderTimeline } from "~/models/orders/notes.server";
import type { CurrentUser } from "~/request/auth.server";
import AdminOrder, { action, loader } from "~/routes/admin/order";
import AccountOrder, { loader as accountOrderLoader } from "~/routes/store/account-order";
import { createCustomer, createSignedIn, placeTestOrder } from "./factories";
import { freshTestServices, type TestServices } from "./setup/db";
import { renderPage } from "./setup/render";
import { adminAccount, dataOf, formOf, runRoute, statusOf } from "./setup/route";

/**
 * Staff notes on an order (issue 29 item 5, docs/decisions/058): any admin adds one, audited;
 * the admin order page lists it with its author and time among the order's history; the
 * shopper's order page and e-mails never show it.
 */

let svc: TestServices;
let db: DB;
let OWNER: CurrentUser;
beforeEach(async () => {
  svc = await freshTestServices();
  ({ db } = svc);
  OWNER = await createSignedIn(db, { email: "notes-owner@shop.hk", admin: true });
});

describe("addOrderNote", () => {
  it("stores the trimmed text with its author, audited, and lists notes oldest first", async () => {
    const { order } = await placeTestOrder(db);
    const first = await addOrderNote(db, OWNER, { orderId: order.id, body: "  Called the customer: ships Monday. \n" });
    expect(first).toMatchObject({ body: "Called the customer: ships Monday.", author: "notes-owner@shop.hk" });
    await addOrderNote(db, OWNER, { orderId: order.id, body: "Second" });
    const notes = await listOrderNotes(db, order.id);
    expect(notes.map((note) => note.body)).toEqual(["Called the customer: ships Monday.", "Second"]);
    expect(notes[0]?.author).toBe("notes-owner@shop.hk");
    const audit = await db
      .selectFrom("audit_log")
      .select(["action", "actor_user_id", "entity_type", "entity_id", "details"])
      .where("action", "=", "order.note_added")
      .orderBy("id")
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ actor_user_id: OWNER.id, entity_type: "order", entity_id: order.id });
    expect(JSON.parse(audit[0]?.details ?? "{}").after).toEqual({
      note_id: first.id,
      body: "Called the customer: ships Monday.",
    });
  });

  it("refuses an empty or too long note and an unknown order, writing nothing", async () => {
    const { order } = await placeTestOrder(db);
    const refused = async (orderId: string, body: string) => {
      const error = await addOrderNote(db, OWNER, { orderId, body }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UserError);
      return (error as UserError).problem.key;
    };
    expect(await refused(order.id, "   ")).toBe("adminOrders.staffNotes.bodyRequired");
    expect(await refused(order.id, "x".repeat(2001))).toBe("adminOrders.staffNotes.bodyTooLong");
    expect(await refused("00000000-0000-4000-8000-000000000000", "Hello")).toBe("adminOrders.errors.notFound");
    expect(await refused("not-an-id", "Hello")).toBe("adminOrders.errors.notFound");
    expect(await db.selectFrom("order_notes").selectAll().execute()).toEqual([]);
    // 2,000 characters is allowed.
    await addOrderNote(db, OWNER, { orderId: order.id, body: "x".repeat(2000) });
    expect(await listOrderNotes(db, order.id)).toHaveLength(1);
  });

  it("keeps a note whose author's account is deleted, and goes with its order", async () => {
    const { order } = await placeTestOrder(db);
    const staff = await createCustomer(db, { email: "leaver@shop.hk" });
    await addOrderNote(db, { id: staff.id }, { orderId: order.id, body: "From a leaver" });
    await db.deleteFrom("audit_log").where("actor_user_id", "=", staff.id).execute();
    await db.deleteFrom("users").where("id", "=", staff.id).execute();
    expect(await listOrderNotes(db, order.id)).toMatchObject([{ body: "From a leaver", author: null }]);
    await db.deleteFrom("order_lines").where("order_id", "=", order.id).execute();
    await db.deleteFrom("outbox_messages").where("order_id", "=", order.id).execute();
    await db.deleteFrom("orders").where("id", "=", order.id).execute();
    expect(await db.selectFrom("order_notes").selectAll().execute()).toEqual([]);
  });
});

describe("orderTimeline", () => {
  it("merges changes, sent e-mails and notes in time order, without the note's own audit entry", () => {
    const entries = orderTimeline(
      [
        { action: "order.placed", actor: null, created_at: "2026-11-01T01:00:00.000Z" },
        { action: "order.note_added", actor: "a@shop.hk", created_at: "2026-11-01T03:00:00.000Z" },
        { action: "order.markPaid", actor: "a@shop.hk", created_at: "2026-11-01T04:00:00.000Z" },
      ],
      [
        {
          id: "m1",
          channel: "email",
          subject: "Paid",
          recipient: "c@x.hk",
          language: "zh",
          status: "sent",
          sent_at: "2026-11-01T04:30:00.000Z",
        },
        {
          id: "m2",
          channel: "email",
          subject: "Waiting",
          recipient: "c@x.hk",
          language: "en",
          status: "pending",
          sent_at: null,
        },
        {
          id: "w1",
          channel: "webhook",
          subject: "order.paid",
          recipient: "https://x",
          language: "en",
          status: "sent",
          sent_at: "2026-11-01T04:31:00.000Z",
        },
      ],
      [{ id: 1, body: "Note", author: "a@shop.hk", created_at: "2026-11-01T03:00:00.000Z" }],
    );
    expect(entries.map((entry) => `${entry.kind}@${entry.at.slice(11, 16)}`)).toEqual([
      "audit@01:00",
      "note@03:00",
      "audit@04:00",
      "message@04:30",
    ]);
    // The subject is marked with its recipient's language on the page (the Chinese back office).
    expect(entries.find((entry) => entry.kind === "message")).toMatchObject({ subject: "Paid", language: "zh" });
  });
});

describe("the order page's note form", () => {
  const url = (id: string) => `http://localhost/admin/orders/${id}`;
  const post = (id: string, fields: Record<string, string>, user: CurrentUser | null) =>
    runRoute(svc, action, new Request(url(id), { method: "POST", body: formOf(fields) }), user, { id });
  const page = async (id: string, user: CurrentUser, language: Language = "en") => {
    const request = new Request(url(id), { headers: { Cookie: await languageCookie.serialize(language) } });
    const { result, thrown } = await runRoute(svc, loader, request, user, { id });
    expect(thrown).toBeUndefined();
    return {
      data: result,
      html: await renderPage({
        url: `/admin/orders/${id}`,
        pattern: "/admin/orders/:id",
        Component: AdminOrder,
        loaderData: result,
        language,
      }),
    };
  };

  it("lets a member of staff add a note, shown with its author and Hong Kong time in both languages", async () => {
    const { order } = await placeTestOrder(db);
    const staff = await adminAccount(svc, "staff");
    const { result, flash } = await post(
      order.id,
      { intent: "addNote", body: "Customer asked for a gift wrap" },
      staff,
    );
    expect((result as Response).headers.get("Location")).toBe(`/admin/orders/${order.id}#history-heading`);
    expect(flash).toMatchObject({ type: "success", key: "adminOrders.staffNotes.added" });
    const [note] = await listOrderNotes(db, order.id);
    const at = new Date(note?.created_at ?? "");
    const hk = new Date(at.getTime() + 8 * 3600 * 1000);
    const hhmm = `${String(hk.getUTCHours()).padStart(2, "0")}:${String(hk.getUTCMinutes()).padStart(2, "0")}`;
    const en = await page(order.id, OWNER, "en");
    expect(en.html).toContain("Customer asked for a gift wrap");
    expect(en.html).toContain(`Note by ${staff.email}`);
    expect(en.html).toContain(hhmm);
    const zh = await page(order.id, OWNER, "zh");
    expect(zh.html).toContain(`${staff.email} 的備註`);
    expect(zh.html).toContain("Customer asked for a gift wrap");
  });

  it("refuses an empty or too long note with 400, the error next to the field and the text kept", async () => {
    const { order } = await placeTestOrder(db);
    for (const body of ["   ", "y".repeat(2001)]) {
      const { result, thrown } = await post(order.id, { intent: "addNote", body }, OWNER);
      expect(thrown).toBeUndefined();
      expect(statusOf(result)).toBe(400);
      const answer = dataOf<{ result: { error: Record<string, string[]>; initialValue: Record<string, string> } }>(
        result,
      );
      expect(answer.result.error.body?.[0]).toMatch(/adminOrders\.staffNotes\.body(Required|TooLong)/);
      const { data } = await page(order.id, OWNER);
      const html = await renderPage({
        url: `/admin/orders/${order.id}`,
        pattern: "/admin/orders/:id",
        Component: AdminOrder,
        loaderData: data,
        actionData: dataOf(result),
      });
      expect(html).toMatch(/id="note-body-errors"[^>]*>.*(Write the note first|at most 2,000 characters)/s);
      if (body.startsWith("y")) expect(html).toContain(body);
    }
    expect(await listOrderNotes(db, order.id)).toEqual([]);
  });

  it("refuses a shopper or a signed-out visitor with 403, writing nothing", async () => {
    const { order, user } = await placeTestOrder(db);
    const shopper: CurrentUser = { id: user.id, email: user.email, isAdmin: false, role: null };
    for (const who of [shopper, null]) {
      const { thrown } = await post(order.id, { intent: "addNote", body: "Sneaky" }, who);
      expect(statusOf(thrown)).toBe(403);
    }
    expect(await listOrderNotes(db, order.id)).toEqual([]);
  });

  it("is never shown to the shopper: not on their order page, not in their e-mails", async () => {
    const { order, user } = await placeTestOrder(db);
    await addOrderNote(db, OWNER, { orderId: order.id, body: "Internal: suspected reseller" });
    await transitionOrder(db, svc.config, OWNER, {
      orderId: order.id,
      transition: "markPaid",
      expected: "pending_payment",
    });
    const shopper: CurrentUser = { id: user.id, email: user.email, isAdmin: false, role: null };
    for (const language of ["en", "zh"] as const) {
      const request = new Request(`http://localhost/orders/${order.id}`, {
        headers: { Cookie: await languageCookie.serialize(language) },
      });
      const { result, thrown } = await runRoute(svc, accountOrderLoader, request, shopper, { id: order.id });
      expect(thrown).toBeUndefined();
      expect(JSON.stringify(result)).not.toContain("suspected reseller");
      const html = await renderPage({
        url: `/orders/${order.id}`,
        pattern: "/orders/:id",
        Component: AccountOrder,
        loaderData: result,
        language,
      });
      expect(html).not.toContain("suspected reseller");
    }
    const mails = await db.selectFrom("outbox_messages").selectAll().where("order_id", "=", order.id).execute();
    expect(mails.length).toBeGreaterThan(0);
    expect(JSON.stringify(mails)).not.toContain("suspected reseller");
  });
});
