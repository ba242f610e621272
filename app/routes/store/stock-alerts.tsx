import { Link } from "react-router";
import { notFound } from "~/components/layout/route-error-boundary";
import { StockAlertForm } from "~/components/store/stock-alert-form";
import { requestInfoContext, services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  findAlertVariant,
  productPath,
  type SubscribeResult,
  subscribeToStockAlert,
} from "~/models/products/stock-alerts.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { getUser } from "~/request/auth.server";
import type { Flash } from "~/request/flash.server";
import { stockAlertSchema } from "~/schemas/stock-alert";
import type { Route } from "./+types/stock-alerts";

/**
 * /stock-alerts?variant=ID: the "E-mail me when it's back" form on a page of its own. The product
 * page's form posts here (docs/decisions/055); without JavaScript a refused request answers with
 * this page (the message next to the field, the address kept), a good one redirects back.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const language = getLanguage(context);
  const variantId = Number(new URL(request.url).searchParams.get("variant"));
  const variant = await findAlertVariant(services(context).db, variantId, language);
  if (!variant)
    throw notFound({ title: "product.notFoundTitle", text: "product.notFoundText", home: "product.backHome" });
  return {
    variantId,
    item: variant.item,
    back: productPath(variant.productId, variant.color, variant.optionValue),
    title: await titleWithShop(context, getInstance(context).t("stockAlerts.pageTitle")),
  };
}

/** What the shopper is told after a request, by its outcome. */
function flashOf(result: SubscribeResult): Flash {
  const params = { email: result.email };
  switch (result.outcome) {
    case "active":
      return { type: "success", key: "stockAlerts.subscribedActive", detailKey: "stockAlerts.subscribedActiveDetail" };
    case "alreadyActive":
      return { type: "info", key: "stockAlerts.alreadyActive" };
    case "pending":
      return {
        type: "info",
        key: "stockAlerts.subscribedPending",
        detailKey: "stockAlerts.subscribedPendingDetail",
        params,
      };
    case "alreadyPending":
      return { type: "info", key: "stockAlerts.alreadyPending", detailKey: "stockAlerts.alreadyPendingDetail", params };
  }
}

/** Anyone may ask (a guest confirms by e-mail); throttled per client and per address (429). */
export const action = formAction<Route.ActionArgs, typeof stockAlertSchema, void, unknown>(
  { schema: stockAlertSchema },
  async ({ context, form, value }) => {
    const { db, config } = services(context);
    const result = await subscribeToStockAlert(db, config, {
      variantId: value.variant_id,
      email: value.email,
      language: getLanguage(context),
      userId: getUser(context)?.id ?? null,
      ip: context.get(requestInfoContext).ip ?? "unknown",
    });
    return succeed(context, form, {
      redirectTo: productPath(result.productId, result.color),
      flash: flashOf(result),
    });
  },
);

export default function StockAlertPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const answer = actionData as { result?: never; problem?: never } | undefined;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="mb-6 text-2xl font-bold">{t("stockAlerts.pageTitle")}</h1>
      <StockAlertForm
        variantId={loaderData.variantId}
        item={loaderData.item}
        lastResult={answer?.result}
        problem={answer?.problem}
      />
      <p className="mt-6 text-sm">
        <Link to={loaderData.back} className="text-brand-700 hover:underline">
          {t("stockAlerts.backToProduct")}
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Back-in-stock alert");
