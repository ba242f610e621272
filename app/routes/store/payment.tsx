import { useRef, useState } from "react";
import { Form, type RouterContextProvider, redirect, useNavigation } from "react-router";
import type { OrderRow } from "#db/schema";
import { CartSummary } from "~/components/order-summary";
import { DiscountCodeForm } from "~/components/store/discount-code-form";
import { PaymentDetails, withEmailLink } from "~/components/store/payment-details";
import { Submitted } from "~/components/store/payment-states";
import { ReceiptInput } from "~/components/store/receipt-input";
import { ShipTo } from "~/components/store/ship-to";
import { StoreNotice } from "~/components/store/store-notice";
import { SummaryPage } from "~/components/store/summary-page";
import { Button } from "~/components/ui/button";
import { FetcherField } from "~/components/ui/fetcher-field";
import { ProblemAlert } from "~/components/ui/field";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed, UserError } from "~/lib/form-action.server";
import { fpsQrFor } from "~/lib/fps-qr.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { useHydrated } from "~/lib/use-hydrated";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { checkoutOrderNumber, isCartRefusal, payForCheckout } from "~/models/orders/place.server";
import { RECEIPT_FORM_LIMIT, RECEIPT_UNREAD } from "~/models/orders/receipts.server";
import { loadPaymentInstructions } from "~/models/payment-accounts.server";
import { getShop, paymentWindowHours, shopName, titleWithShop } from "~/models/settings/shop.server";
import { requireUser, signedInOnly } from "~/request/auth.server";
import { currentCartId } from "~/request/cart.server";
import { clearCheckout, getCheckout, saveCheckout } from "~/request/checkout.server";
import { loadDiscountedCart, takeDiscountAttempt } from "~/request/discount-code.server";
import { setFlash } from "~/request/flash.server";
import { getSession, saveSessionIn, saveSessionRelaxed } from "~/request/session.server";
import { paymentSchema } from "~/schemas/receipt";
import type { Route } from "./+types/payment";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  const { db, config } = services(context);
  const t = getInstance(context).t;
  const title = await titleWithShop(context, t("payment.title"));
  let checkout = getCheckout(context);
  // A checkout saved before numbers were reserved at checkout gets its number (and a new form key) now.
  if (checkout && !checkout.orderNumber)
    checkout = saveCheckout(context, checkout.customer, checkoutOrderNumber(null), checkout.ageConfirmation);
  const currency = getCurrency(context);
  const shop = await getShop(context);
  // With its discount code (docs/decisions/048): the total the FPS code and the transfer carry.
  const cart = await loadDiscountedCart(context, currency);
  if (!checkout?.orderNumber || cart.lines.length === 0) return { ready: false as const, title };
  const instructions = await loadPaymentInstructions(db, currency, {
    demoMode: config.demoMode,
    supportEmail: shop.supportEmail,
  });
  const hours = paymentWindowHours(shop, config);
  return {
    ready: true as const,
    title,
    cart,
    codeAttempt: takeDiscountAttempt(context),
    customer: checkout.customer,
    submissionKey: checkout.submissionKey,
    orderNumber: checkout.orderNumber,
    language: getLanguage(context),
    instructions,
    // What an order placed now gets (placeOrder sets it from the same setting).
    paymentWindow: { hours, deadline: new Date(Date.now() + hours * 3_600_000).toISOString() },
    // The number the order will have (reserved at checkout) rides in the code as its bill number.
    fpsQr: await fpsQrFor(instructions, cart.totalCents, cart.currency, checkout.orderNumber, {
      merchantName: shopName(shop, "en"),
    }),
  };
}

/**
 * The payment form: the model decides (payForCheckout: the same form sent twice, the checkout,
 * the shop taking orders, the receipt, the order, its e-mail and the shop's alert, queued with it);
 * a new order clears the checkout. Plain post: on to the success page; with JavaScript: the order number as data.
 * A cart that cannot be placed: back to the cart with the reason (303 and a flash, either way).
 */
export const action = formAction(
  {
    schema: paymentSchema,
    maxBytes: RECEIPT_FORM_LIMIT,
    uploadField: "receipt",
    unread: RECEIPT_UNREAD,
    authorize: signedInOnly,
  },
  async ({ context, form, value, auth: user }) => {
    const { db, storage, config } = services(context);
    let paid: Awaited<ReturnType<typeof payForCheckout>>;
    try {
      paid = await payForCheckout(db, storage, {
        userId: user.id,
        cartId: await currentCartId(context),
        currency: getCurrency(context),
        locale: getLanguage(context),
        checkout: getCheckout(context),
        submissionKey: value.submissionKey,
        receipt: value.receipt,
        payLater: value.intent === "later",
        demoMode: config.demoMode,
        supportEmail: (await getShop(context)).supportEmail,
        defaultPaymentWindowHours: config.paymentWindowHours,
        publicUrl: config.publicUrl,
        // The checkout cleared and the success message saved with the order: one commit, not two
        // (docs/decisions/075).
        whenPlaced: async (trx, order) => {
          clearCheckout(context);
          setPaidFlash(context, order);
          await saveSessionIn(trx, getSession(context));
        },
      });
    } catch (error) {
      // A cart that cannot be placed (a colour sold out meanwhile, a product withdrawn, an empty
      // cart) is fixed on the cart page: the shopper goes there, told why (docs/decisions/075).
      // No receipt of theirs is kept (payForCheckout), so the payment page has nothing to keep.
      if (!(error instanceof UserError) || !isCartRefusal(error.problem)) throw error;
      const { key, detailKey, params } = error.problem;
      setFlash(context, { type: "error", key, detailKey, params });
      // Only the message changed: its commit need not wait for the disk (30 refusals at once
      // would otherwise be 30 fsyncs on the event loop).
      await saveSessionRelaxed(db, getSession(context));
      return redirect("/cart", { status: 303 });
    }
    const { order, duplicate } = paid;
    // The same form sent again: its order's message again (a new order's is set already).
    if (duplicate) setPaidFlash(context, order);
    const orderNumber = order.order_number;
    const unpaid = order.receipt_path === null;
    return succeed(context, form, {
      redirectTo: `/payment-success?order=${encodeURIComponent(orderNumber)}`,
      payload: { orderNumber, unpaid },
    });
  },
);

/** The order's message, shown on the success page (which JavaScript reaches a moment later too). */
function setPaidFlash(context: Readonly<RouterContextProvider>, order: OrderRow): void {
  const unpaid = order.receipt_path === null;
  setFlash(context, {
    type: "success",
    key: unpaid ? "payment.placedUnpaid" : "payment.orderSubmitted",
    detailKey: unpaid ? "payment.placedUnpaidDetail" : "payment.orderSubmittedDetail",
    params: {
      number: order.order_number,
      deadline: order.payment_due_at ? formatDate(order.payment_due_at, getLanguage(context), "dateTime") : "",
    },
  });
}

export default function Payment({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const fileInput = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  // The answer whose error a newly chosen file made stale (JavaScript; without it, CSS hides it).
  const [staleAnswer, setStaleAnswer] = useState<typeof actionData>(undefined);
  if (actionData && "orderNumber" in actionData) {
    return <Submitted orderNumber={actionData.orderNumber} unpaid={actionData.unpaid} />;
  }
  if (!loaderData.ready) return <StoreNotice notice="noOrder" />;
  const { cart, customer, submissionKey, orderNumber, instructions, language, paymentWindow, fpsQr, codeAttempt } =
    loaderData;
  const closed = instructions.kind === "closed";
  const problem = actionData && actionData !== staleAnswer ? actionData.problem : null;
  const submitting = navigation.state === "submitting";
  return (
    <SummaryPage
      step="payment"
      title={t("payment.title")}
      summary={
        <CartSummary cart={cart} language={language}>
          <DiscountCodeForm state={{ ...cart, attempt: codeAttempt }} redirectTo="/payment" />
        </CartSummary>
      }
    >
      <div className="flex flex-col gap-6">
        {closed ? (
          <section
            data-testid="payments-closed"
            className="rounded-lg border border-red-300 bg-red-50 p-6 font-semibold text-red-900"
          >
            <p>
              {withEmailLink(t("payment.closedText", { email: instructions.supportEmail }), instructions.supportEmail)}
            </p>
          </section>
        ) : (
          <PaymentDetails
            instructions={instructions}
            amount={formatMoney(cart.totalCents, cart.currency)}
            currency={cart.currency}
            reference={orderNumber}
            qr={fpsQr}
          />
        )}
        {closed ? null : (
          <section
            className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950"
            data-testid="payment-deadline"
          >
            <h2 className="font-semibold">{t("payment.deadlineTitle", { hours: paymentWindow.hours })}</h2>
            <p className="mt-1 text-sm">
              {t("payment.deadlineText", { deadline: formatDate(paymentWindow.deadline, language, "dateTime") })}
            </p>
          </section>
        )}
        <ShipTo title={t("payment.shipTo")} contact={customer} />
        {closed ? null : (
          <Form
            method="post"
            encType="multipart/form-data"
            className="group/payment flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-6"
          >
            <input type="hidden" name="submissionKey" value={submissionKey} />
            <FetcherField />
            <label htmlFor="receipt" className="text-lg font-semibold">
              {t("payment.receipt")}
            </label>
            <p className="-mt-3 text-sm text-stone-500">{t("payment.receiptHint")}</p>
            {problem ? (
              // Without JavaScript the page cannot forget the error: it hides once a new file is chosen
              // (the required input turns :valid), so it only stands for the submission that failed.
              <div
                className={hydrated ? undefined : "group-has-[#receipt:valid]/payment:hidden"}
                data-testid="payment-problem"
              >
                <ProblemAlert problem={problem} />
              </div>
            ) : null}
            <div className="flex flex-wrap items-center gap-3">
              <ReceiptInput
                ref={fileInput}
                onChange={(event) => {
                  setFileName(event.currentTarget.files?.[0]?.name ?? null);
                  setStaleAnswer(actionData);
                }}
                className="text-sm file:mr-3 file:rounded-md file:border-0 file:bg-stone-200 file:px-3 file:py-2"
              />
              {hydrated && fileName ? (
                <button
                  type="button"
                  onClick={() => {
                    if (fileInput.current) fileInput.current.value = "";
                    setFileName(null);
                  }}
                  className="text-sm text-red-700 hover:underline"
                >
                  {t("payment.removeFile")}
                </button>
              ) : null}
            </div>
            <Button
              size="lg"
              // With JavaScript, Submit waits for a file; without, the browser's `required` does.
              disabled={submitting || (hydrated && !fileName)}
            >
              {submitting ? t("payment.submitting") : t("payment.submit")}
            </Button>
            <div className="flex flex-col gap-2 border-t border-stone-200 pt-4">
              <p className="text-sm text-stone-600">{t("payment.payLaterHint")}</p>
              {/* No file needed: formNoValidate lets it past the receipt's `required` without JavaScript. */}
              <Button
                name="intent"
                value="later"
                variant="secondary"
                formNoValidate
                disabled={submitting}
                className="w-fit"
                data-testid="pay-later"
              >
                {t("payment.payLater")}
              </Button>
            </div>
          </Form>
        )}
      </div>
    </SummaryPage>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Payment");
