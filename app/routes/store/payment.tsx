import { Fragment, type ReactNode, useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useNavigate, useNavigation } from "react-router";
import { CheckoutSteps } from "~/components/checkout-steps";
import { CartSummary } from "~/components/order-summary";
import { FormAlert } from "~/components/ui/field";
import { services } from "~/context";
import { requireUser } from "~/lib/auth.server";
import { currentCartId } from "~/lib/cart-session.server";
import { clearCheckout, getCheckout } from "~/lib/checkout-session.server";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { BodyTooLargeError, IMAGE_PRESETS, ImageError, readFormData, storeImage } from "~/lib/images.server";
import { formatMoney } from "~/lib/money";
import { formatPersonName } from "~/lib/person-name";
import { useHydrated } from "~/lib/use-hydrated";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { loadCart } from "~/models/cart.server";
import { OrderError, placeOrder, sendOrderReceivedEmail } from "~/models/order.server";
import { loadPaymentInstructions, type PaymentInstructions, takesOrders } from "~/models/payment-accounts.server";
import { getShop, titleWithShop } from "~/models/settings/shop.server";
import type { Route } from "./+types/payment";

/** Room for the multipart envelope and the small fields around the 5 MB receipt. */
const BODY_LIMIT = IMAGE_PRESETS.receipt.maxBytes + 256 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  const { db, config } = services(context);
  const t = getInstance(context).t;
  const title = await titleWithShop(context, t("payment.title"));
  const checkout = getCheckout(context);
  const currency = getCurrency(context);
  const shop = await getShop(context);
  const cart = await loadCart(db, await currentCartId(context), currency, shop.shipping[currency]);
  if (!checkout || cart.lines.length === 0) return { ready: false as const, title };
  const instructions = await loadPaymentInstructions(db, currency, {
    demoMode: config.demoMode,
    supportEmail: shop.supportEmail,
  });
  return {
    ready: true as const,
    title,
    cart,
    customer: checkout.customer,
    submissionKey: checkout.submissionKey,
    language: getLanguage(context),
    instructions,
  };
}

type Problem = { key: string; detailKey?: string; params?: Record<string, string | number> };

function refuse(problem: Problem, status: number) {
  return data({ ok: false as const, problem, orderNumber: null }, { status });
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const { db, storage, mailer, config } = services(context);
  let form: FormData;
  try {
    form = await readFormData(request, BODY_LIMIT);
  } catch (error) {
    if (error instanceof BodyTooLargeError)
      return refuse({ key: "payment.tooLarge", detailKey: "payment.tooLargeDetail" }, 413);
    return refuse({ key: "payment.uploadFailed", detailKey: "payment.uploadFailedDetail" }, 400);
  }
  const checkout = getCheckout(context);
  const submissionKey = String(form.get("submissionKey") ?? "");
  const succeed = (orderNumber: string) => {
    setFlash(context, {
      type: "success",
      key: "payment.orderSubmitted",
      detailKey: "payment.orderSubmittedDetail",
      params: { number: orderNumber },
    });
    if (form.get("js") === "1") return data({ ok: true as const, problem: null, orderNumber });
    return redirect(`/payment-success?order=${encodeURIComponent(orderNumber)}`);
  };

  // The same form sent twice (double click, refresh, back) finds the order it made.
  const earlier = submissionKey
    ? await db
        .selectFrom("orders")
        .select("order_number")
        .where("submission_key", "=", submissionKey)
        .where("user_id", "=", user.id)
        .executeTakeFirst()
    : undefined;
  if (earlier) return succeed(earlier.order_number);
  if (!checkout || checkout.submissionKey !== submissionKey) {
    return refuse({ key: "payment.noOrderTitle", detailKey: "payment.noOrderText" }, 400);
  }
  // A live shop still on the demo account (or with none) takes no order: nothing is stored.
  const { supportEmail } = await getShop(context);
  const instructions = await loadPaymentInstructions(db, getCurrency(context), {
    demoMode: config.demoMode,
    supportEmail,
  });
  if (!takesOrders(instructions)) {
    return refuse({ key: "payment.closedText", params: { email: supportEmail } }, 409);
  }

  const file = form.get("receipt");
  if (!(file instanceof File) || file.size === 0) {
    return refuse({ key: "payment.required", detailKey: "payment.requiredDetail" }, 400);
  }
  let receiptPath: string;
  try {
    receiptPath = await storeImage(storage, file, "receipt", { area: "private", folder: `receipts/${user.id}` });
  } catch (error) {
    if (!(error instanceof ImageError)) throw error;
    if (error.code === "tooLarge") return refuse({ key: "payment.tooLarge", detailKey: "payment.tooLargeDetail" }, 413);
    if (error.code === "tooManyPixels")
      return refuse({ key: "payment.invalidType", detailKey: error.messageKey, params: error.params }, 400);
    return refuse({ key: "payment.invalidType", detailKey: "payment.invalidTypeDetail" }, 400);
  }

  const cartId = await currentCartId(context);
  try {
    if (!cartId) throw new OrderError("checkout.errors.emptyCart");
    const { order, duplicate } = await placeOrder(db, {
      userId: user.id,
      cartId,
      currency: getCurrency(context),
      locale: getLanguage(context),
      customer: checkout.customer,
      receiptPath,
      submissionKey,
    });
    if (duplicate) await storage.delete("private", receiptPath);
    else {
      clearCheckout(context);
      sendOrderReceivedEmail(db, mailer, config, order).catch((error) => console.error("order e-mail failed", error));
    }
    return succeed(order.order_number);
  } catch (error) {
    await storage.delete("private", receiptPath);
    if (error instanceof OrderError)
      return refuse({ key: "payment.orderFailed", detailKey: error.key, params: error.params }, 409);
    throw error;
  }
}

function NoOrder() {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 px-4 py-20 text-center">
      <h1 className="text-2xl font-bold">{t("payment.noOrderTitle")}</h1>
      <p className="text-stone-600">{t("payment.noOrderText")}</p>
      <Link to="/cart" className="rounded-md bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700">
        {t("payment.returnToCart")}
      </Link>
    </div>
  );
}

function Submitted({ orderNumber }: { orderNumber: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate(`/payment-success?order=${encodeURIComponent(orderNumber)}`), 3000);
    return () => clearTimeout(timer);
  }, [navigate, orderNumber]);
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-3 px-4 py-20 text-center" role="status">
      <p className="text-5xl">✓</p>
      <h1 className="text-2xl font-bold">{t("payment.paymentSubmitted")}</h1>
      <p className="text-stone-700">{t("payment.paymentSubmittedDetail")}</p>
      <p className="font-semibold">{t("success.orderNumber", { number: orderNumber })}</p>
      <p className="text-sm text-stone-500">{t("payment.redirecting")}</p>
    </div>
  );
}

export default function Payment({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const fileInput = useRef<HTMLInputElement>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  // The answer whose error a newly chosen file made stale (JavaScript; without it, CSS hides it).
  const [staleAnswer, setStaleAnswer] = useState<typeof actionData>(undefined);
  if (actionData?.ok && actionData.orderNumber) return <Submitted orderNumber={actionData.orderNumber} />;
  if (!loaderData.ready) return <NoOrder />;
  const { cart, customer, submissionKey, instructions, language } = loaderData;
  const closed = instructions.kind === "closed";
  const problem = actionData && actionData !== staleAnswer ? actionData.problem : null;
  const submitting = navigation.state === "submitting";
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <CheckoutSteps current="payment" />
      <h1 className="mt-2 text-3xl font-bold">{t("payment.title")}</h1>
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div className="flex flex-col gap-6">
          {closed ? (
            <section
              data-testid="payments-closed"
              className="rounded-lg border border-red-300 bg-red-50 p-6 font-semibold text-red-900"
            >
              <p>
                {withEmailLink(
                  t("payment.closedText", { email: instructions.supportEmail }),
                  instructions.supportEmail,
                )}
              </p>
            </section>
          ) : (
            <PaymentDetails
              instructions={instructions}
              amount={formatMoney(cart.totalCents, cart.currency)}
              currency={cart.currency}
            />
          )}
          <section className="rounded-lg border border-stone-200 bg-white p-6 text-sm">
            <h2 className="text-lg font-semibold">{t("payment.shipTo")}</h2>
            <p className="mt-2">
              {formatPersonName(customer.firstName, customer.lastName)} · {customer.email}
              {customer.phone ? ` · ${customer.phone}` : ""}
            </p>
            <p>
              {customer.address}, {customer.city}
              {customer.postalCode ? ` ${customer.postalCode}` : ""}, {customer.country}
            </p>
          </section>
          {closed ? null : (
            <Form
              method="post"
              encType="multipart/form-data"
              className="group/payment flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-6"
            >
              <input type="hidden" name="submissionKey" value={submissionKey} />
              {hydrated ? <input type="hidden" name="js" value="1" /> : null}
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
                  <FormAlert
                    // biome-ignore lint/suspicious/noExplicitAny: keys from the server
                    title={t(problem.key as any, problem.params)}
                    // biome-ignore lint/suspicious/noExplicitAny: keys from the server
                    detail={problem.detailKey ? t(problem.detailKey as any, problem.params) : undefined}
                  />
                </div>
              ) : null}
              <div className="flex flex-wrap items-center gap-3">
                <input
                  ref={fileInput}
                  id="receipt"
                  name="receipt"
                  type="file"
                  accept="image/jpeg,image/png,image/webp"
                  required
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
              <button
                type="submit"
                // With JavaScript, Submit waits for a file; without, the browser's `required` does.
                disabled={submitting || (hydrated && !fileName)}
                className="rounded-md bg-brand-600 px-4 py-3 font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
              >
                {submitting ? t("payment.submitting") : t("payment.submit")}
              </button>
            </Form>
          )}
        </div>
        <CartSummary cart={cart} language={language} />
      </div>
    </div>
  );
}

/** `text` with each occurrence of `email` as a mailto link (the sentence is translated around it). */
function withEmailLink(text: string, email: string): ReactNode {
  if (!email) return text;
  return text.split(email).map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed sentence
    <Fragment key={index}>
      {index > 0 ? (
        <a href={`mailto:${email}`} className="underline">
          {email}
        </a>
      ) : null}
      {part}
    </Fragment>
  ));
}

/**
 * The transfer the shopper makes, in the order's currency: FPS (HKD), an international transfer
 * with SWIFT/BIC (GBP, EUR, USD), or whom to ask when the shop has no details for it.
 */
function PaymentDetails({
  instructions,
  amount,
  currency,
}: {
  instructions: Exclude<PaymentInstructions, { kind: "closed" }>;
  amount: string;
  currency: string;
}) {
  const { t } = useTranslation();
  const rows: { label: string; value: string | null; className?: string }[] =
    instructions.kind === "fps"
      ? [
          { label: t("payment.fpsId"), value: instructions.fpsId, className: "font-mono text-lg font-bold" },
          { label: t("payment.payee"), value: instructions.holder, className: "font-semibold" },
          { label: t("payment.bank"), value: instructions.bank },
          { label: t("payment.accountNumber"), value: instructions.accountNumber, className: "font-mono" },
        ]
      : instructions.kind === "international"
        ? [
            { label: t("payment.payee"), value: instructions.holder, className: "font-semibold" },
            { label: t("payment.bank"), value: instructions.bank },
            { label: t("payment.accountNumber"), value: instructions.accountNumber, className: "font-mono" },
            { label: t("payment.swift"), value: instructions.swift, className: "font-mono text-lg font-bold" },
            { label: t("payment.bankAddress"), value: instructions.bankAddress },
            { label: t("payment.routingNumber"), value: instructions.routingNumber, className: "font-mono" },
          ]
        : [];
  const demo = instructions.kind !== "contact" && instructions.demo;
  return (
    <section className="rounded-lg border border-stone-200 bg-white p-6" data-payment={instructions.kind}>
      <h2 className="text-lg font-semibold">{t("payment.instructions")}</h2>
      <p className="mt-1 text-sm text-stone-600">
        {instructions.kind === "fps"
          ? t("payment.instructionsText")
          : instructions.kind === "international"
            ? t("payment.internationalText", { currency })
            : withEmailLink(
                t("payment.contactText", { currency, email: instructions.supportEmail }),
                instructions.supportEmail,
              )}
      </p>
      {demo ? (
        <p
          data-testid="demo-account"
          className="mt-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          <strong>{t("payment.demoAccount")}</strong> {t("payment.demoAccountText")}
        </p>
      ) : null}
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="bank-account">
        {rows.map((row) =>
          row.value ? (
            <Fragment key={row.label}>
              <dt className="text-stone-500">{row.label}</dt>
              <dd className={`break-words ${row.className ?? ""}`}>{row.value}</dd>
            </Fragment>
          ) : null,
        )}
        <dt className="text-stone-500">{t("payment.amount")}</dt>
        <dd className="text-lg font-bold text-brand-700">{amount}</dd>
      </dl>
    </section>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? "Payment" }, { name: "robots", content: "noindex" }];
}
