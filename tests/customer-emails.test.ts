import { describe, expect, it } from "vitest";
import { sendPasswordResetEmail } from "~/models/account-token.server";
import { transitionOrder } from "~/models/orders/desk.server";
import { runPaymentDeadlines } from "~/models/orders/payment-deadlines.server";
import { deliverDueMessages } from "~/models/outbox/deliver.server";
import { DEFAULT_SHOP, saveShopDetails } from "~/models/settings/shop.server";
import { signUp } from "~/models/user.server";
import { action as forgotAction } from "~/routes/store/forgot-password";
import { action as loginAction } from "~/routes/store/login";
import { createCustomer, createSignedIn, placeTestOrder, uniqueTag } from "./factories";
import { freshTestServices } from "./setup/db";
import { queuedEmails } from "./setup/outbox";
import { formOf, runRoute } from "./setup/route";

/**
 * Every e-mail the shop sends a customer answers to the shop's support address (Reply-To), as
 * the owner set it in Settings → Shop details, while it is sent from the sender address (often
 * a no-reply one): order received, each status change, the payment reminder and the
 * cancellation for no payment, the account links. (The shop's own alerts go to the support
 * address, and answer to it too.)
 */

const SUPPORT = "help@lionrock.example";
const SENDER = "no-reply@lionrock.example";

describe("e-mails to customers", () => {
  it("all reply to the shop's support e-mail", async () => {
    const svc = await freshTestServices();
    const { db, mailer, config } = svc;
    await saveShopDetails(db, { ...DEFAULT_SHOP, supportEmail: SUPPORT, senderEmail: SENDER }, { actorUserId: null });
    const admin = await createSignedIn(db, { admin: true });

    const { order: withReceipt } = await placeTestOrder(db);
    const change = (
      orderId: string,
      transition: "rejectReceipt" | "markPaid" | "markShipped" | "cancel",
      expected: "pending_payment" | "paid",
    ) => transitionOrder(db, config, admin, { orderId, transition, expected, reason: "blurred" });
    await change(withReceipt.id, "rejectReceipt", "pending_payment");
    await change(withReceipt.id, "markPaid", "pending_payment");
    await change(withReceipt.id, "markShipped", "paid");
    const { order: cancelled } = await placeTestOrder(db);
    await change(cancelled.id, "cancel", "pending_payment");
    const { order: unpaid } = await placeTestOrder(db, { receiptPath: null, locale: "zh" });
    // Past the reminder, then past the deadline: a reminder, then the cancellation.
    const due = Date.parse(unpaid.payment_due_at ?? "");
    await runPaymentDeadlines(db, config, new Date(due - 60_000));
    await runPaymentDeadlines(db, config, new Date(due + 60_000));
    await signUp(
      db,
      { email: `new-${uniqueTag()}@example.com`, password: "long enough password 1" },
      { config, language: "en" },
    );
    const customer = await createCustomer(db);
    await sendPasswordResetEmail(db, config, customer, "zh");
    await deliverDueMessages(svc, new Date(due + 60_000));

    // Received ×3, rejected, paid, shipped, cancelled, reminder, expired, verify, reset.
    expect(mailer.sent.filter((message) => message.to !== SUPPORT)).toHaveLength(11);
    for (const message of mailer.sent) {
      expect(message, message.subject).toMatchObject({ replyTo: SUPPORT, from: `"Harbour Tactical" <${SENDER}>` });
    }
  });

  it("queue each account link with its token, in the visitor's language; a refused sign-up queues none", async () => {
    const svc = await freshTestServices({ emailVerification: true });
    const post = (path: string, fields: Record<string, string>, language: string) =>
      new Request(`http://localhost${path}`, {
        method: "POST",
        body: formOf(fields),
        headers: { "Accept-Language": language },
      });
    const email = `verify-${uniqueTag()}@example.com`;
    const signup = { intent: "signup", email, password: "long enough password 1" };
    const { result } = await runRoute(svc, loginAction, post("/login", signup, "zh-HK"), null);
    expect((result as Response).status).toBe(302);
    const [verify] = await queuedEmails(svc.db, { to: email });
    expect(verify).toMatchObject({ event: "account.verify", audience: "customer", language: "zh" });
    expect(verify?.text).toMatch(/http:\/\/localhost:3000\/verify-email\?token=[\w-]+/);
    const user = await svc.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    const tokens = await svc.db
      .selectFrom("password_reset_tokens")
      .select("purpose")
      .where("user_id", "=", user.id)
      .execute();
    expect(tokens).toEqual([{ purpose: "verify" }]);
    // The same e-mail again is refused: no second account, no second e-mail.
    const again = await runRoute(svc, loginAction, post("/login", signup, "en"), null);
    expect((again.result as unknown as { init: { status: number } }).init.status).toBe(409);
    expect(await queuedEmails(svc.db, { to: email })).toHaveLength(1);

    // "Forgot password": the reset link, in the language of the page it was asked from.
    const customer = await createCustomer(svc.db);
    await runRoute(svc, forgotAction, post("/forgot-password", { email: customer.email }, "zh-HK"), null);
    const [reset] = await queuedEmails(svc.db, { to: customer.email });
    expect(reset).toMatchObject({ event: "account.reset", language: "zh" });
    expect(reset?.text).toContain("http://localhost:3000/reset-password?token=");
  });
});
