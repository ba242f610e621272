import { CheckoutSteps } from "~/components/checkout-steps";
import { ButtonLink } from "~/components/ui/button";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { deadlineState } from "~/models/orders/payment-deadlines.server";
import { findOrderByNumber } from "~/models/orders/shopper.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { requireUser } from "~/request/auth.server";
import type { Route } from "./+types/payment-success";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const number = new URL(request.url).searchParams.get("order") ?? "";
  // Only the shopper's own order number is shown.
  const order = number ? await findOrderByNumber(services(context).db, number, user.id) : undefined;
  const t = getInstance(context).t;
  return {
    orderNumber: order?.order_number ?? null,
    orderId: order?.id ?? null,
    deadline: order ? deadlineState(order) : null,
    language: getLanguage(context),
    title: await titleWithShop(context, t("success.title")),
  };
}

export default function PaymentSuccess({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { deadline, language } = loaderData;
  const due = deadline ? formatDate(deadline.dueAt, language, "dateTime") : "";
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center">
      {/* The checkout's last step, as the steps on the checkout and payment pages promised. */}
      <div className="mb-8 flex justify-center">
        <CheckoutSteps current="complete" />
      </div>
      <p className="text-5xl text-brand-600" aria-hidden="true">
        ✓
      </p>
      <h1 className="mt-2 text-3xl font-bold">{t("success.title")}</h1>
      {loaderData.orderNumber ? (
        <p className="mt-2 text-lg font-semibold" data-testid="order-number">
          {t("success.orderNumber", { number: loaderData.orderNumber })}
        </p>
      ) : null}
      <p className="mt-4 text-stone-700">{t("success.promise")}</p>
      {deadline ? (
        <p
          className={`mt-4 rounded-lg border p-4 text-left ${deadline.running ? "border-amber-300 bg-amber-50 text-amber-950" : "border-stone-200 bg-white text-stone-700"}`}
          data-testid="payment-deadline"
        >
          {t(deadline.running ? "success.deadlineUnpaid" : "success.deadlineChecking", { deadline: due })}
        </p>
      ) : null}
      <section className="mt-8 rounded-lg border border-stone-200 bg-white p-6 text-left">
        <h2 className="text-lg font-semibold">{t("success.nextTitle")}</h2>
        <ol className="mt-3 list-decimal space-y-2 pl-6 text-stone-700">
          <li>{t("success.step1")}</li>
          <li>{t("success.step2")}</li>
          <li>{t("success.step3")}</li>
        </ol>
      </section>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {loaderData.orderId ? (
          <ButtonLink
            to={`/account/orders/${loaderData.orderId}`}
            variant={deadline?.running ? "primary" : "secondary"}
          >
            {t(deadline?.running ? "success.uploadReceipt" : "success.viewOrders")}
          </ButtonLink>
        ) : null}
        <ButtonLink to="/" variant={deadline?.running ? "secondary" : "primary"}>
          {t("success.continueShopping")}
        </ButtonLink>
        <ButtonLink to="/contact" variant="secondary">
          {t("success.contact")}
        </ButtonLink>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Thank you");
