import { data, Form, redirect } from "react-router";
import { StoreNotice } from "~/components/store/store-notice";
import { StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { formAction } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { confirmStockAlert, findStockAlertByToken, productPath } from "~/models/products/stock-alerts.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { setFlash } from "~/request/flash.server";
import { stockAlertTokenSchema } from "~/schemas/stock-alert";
import type { Route } from "./+types/stock-alert-confirm";

/**
 * The link in a back-in-stock alert's confirmation e-mail (docs/decisions/055). Opening it changes
 * nothing (mail scanners prefetch links); the shopper confirms with a button, a POST.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const alert = await findStockAlertByToken(services(context).db, token, "confirm", getLanguage(context));
  const title = await titleWithShop(context, getInstance(context).t("stockAlerts.confirmTitle"));
  return data({ token, item: alert?.item ?? null, title }, { status: alert ? 200 : 400 });
}

/** Uses the link once; a used, expired or garbled one answers 400 and the page says the link does not work. */
export const action = formAction<Route.ActionArgs, typeof stockAlertTokenSchema, void, Response>(
  { schema: stockAlertTokenSchema },
  async ({ context, value }) => {
    const { db, config } = services(context);
    const confirmed = await confirmStockAlert(db, config, value.token);
    setFlash(
      context,
      confirmed.sentNow
        ? { type: "success", key: "stockAlerts.confirmedInStock", detailKey: "stockAlerts.confirmedInStockDetail" }
        : { type: "success", key: "stockAlerts.confirmed", detailKey: "stockAlerts.confirmedDetail" },
    );
    return redirect(productPath(confirmed.productId, confirmed.color));
  },
);

export default function StockAlertConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  // Any answer that is not a redirect is a refusal: the link cannot be used.
  if (!loaderData.item || actionData) return <StoreNotice notice="stockAlertLink" />;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold">{t("stockAlerts.confirmTitle")}</h1>
      <p className="mt-3 text-stone-700">{t("stockAlerts.confirmText", { item: loaderData.item })}</p>
      <Form method="post" className="mt-6">
        <input type="hidden" name="token" value={loaderData.token} />
        <StatusButton pendingText={t("stockAlerts.pending")}>{t("stockAlerts.confirmAction")}</StatusButton>
      </Form>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  privatePageMeta(loaderData?.title, "Confirm your back-in-stock alert");
