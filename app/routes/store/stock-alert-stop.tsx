import { data, Form, redirect } from "react-router";
import { StoreNotice } from "~/components/store/store-notice";
import { StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { formAction, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { cancelStockAlert, findStockAlertByToken } from "~/models/products/stock-alerts.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { setFlash } from "~/request/flash.server";
import { stockAlertTokenSchema } from "~/schemas/stock-alert";
import type { Route } from "./+types/stock-alert-stop";

/**
 * The "stop this alert" link of a back-in-stock alert's e-mails (docs/decisions/055). Opening it
 * changes nothing (mail scanners prefetch links); the shopper stops it with a button, a POST.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const alert = await findStockAlertByToken(services(context).db, token, "stop", getLanguage(context));
  const title = await titleWithShop(context, getInstance(context).t("stockAlerts.stopTitle"));
  const open = alert !== null && (alert.status === "pending" || alert.status === "active");
  return data({ token, item: alert?.item ?? null, open, title }, { status: alert ? 200 : 400 });
}

/** Stops the alert (once; a second time says it has ended); an unknown link answers 400. */
export const action = formAction<Route.ActionArgs, typeof stockAlertTokenSchema, void, Response>(
  { schema: stockAlertTokenSchema },
  async ({ context, value }) => {
    const outcome = await cancelStockAlert(services(context).db, value.token);
    if (!outcome) throw new UserError("stockAlerts.invalidTitle");
    setFlash(
      context,
      outcome === "stopped"
        ? { type: "success", key: "stockAlerts.stopped", detailKey: "stockAlerts.stoppedDetail" }
        : { type: "info", key: "stockAlerts.ended" },
    );
    return redirect("/");
  },
);

export default function StockAlertStop({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  if (!loaderData.item || actionData) return <StoreNotice notice="stockAlertLink" />;
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold">{t("stockAlerts.stopTitle")}</h1>
      {loaderData.open ? (
        <>
          <p className="mt-3 text-stone-700">{t("stockAlerts.stopText", { item: loaderData.item })}</p>
          <Form method="post" className="mt-6">
            <input type="hidden" name="token" value={loaderData.token} />
            <StatusButton pendingText={t("stockAlerts.pending")}>{t("stockAlerts.stopAction")}</StatusButton>
          </Form>
        </>
      ) : (
        <p className="mt-3 text-stone-700" data-testid="stock-alert-ended">
          {t("stockAlerts.ended")}
        </p>
      )}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  privatePageMeta(loaderData?.title, "Stop this back-in-stock alert");
