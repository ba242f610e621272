import { redirect, useLocation } from "react-router";
import { CURRENCIES } from "#db/schema";
import { AdminSection } from "~/components/admin/admin-section";
import { BankAccountForm, BankAccountRow, BankDeleteConfirmation } from "~/components/admin/settings-bank-accounts";
import { ShoppingFeedsSection } from "~/components/admin/settings-feeds-summary";
import { HERO_UNREAD, HeroSection, SETTINGS_PATH as PATH } from "~/components/admin/settings-hero";
import { SearchSynonymsSection } from "~/components/admin/settings-search-summary";
import { ShopSection } from "~/components/admin/settings-shop-summary";
import { WebhooksSection } from "~/components/admin/settings-webhooks-summary";
import { FormErrors } from "~/components/ui/field";
import { TextLink } from "~/components/ui/text-link";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { IMAGE_PRESETS, storeChosenImage } from "~/lib/images.server";
import { privatePageMeta } from "~/lib/meta";
import { formatMoney } from "~/lib/money";
import { getInstance, getLanguage } from "~/middleware/i18next";
import {
  createBankAccount,
  deleteBankAccount,
  findBankAccount,
  listBankAccounts,
  makePrimaryBankAccount,
  updateBankAccount,
} from "~/models/payment-accounts.server";
import { listContentPages } from "~/models/settings/content-pages.server";
import { loadSearchSynonyms } from "~/models/settings/search-synonyms.server";
import { alertAddresses, loadShop, shopName } from "~/models/settings/shop.server";
import { feedName, feedUrl, loadEnabledFeeds } from "~/models/settings/shopping-feeds.server";
import { findHeroImage, resetHeroImage, updateHeroImage } from "~/models/settings/site-settings.server";
import { webhooksSummary } from "~/models/webhooks/webhooks.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import { HERO_MAX_BYTES, settingsActionSchema } from "~/schemas/bank-account";
import type { Route } from "./+types/settings";

/** The hero image limit plus room for the multipart framing. */
const BODY_LIMIT = Math.max(HERO_MAX_BYTES, IMAGE_PRESETS.hero.maxBytes) + 256 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOwner(context, request);
  const { db } = services(context);
  const url = new URL(request.url);
  const editId = parseId(url.searchParams.get("edit"));
  const deleteId = parseId(url.searchParams.get("delete"));
  const [shop, pages, hero, accounts, editing, deleting] = await Promise.all([
    loadShop(db),
    listContentPages(db),
    findHeroImage(db),
    listBankAccounts(db),
    editId ? findBankAccount(db, editId) : null,
    deleteId ? findBankAccount(db, deleteId) : null,
  ]);
  const synonyms = await loadSearchSynonyms(db);
  const webhooks = await webhooksSummary(db);
  const feeds = (await loadEnabledFeeds(db)).map((feed) => ({
    name: feedName(feed),
    url: feedUrl(services(context).config.publicUrl, feed),
  }));
  const language = getLanguage(context);
  const t = getInstance(context).t;
  return {
    hero: { ...hero, updatedText: hero.updatedAt ? formatDate(hero.updatedAt, language, "dateTime") : null },
    accounts: accounts.map((account) => ({
      ...account,
      createdText: formatDate(account.created_at, language, "dateTime"),
    })),
    editing,
    deleting,
    title: `${t("adminSettings.title")} | ${t("admin.title")}`,
    shop: {
      name: shopName(shop, language),
      supportEmail: shop.supportEmail,
      senderEmail: shop.senderEmail,
      alertEmails: alertAddresses(shop),
      delivery: CURRENCIES.map((currency) => {
        const rule = shop.shipping[currency];
        return {
          currency,
          fee: formatMoney(rule.feeCents, currency),
          free: rule.freeAboveCents === null ? null : formatMoney(rule.freeAboveCents, currency),
          fromHkd: currency !== "HKD" && shop.shippingFromHkd[currency],
        };
      }),
    },
    pages: pages.map((page) => ({
      slug: page.slug,
      editedText: page.editedAt ? formatDate(page.editedAt, language, "date") : null,
    })),
    synonyms: {
      groups: synonyms.groups.length,
      editedText: synonyms.editedAt ? formatDate(synonyms.editedAt, language, "date") : null,
    },
    webhooks,
    feeds,
  };
}

/** A refusal of a row's button (delete, make primary), said above the list with its reason. */
function rowRefusal(error: unknown, key: string): never {
  if (error instanceof UserError)
    throw new UserError(key, { detailKey: error.problem.key, params: error.problem.params });
  throw error;
}

/** The hero upload, the reset, and the bank account writes. The admin right is checked before the body is read. */
export const action = formAction(
  {
    schema: settingsActionSchema,
    maxBytes: BODY_LIMIT,
    unread: HERO_UNREAD,
    authorize: ownerOnly,
  },
  async ({ context, form, value, auth }) => {
    const { db, storage } = services(context);
    const actor = { actorUserId: auth.id };
    const done = (key: string) => succeed(context, form, { redirectTo: PATH, flash: { type: "success", key } });

    switch (value.intent) {
      case "hero": {
        const key = await storeChosenImage(storage, value.hero, "hero", {
          folder: "hero",
          field: "hero",
          keys: { tooLarge: "adminSettings.errors.heroTooLarge" },
        });
        if (!key) throw new UserError("adminSettings.errors.uploadFailed", { field: "hero" });
        await updateHeroImage(db, storage, key, actor);
        return done("adminSettings.heroUpdated");
      }
      case "hero_reset":
        await resetHeroImage(db, storage, actor);
        return done("adminSettings.heroReset");
      case "delete":
        // Without JavaScript there is no confirm(): the confirmation is a second page.
        if (value.confirmed !== "1") return redirect(`${PATH}?delete=${value.id}#bank-delete`);
        await deleteBankAccount(db, value.id, actor).catch((error) =>
          rowRefusal(error, "adminSettings.errors.deleteFailed"),
        );
        return done("adminSettings.accountDeleted");
      case "make_primary":
        await makePrimaryBankAccount(db, value.id, actor).catch((error) =>
          rowRefusal(error, "adminSettings.errors.saveFailed"),
        );
        return done("adminSettings.accountMadePrimary");
      case "create":
        await createBankAccount(db, value, actor);
        return done("adminSettings.accountAdded");
      default:
        await updateBankAccount(db, value.id, value, actor);
        return done("adminSettings.accountUpdated");
    }
  },
);

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const { hero, accounts, editing, deleting } = loaderData;
  // Which form the answer belongs to: the reply carries the submitted intent (none when the body was refused unread).
  const intent = actionData?.result?.initialValue?.intent ?? "hero";
  const listErrors = intent === "delete" || intent === "make_primary" ? actionData?.result?.error?.[""] : undefined;
  const bankResult = intent === "create" || intent === "update" ? actionData?.result : undefined;
  const heroAnswer = intent === "hero" || intent === "hero_reset" ? actionData : undefined;
  return (
    <div className="max-w-5xl">
      <h1 className="text-2xl font-bold">{t("adminSettings.title")}</h1>
      <p className="mt-1 text-sm text-stone-600">{t("adminSettings.intro")}</p>

      <div className="mt-8 flex flex-col gap-10">
        <ShopSection shop={loaderData.shop} pages={loaderData.pages} />

        <SearchSynonymsSection {...loaderData.synonyms} />
        <AdminSection id="shipping" look="part" heading={t("adminZones.title")} intro={t("adminZones.summaryIntro")}>
          <div className="mt-4 rounded-lg bg-white p-6 shadow-sm">
            <TextLink to="/admin/settings/shipping">{t("adminZones.manage")}</TextLink>
          </div>
        </AdminSection>
        <AdminSection id="age" look="part" heading={t("adminAge.title")} intro={t("adminAge.summaryIntro")}>
          <div className="mt-4 rounded-lg bg-white p-6 shadow-sm">
            <TextLink to="/admin/settings/age">{t("adminAge.edit")}</TextLink>
          </div>
        </AdminSection>

        <ShoppingFeedsSection urls={loaderData.feeds} />
        <WebhooksSection {...loaderData.webhooks} />

        <HeroSection
          key={`hero-${hero.key ?? "default"}`}
          hero={hero}
          lastResult={heroAnswer?.result}
          problem={heroAnswer?.problem ?? null}
        />

        <AdminSection
          id="banking"
          look="part"
          heading={t("adminSettings.banking.heading")}
          intro={t("adminSettings.banking.intro")}
        >
          {listErrors ? (
            <div className="mt-4">
              <FormErrors errors={listErrors} />
            </div>
          ) : null}
          {deleting ? <BankDeleteConfirmation account={deleting} /> : null}

          <BankAccountForm
            // A fresh form after every navigation: an added account does not stay typed in.
            key={`${editing ? `edit-${editing.id}` : "new"}-${location.key}`}
            account={editing}
            firstAccount={accounts.length === 0}
            lastResult={bankResult}
          />

          <h3 className="mt-8 text-lg font-semibold">{t("adminSettings.banking.saved")}</h3>
          {accounts.length === 0 ? (
            <p className="mt-3 rounded-lg bg-white p-6 text-stone-600 shadow-sm">{t("adminSettings.banking.empty")}</p>
          ) : (
            <ul className="mt-3 flex flex-col gap-3">
              {accounts.map((account) => (
                <BankAccountRow key={account.id} account={account} editing={editing?.id === account.id} />
              ))}
            </ul>
          )}
        </AdminSection>

        <AdminSection
          id="demo-data"
          look="part"
          heading={t("adminDemoData.settingsHeading")}
          intro={t("adminDemoData.settingsText")}
        >
          <TextLink to="/admin/demo-data" className="mt-2 inline-block font-medium">
            {t("adminDemoData.settingsLink")}
          </TextLink>
        </AdminSection>
      </div>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin");
