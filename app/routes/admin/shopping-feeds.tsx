import { Form } from "react-router";
import { CURRENCIES } from "#db/schema";
import { FeedUrls } from "~/components/admin/settings-feeds-summary";
import { BackLink } from "~/components/ui/back-link";
import { FormErrors, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { LANGUAGES } from "~/locales/languages";
import { getInstance } from "~/middleware/i18next";
import {
  feedName,
  feedUrl,
  loadEnabledFeeds,
  parseFeedName,
  saveEnabledFeeds,
} from "~/models/settings/shopping-feeds.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import { shoppingFeedsSchema } from "~/schemas/shopping-feeds";
import type { Route } from "./+types/shopping-feeds";

/*
 * Settings → Shopping feeds (/admin/settings/feeds): which Google Merchant Center product feeds
 * the shop publishes, a checkbox per language and currency, and the address of each feed that is
 * on (docs/decisions/056). The owner's, like every setting. A plain form of checkboxes.
 */

const PATH = "/admin/settings/feeds";

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner(context, request);
  const { db, config } = services(context);
  const enabled = await loadEnabledFeeds(db);
  const t = getInstance(context).t;
  return {
    enabled: enabled.map(feedName),
    urls: enabled.map((feed) => ({ name: feedName(feed), url: feedUrl(config.publicUrl, feed) })),
    title: `${t("adminFeeds.title")} | ${t("admin.title")}`,
  };
}

export const action = formAction(
  { schema: shoppingFeedsSchema, authorize: ownerOnly },
  async ({ context, form, value, auth }) => {
    const feeds = value.feeds.map(parseFeedName).filter((feed) => feed !== null);
    await saveEnabledFeeds(services(context).db, auth.id, feeds);
    return succeed(context, form, { redirectTo: PATH, flash: { type: "success", key: "adminFeeds.saved" } });
  },
);

/** Every message of a refused answer, whichever field (a list item, `feeds[3]`) it came on. */
function refusals(errors: Record<string, string[] | null> | null | undefined): string[] | undefined {
  const all = [...new Set(Object.values(errors ?? {}).flatMap((list) => list ?? []))];
  return all.length > 0 ? all : undefined;
}

export default function ShoppingFeedsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { enabled, urls } = loaderData;
  return (
    <div className="max-w-3xl">
      <BackLink to="/admin/settings">{t("adminFeeds.back")}</BackLink>
      <h1 className="mt-2 text-2xl font-bold">{t("adminFeeds.title")}</h1>
      <p className="mt-1 text-sm text-stone-600">{t("adminFeeds.intro")}</p>
      <Form method="post" action={PATH} className="mt-6 flex flex-col gap-4">
        {/* Only a forged value can be refused (every box is a feed): said above the form. */}
        <FormErrors errors={refusals(actionData?.result?.error)} />
        <fieldset key={enabled.join(",")} className="rounded-lg bg-white p-6 shadow-sm" aria-describedby="feeds-hint">
          <legend className="sr-only">{t("adminFeeds.choose")}</legend>
          <p className="text-sm font-medium text-stone-800" aria-hidden="true">
            {t("adminFeeds.choose")}
          </p>
          <p id="feeds-hint" className="text-xs text-stone-500">
            {t("adminFeeds.chooseHint")}
          </p>
          <div className="mt-3 flex flex-col gap-3">
            {LANGUAGES.map((language) => (
              <div
                key={language}
                className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-x-5"
                data-feed-language={language}
              >
                <span className="text-sm font-medium text-stone-700 sm:w-20">
                  {t(`adminFeeds.languages.${language}`)}
                </span>
                <div className="flex flex-wrap gap-x-5 gap-y-2">
                  {CURRENCIES.map((currency) => {
                    const name = `${language}-${currency}`;
                    return (
                      <label key={currency} className="flex items-center gap-2 text-sm">
                        <input
                          type="checkbox"
                          name="feeds[]"
                          value={name}
                          defaultChecked={enabled.includes(name)}
                          aria-label={t("adminFeeds.feedLabel", {
                            language: t(`adminFeeds.languages.${language}`),
                            currency,
                          })}
                          className="size-4"
                        />
                        {currency}
                      </label>
                    );
                  })}
                </div>
              </div>
            ))}
          </div>
        </fieldset>
        <div>
          <StatusButton>{t("adminFeeds.save")}</StatusButton>
        </div>
      </Form>
      <FeedUrls urls={urls} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
