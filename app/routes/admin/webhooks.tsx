import { AdminSection } from "~/components/admin/admin-section";
import { AdminPageHeader } from "~/components/admin/page-header";
import { WebhookForm } from "~/components/admin/webhook-form";
import { NetworkForm, WEBHOOKS_PATH, WebhookList, webhookPath } from "~/components/admin/webhook-list";
import { BackLink } from "~/components/ui/back-link";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  allowsPrivateAddresses,
  createWebhook,
  listWebhooks,
  setAllowPrivateAddresses,
} from "~/models/webhooks/webhooks.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import { webhooksActionSchema } from "~/schemas/webhook";
import type { Route } from "./+types/webhooks";

/*
 * Settings → Webhooks (/admin/settings/webhooks, docs/decisions/046): the owner's webhooks, the
 * form that adds one, and the shop-wide "allow http:// and private addresses". The owner's, like
 * every setting. A refused address comes back at its field with the form as typed (400).
 */

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner(context, request);
  const { db } = services(context);
  const [webhooks, allowPrivate] = await Promise.all([listWebhooks(db), allowsPrivateAddresses(db)]);
  const language = getLanguage(context);
  const t = getInstance(context).t;
  return {
    webhooks: webhooks.map((webhook) => ({
      id: webhook.id,
      name: webhook.name,
      url: webhook.url,
      events: webhook.events,
      active: webhook.active,
      failed: webhook.failed,
      lastDelivery: webhook.lastDelivery
        ? {
            status: webhook.lastDelivery.status,
            responseStatus: webhook.lastDelivery.responseStatus,
            atText: formatDate(webhook.lastDelivery.at, language, "dateTime"),
          }
        : null,
    })),
    allowPrivate,
    title: `${t("adminWebhooks.title")} | ${t("admin.title")}`,
  };
}

/** intent=create (a new webhook, then its page), intent=network (the switch). The owner's right first. */
export const action = formAction(
  { schema: webhooksActionSchema, authorize: ownerOnly },
  async ({ context, form, value, auth }) => {
    const { db } = services(context);
    const actor = { actorUserId: auth.id };
    if (value.intent === "network") {
      await setAllowPrivateAddresses(db, value.allow_private, actor);
      return succeed(context, form, {
        redirectTo: `${WEBHOOKS_PATH}#network-heading`,
        flash: {
          type: "success",
          key: value.allow_private ? "adminWebhooks.network.savedOn" : "adminWebhooks.network.savedOff",
        },
      });
    }
    const webhook = await createWebhook(db, value, actor);
    return succeed(context, form, {
      redirectTo: webhookPath(webhook.id),
      flash: { type: "success", key: "adminWebhooks.add.added" },
    });
  },
);

export default function AdminWebhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const intent = actionData?.result?.initialValue?.intent;
  return (
    <div className="max-w-4xl">
      <BackLink to="/admin/settings#webhooks-heading">{t("adminWebhooks.back")}</BackLink>
      <div className="mt-2">
        <AdminPageHeader title={t("adminWebhooks.title")} intro={t("adminWebhooks.intro")} />
      </div>
      <p className="mt-2 text-sm text-stone-600">{t("adminWebhooks.docs")}</p>
      <WebhookList webhooks={loaderData.webhooks} />
      <AdminSection id="add" className="mt-8" heading={t("adminWebhooks.add.heading")}>
        <WebhookForm
          webhook={null}
          action={WEBHOOKS_PATH}
          lastResult={intent === "network" ? undefined : actionData?.result}
        />
      </AdminSection>
      <NetworkForm
        key={String(loaderData.allowPrivate)}
        allowPrivate={loaderData.allowPrivate}
        lastResult={intent === "network" ? actionData?.result : undefined}
      />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
