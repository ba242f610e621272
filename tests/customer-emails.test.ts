import { describe, expect, it } from "vitest";
import { sendPasswordResetEmail, sendVerificationEmail } from "~/models/account-token.server";
import { sendOrderStatusEmail } from "~/models/orders/desk.server";
import { runPaymentDeadlines } from "~/models/orders/payment-deadlines.server";
import { sendOrderReceivedEmail } from "~/models/orders/place.server";
import { DEFAULT_SHOP, saveShopDetails } from "~/models/settings/shop.server";
import { createCustomer, placeTestOrder } from "./factories";
import { freshTestServices } from "./setup/db";

/**
 * Every e-mail the shop sends a customer answers to the shop's support address (Reply-To), as
 * the owner set it in Settings → Shop details, while it is sent from the sender address (often
 * a no-reply one): order received, each status change, the payment reminder and the
 * cancellation for no payment, the account links.
 */

const SUPPORT = "help@lionrock.example";
const SENDER = "no-reply@lionrock.example";

describe("e-mails to customers", () => {
  it("all reply to the shop's support e-mail", async () => {
    const svc = await freshTestServices();
    const { db, mailer, config } = svc;
    await saveShopDetails(db, { ...DEFAULT_SHOP, supportEmail: SUPPORT, senderEmail: SENDER }, { actorUserId: null });

    const { order: withReceipt } = await placeTestOrder(db);
    await sendOrderReceivedEmail(db, mailer, config, withReceipt);
    for (const transition of ["rejectReceipt", "markPaid", "markShipped", "cancel"] as const) {
      await sendOrderStatusEmail(db, mailer, config, withReceipt, transition);
    }
    const { order: unpaid } = await placeTestOrder(db, { receiptPath: null, locale: "zh" });
    await sendOrderReceivedEmail(db, mailer, config, unpaid);
    // Past the reminder, then past the deadline: a reminder, then the cancellation.
    const due = Date.parse(unpaid.payment_due_at ?? "");
    await runPaymentDeadlines(db, mailer, config, new Date(due - 60_000));
    await runPaymentDeadlines(db, mailer, config, new Date(due + 60_000));
    const customer = await createCustomer(db);
    await sendVerificationEmail(db, mailer, config, customer, "en");
    await sendPasswordResetEmail(db, mailer, config, customer, "zh");

    expect(mailer.sent).toHaveLength(10);
    for (const message of mailer.sent) {
      expect(message, message.subject).toMatchObject({ replyTo: SUPPORT, from: `"Harbour Tactical" <${SENDER}>` });
    }
  });
});
