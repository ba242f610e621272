import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { FETCHER_FIELD } from "~/lib/fetcher";
import { RECEIPT_SLOTS, storeReceiptImage } from "~/lib/receipt-images.server";
import { MemoryStorage, type StorageArea } from "~/lib/storage.server";
import { payForCheckout } from "~/models/orders/place.server";
import { findSessionRecord } from "~/models/sessions.server";
import { getCheckout } from "~/request/checkout.server";
import { commitSession, hashToken, sessionContext, sessionCookie } from "~/request/session.server";
import { action as paymentAction } from "~/routes/store/payment";
import { variantStock } from "./factories";
import { freshTestServices } from "./setup/db";
import { formOf, runRoute, shopperAtPayment } from "./setup/route";

/*
 * Issue 31, item 5: fifty payments at once. The receipt's slot covers its re-encoding only (the
 * write waits on the disk, not on a core), a payment that can no longer succeed is refused before
 * its receipt is encoded, and the order still never exists without its receipt file.
 */

async function jpeg(): Promise<File> {
  const bytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#246" } })
    .jpeg()
    .toBuffer();
  return new File([new Uint8Array(bytes)], "receipt.jpg", { type: "image/jpeg" });
}

/** A memory storage that counts its writes, and can hold them (a slow disk) or fail them. */
class WatchedStorage extends MemoryStorage {
  puts = 0;
  hold: Promise<void> | null = null;
  failWith: Error | null = null;

  override async put(area: StorageArea, key: string, data: Buffer, contentType: string): Promise<void> {
    this.puts++;
    if (this.failWith) throw this.failWith;
    if (this.hold) await this.hold;
    return super.put(area, key, data, contentType);
  }
}

async function until(condition: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("receipt slots", () => {
  it("hand the slot on before the write: slow writes do not hold back the next receipts' encoding", async () => {
    const storage = new WatchedStorage();
    let open = () => {};
    storage.hold = new Promise<void>((resolve) => {
      open = resolve;
    });
    const file = await jpeg();
    const stored = Array.from({ length: RECEIPT_SLOTS + 2 }, () => storeReceiptImage(storage, file, "receipts/u1"));
    try {
      // Every receipt is encoded and waiting on its write, though no write has finished.
      await until(() => storage.puts === RECEIPT_SLOTS + 2);
    } finally {
      open(); // the slots are the process's: never leave them held for the next test
    }
    const keys = await Promise.all(stored);
    expect(new Set(keys).size).toBe(RECEIPT_SLOTS + 2);
    expect(storage.files.size).toBe(RECEIPT_SLOTS + 2);
  });

  it("still encode at most RECEIPT_SLOTS receipts at once, in arrival order", async () => {
    const storage = new WatchedStorage();
    const file = await jpeg();
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: RECEIPT_SLOTS * 3 }, (_, n) =>
        storeReceiptImage(storage, file, "receipts/u1", {
          beforeEncode: async () => {
            active++;
            peak = Math.max(peak, active);
            order.push(n);
            await new Promise((resolve) => setTimeout(resolve, 5));
            active--;
          },
        }),
      ),
    );
    expect(peak).toBe(RECEIPT_SLOTS);
    expect(order).toEqual(Array.from({ length: RECEIPT_SLOTS * 3 }, (_, n) => n));
  });
});

describe("the payment form under a crowd", () => {
  function post(fields: Record<string, string | Blob>) {
    return new Request("http://localhost/payment", { method: "POST", body: formOf(fields) });
  }

  it("refuses a payment for a colour sold out meanwhile before its receipt is encoded or written", async () => {
    const base = await freshTestServices({ demoMode: true });
    const storage = new WatchedStorage();
    const svc = { ...base, storage };
    const { user, ctx, submissionKey, product } = await shopperAtPayment(svc);
    await svc.db.updateTable("product_variants").set({ stock: 0 }).where("product_id", "=", product.id).execute();
    const session = ctx.get(sessionContext);
    await commitSession(svc.db, sessionCookie("test-secret-test-secret-test-secret", false), session, {
      ip: null,
      userAgent: null,
    });
    const { result, flash } = await runRoute(
      svc,
      paymentAction,
      post({ submissionKey, receipt: await jpeg() }),
      user,
      {},
      ctx,
    );
    // Back to the cart, told why (docs/decisions/075): no payment page rendered again.
    const answer = result as unknown as Response;
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/cart");
    expect(flash).toMatchObject({ type: "error", key: "payment.orderFailed", detailKey: "checkout.errors.outOfStock" });
    // The message is stored already (its own relaxed commit): the request's commit has nothing left.
    expect(session.dirty).toBe(false);
    const row = await findSessionRecord(svc.db, hashToken(session.token as string));
    expect(JSON.parse(row?.data ?? "{}").flash).toMatchObject({ detailKey: "checkout.errors.outOfStock" });
    expect(storage.puts).toBe(0);
    expect(await svc.db.selectFrom("orders").select("id").execute()).toHaveLength(0);
  });

  it("a colour sold out while the receipt was written: back to the cart, the receipt removed, no order (JS on too)", async () => {
    const base = await freshTestServices({ demoMode: true });
    const storage = new WatchedStorage();
    const svc = { ...base, storage };
    const { user, ctx, submissionKey, product } = await shopperAtPayment(svc);
    let open = () => {};
    storage.hold = new Promise<void>((resolve) => {
      open = resolve;
    });
    // Sent by the page with JavaScript (the fetcher field): the same redirect, which the router follows.
    const answering = runRoute(
      svc,
      paymentAction,
      post({ submissionKey, receipt: await jpeg(), [FETCHER_FIELD]: "1" }),
      user,
      {},
      ctx,
    );
    try {
      // The pre-check passed and the receipt is being written when the last pieces go.
      await until(() => storage.puts === 1);
      await svc.db.updateTable("product_variants").set({ stock: 0 }).where("product_id", "=", product.id).execute();
    } finally {
      open();
    }
    const { result, flash } = await answering;
    const answer = result as unknown as Response;
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toBe("/cart");
    expect(flash).toMatchObject({ type: "error", key: "payment.orderFailed", detailKey: "checkout.errors.outOfStock" });
    expect(storage.puts).toBe(1);
    expect(storage.files.size).toBe(0);
    expect(await svc.db.selectFrom("orders").select("id").execute()).toHaveLength(0);
    // The checkout is kept: once the cart is fixed, the shopper pays with what they typed.
    expect(getCheckout(ctx)?.submissionKey).toBe(submissionKey);
  });

  it("the same form sent 10 times at once: the sends still queued when the order is made answer with it", async () => {
    const base = await freshTestServices({ demoMode: true });
    const storage = new WatchedStorage();
    const svc = { ...base, storage };
    const { user, ctx, submissionKey } = await shopperAtPayment(svc);
    const checkout = getCheckout(ctx);
    const cart = await svc.db.selectFrom("carts").select("id").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    const receipt = await jpeg();
    // Each send read its session before any order existed; most then wait for a receipt slot
    // while the first ones place the order and empty the cart.
    const sends = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        payForCheckout(svc.db, storage, {
          userId: user.id,
          cartId: cart.id,
          currency: "HKD",
          locale: "en",
          checkout,
          submissionKey,
          receipt,
          payLater: false,
          demoMode: true,
          supportEmail: "shop@example.hk",
          defaultPaymentWindowHours: 48,
          publicUrl: "http://localhost",
        }),
      ),
    );
    const refused = sends.filter((send) => send.status === "rejected");
    expect(refused, JSON.stringify(refused)).toEqual([]);
    const orders = await svc.db.selectFrom("orders").select(["id", "receipt_path"]).execute();
    expect(orders).toHaveLength(1);
    const ids = sends.map((send) => (send.status === "fulfilled" ? send.value.order.id : null));
    expect(new Set(ids)).toEqual(new Set([orders[0]?.id]));
  });

  it("places the order with its receipt file stored first", async () => {
    const base = await freshTestServices({ demoMode: true });
    const storage = new WatchedStorage();
    const svc = { ...base, storage };
    const { user, ctx, submissionKey, product } = await shopperAtPayment(svc);
    const { result } = await runRoute(
      svc,
      paymentAction,
      post({ submissionKey, receipt: await jpeg() }),
      user,
      {},
      ctx,
    );
    expect((result as Response).status).toBe(302);
    const order = await svc.db.selectFrom("orders").selectAll().executeTakeFirstOrThrow();
    expect(order.receipt_path).toMatch(new RegExp(`^receipts/${user.id}/.+\\.jpg$`));
    expect(await storage.exists("private", order.receipt_path as string)).toBe(true);
    expect(await variantStock(svc.db, product.id)).toBe(3);
  });

  it("saves the shopper's session (checkout cleared, the order's message) in the order's own commit", async () => {
    const base = await freshTestServices({ demoMode: true });
    const svc = { ...base, storage: new WatchedStorage() };
    const { user, ctx, submissionKey } = await shopperAtPayment(svc);
    const session = ctx.get(sessionContext);
    // A stored session, as a signed-in shopper's is.
    await commitSession(svc.db, sessionCookie("test-secret-test-secret-test-secret", false), session, {
      ip: null,
      userAgent: null,
    });
    expect(session.token).not.toBeNull();
    const { result } = await runRoute(
      svc,
      paymentAction,
      post({ submissionKey, receipt: await jpeg() }),
      user,
      {},
      ctx,
    );
    expect((result as Response).status).toBe(302);
    // Already written: the request's own commit has nothing left to save.
    expect(session.dirty).toBe(false);
    const row = await findSessionRecord(svc.db, hashToken(session.token as string));
    const data = JSON.parse(row?.data ?? "{}");
    expect(data.checkout).toBeUndefined();
    expect(data.flash).toMatchObject({ type: "success", key: "payment.orderSubmitted" });
    const order = await svc.db.selectFrom("orders").select("order_number").executeTakeFirstOrThrow();
    expect(data.flash.params.number).toBe(order.order_number);
  });

  it("leaves no order and takes no stock when the receipt cannot be written", async () => {
    const base = await freshTestServices({ demoMode: true });
    const storage = new WatchedStorage();
    storage.failWith = Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
    const svc = { ...base, storage };
    const { user, ctx, submissionKey, product } = await shopperAtPayment(svc);
    const outcome = await runRoute(
      svc,
      paymentAction,
      post({ submissionKey, receipt: await jpeg() }),
      user,
      {},
      ctx,
    ).then(
      (answer) => answer.result,
      (error: unknown) => error,
    );
    expect(outcome).not.toBeInstanceOf(Response);
    expect(storage.puts).toBe(1);
    expect(storage.files.size).toBe(0);
    expect(await svc.db.selectFrom("orders").select("id").execute()).toHaveLength(0);
    expect(await variantStock(svc.db, product.id)).toBe(4);
  });
});
