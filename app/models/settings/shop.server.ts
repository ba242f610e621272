import { sql, type Transaction } from "kysely";
import type { RouterContextProvider } from "react-router";
import type { DB } from "#db/connect.server";
import { CURRENCIES, type Database } from "#db/schema";
import { services } from "~/context";
import { type Config, MAX_PAYMENT_WINDOW_HOURS } from "~/lib/config.server";
import { deletePublicImage, keptImage, savingImage, storeChosenImage } from "~/lib/images.server";
import { DERIVED_CURRENCIES, type DerivedCurrency, type ExchangeRates, rateToText } from "~/lib/money";
import { DEFAULT_SHIPPING_RULE, ruleFromHkd, type ShippingRule, type ShippingRules } from "~/lib/shipping";
import { publicUrl, type Storage } from "~/lib/storage.server";
import { LANGUAGES, type Language } from "~/locales";
import { getLanguage } from "~/middleware/i18next";
import { centsToText } from "~/schemas/product";
import {
  ALERT_EVENTS,
  ALERT_FIELDS,
  type AlertEvent,
  feeField,
  freeAboveField,
  fromHkdField,
  rateField,
  type ShopDetailsForm,
} from "~/schemas/shop";
import { auditAction } from "../audit.server";
import { setRestOfWorldRules } from "../shipping/zones.server";
import { getSetting, putSetting } from "./site-settings.server";

/**
 * The shop's identity and terms that the owner sets under Settings → Shop details: name,
 * address, support and sender e-mail, the "Supported By" mark, shipping per currency and the
 * exchange rates that derived prices follow. Stored as one JSON value in site_settings; whatever
 * the owner never set falls back to the defaults below (the texts the shop shipped with).
 */

export interface Bilingual {
  en: string;
  zh: string;
}

export interface ShopDetails {
  name: Bilingual;
  address: Bilingual;
  supportEmail: string;
  /** The From address of every e-mail the shop sends. */
  senderEmail: string;
  /** The footer's "Supported By" mark: an empty name hides it; no logo shows the built-in badge. */
  supportedBy: { name: Bilingual; url: string | null; logoKey: string | null };
  /** Each currency's delivery rule as it applies now (one following HKD already converted). */
  shipping: ShippingRules;
  /**
   * Per currency other than HKD: whether its delivery rule follows the HKD one at the exchange
   * rate (true until the owner sets that currency's own; docs/decisions/041).
   */
  shippingFromHkd: Record<DerivedCurrency, boolean>;
  /** Millionths of each currency per 1 HKD, for the prices the operator leaves empty. */
  exchangeRates: ExchangeRates;
  /** Hours a new order has to be paid; null: the PAYMENT_WINDOW_HOURS setting (default 48). */
  paymentWindowHours: number | null;
  /** The home hero's headline and subtitle and the footer's blurb (empty: a fallback, see `storefrontTexts`). */
  heroTitle: Bilingual;
  heroText: Bilingual;
  footerText: Bilingual;
  /** The shop's own alerts (app/models/outbox/alerts.server.ts). */
  alerts: ShopAlertSettings;
}

export interface ShopAlertSettings {
  /** Where alerts go; null: never set (or emptied), the support e-mail (`alertAddresses`). */
  emails: string[] | null;
  /** The events an alert is sent for. */
  events: Record<AlertEvent, boolean>;
  /** The language the alerts are written in. */
  language: Language;
}

export const SHOP_DETAILS_KEY = "shop_details";

const DEFAULT_RATES: ExchangeRates = { GBP: 100_000, EUR: 118_000, USD: 128_000 };

/**
 * Every currency's delivery rule: HKD's as given, and each currency that follows HKD converted
 * at its exchange rate (the others as the owner set them, in `own`).
 */
function deliveryRules(
  hkd: ShippingRule,
  rates: ExchangeRates,
  fromHkd: Record<DerivedCurrency, boolean>,
  own: Partial<Record<DerivedCurrency, ShippingRule | null>> = {},
): ShippingRules {
  const rules = { HKD: { ...hkd } } as ShippingRules;
  for (const currency of DERIVED_CURRENCIES) {
    const set = own[currency];
    rules[currency] = fromHkd[currency] || !set ? ruleFromHkd(hkd, rates[currency]) : { ...set };
  }
  return rules;
}

const FOLLOW_HKD = { GBP: true, EUR: true, USD: true } as const;

export const DEFAULT_SHOP: ShopDetails = {
  name: { en: "Harbour Tactical", zh: "港灣戰術" },
  address: {
    en: "Unit 12, 8/F, Kwun Tong Industrial Centre, 472 Kwun Tong Road, Kwun Tong, Kowloon, Hong Kong",
    zh: "九龍觀塘觀塘道472號觀塘工業中心8樓12室",
  },
  supportEmail: "support@harbourtactical.hk",
  senderEmail: "no-reply@harbourtactical.hk",
  supportedBy: {
    name: { en: "Hong Kong Airsoft Players Network", zh: "香港氣槍玩家網絡" },
    url: null,
    logoKey: null,
  },
  // The spec's rule in HKD (HK$10, free above HK$100); £1 / £10, €1.18 / €11.80, US$1.28 / US$12.80.
  shipping: deliveryRules(DEFAULT_SHIPPING_RULE, DEFAULT_RATES, FOLLOW_HKD),
  shippingFromHkd: { ...FOLLOW_HKD },
  exchangeRates: DEFAULT_RATES,
  paymentWindowHours: null,
  // The demo shop's words: "Remove demo data" empties those the owner has not changed (decision 042).
  heroTitle: { en: "Gear Up for the Field", zh: "整裝出發，迎戰沙場" },
  heroText: {
    en: "Rifles, pistols, shotguns and tactical gear chosen by players, for players. Every gun legal in Hong Kong, every order checked by hand.",
    zh: "由玩家為玩家挑選的長槍、手槍、霰彈槍及戰術裝備。每支槍均符合香港法例，每張訂單均由專人核對。",
  },
  footerText: {
    en: "Airsoft guns and tactical gear for players in Hong Kong: tested, legal under 2 joules, and shipped within 48 hours of payment verification.",
    zh: "為香港玩家而設的氣槍及戰術裝備：每支槍均經測試、符合 2 焦耳法例上限，核實付款後 48 小時內發貨。",
  },
  // Every alert on, to the support e-mail, in English: a new shop hears of its first order.
  alerts: {
    emails: null,
    events: Object.fromEntries(ALERT_EVENTS.map((event) => [event, true])) as Record<AlertEvent, boolean>,
    language: "en",
  },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

function bilingual(value: unknown, fallback: Bilingual): Bilingual {
  const record = isRecord(value) ? value : {};
  return { en: text(record.en, fallback.en), zh: text(record.zh, fallback.zh) };
}

function cents(value: unknown, fallback: number | null): number | null {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
}

/** The stored JSON over the defaults, field by field: a value of the wrong shape is ignored. */
export function parseShopDetails(json: string | null | undefined): ShopDetails {
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = json ? JSON.parse(json) : {};
    if (isRecord(parsed)) stored = parsed;
  } catch {
    // A damaged value shows the defaults rather than breaking every page.
  }
  const supportedBy = isRecord(stored.supportedBy) ? stored.supportedBy : {};
  const rates = isRecord(stored.exchangeRates) ? stored.exchangeRates : {};
  const exchangeRates = Object.fromEntries(
    DERIVED_CURRENCIES.map((currency) => {
      const rate = rates[currency];
      const valid = typeof rate === "number" && Number.isSafeInteger(rate) && rate > 0;
      return [currency, valid ? rate : DEFAULT_SHOP.exchangeRates[currency]];
    }),
  ) as ExchangeRates;
  const { shipping, shippingFromHkd } = parseDelivery(stored, exchangeRates);
  return {
    name: bilingual(stored.name, DEFAULT_SHOP.name),
    address: bilingual(stored.address, DEFAULT_SHOP.address),
    supportEmail: text(stored.supportEmail, DEFAULT_SHOP.supportEmail),
    senderEmail: text(stored.senderEmail, DEFAULT_SHOP.senderEmail),
    supportedBy: {
      name: bilingual(supportedBy.name, DEFAULT_SHOP.supportedBy.name),
      url: typeof supportedBy.url === "string" && supportedBy.url ? supportedBy.url : null,
      logoKey: typeof supportedBy.logoKey === "string" && supportedBy.logoKey ? supportedBy.logoKey : null,
    },
    shipping,
    shippingFromHkd,
    exchangeRates,
    paymentWindowHours:
      typeof stored.paymentWindowHours === "number" &&
      Number.isInteger(stored.paymentWindowHours) &&
      stored.paymentWindowHours >= 1 &&
      stored.paymentWindowHours <= MAX_PAYMENT_WINDOW_HOURS
        ? stored.paymentWindowHours
        : null,
    heroTitle: bilingual(stored.heroTitle, DEFAULT_SHOP.heroTitle),
    heroText: bilingual(stored.heroText, DEFAULT_SHOP.heroText),
    footerText: bilingual(stored.footerText, DEFAULT_SHOP.footerText),
    alerts: parseAlerts(stored.alerts),
  };
}

/** The stored alert settings over the defaults: an event never set is on. */
function parseAlerts(value: unknown): ShopAlertSettings {
  const stored = isRecord(value) ? value : {};
  const events = isRecord(stored.events) ? stored.events : {};
  const emails = Array.isArray(stored.emails)
    ? stored.emails.filter((email): email is string => typeof email === "string" && email !== "")
    : [];
  return {
    emails: emails.length > 0 ? emails : null,
    events: Object.fromEntries(
      ALERT_EVENTS.map((event) => {
        const on = events[event];
        return [event, typeof on === "boolean" ? on : DEFAULT_SHOP.alerts.events[event]];
      }),
    ) as Record<AlertEvent, boolean>,
    language: stored.language === "zh" ? "zh" : DEFAULT_SHOP.alerts.language,
  };
}

/** Where the shop's alerts go: the notification addresses, else the support e-mail. */
export function alertAddresses(shop: ShopDetails): string[] {
  return shop.alerts.emails ?? [shop.supportEmail];
}

/**
 * The stored delivery rules over the defaults. A currency follows HKD when the owner left it so
 * (`shippingFromHkd`); in details saved before that choice existed, when its rule is missing or
 * is the old default's 10 / free above 100 (then the same numbers in every currency, never a
 * choice of the owner's that a currency worth ten times HKD would want).
 */
function parseDelivery(stored: Record<string, unknown>, rates: ExchangeRates) {
  const shipping = isRecord(stored.shipping) ? stored.shipping : {};
  const flags = isRecord(stored.shippingFromHkd) ? stored.shippingFromHkd : {};
  const ruleOf = (currency: string): ShippingRule | null => {
    const rule = shipping[currency];
    if (!isRecord(rule)) return null;
    const fallback = DEFAULT_SHIPPING_RULE;
    return {
      feeCents: cents(rule.feeCents, fallback.feeCents) ?? fallback.feeCents,
      freeAboveCents: rule.freeAboveCents === null ? null : cents(rule.freeAboveCents, fallback.freeAboveCents),
    };
  };
  const own = Object.fromEntries(DERIVED_CURRENCIES.map((currency) => [currency, ruleOf(currency)]));
  const shippingFromHkd = Object.fromEntries(
    DERIVED_CURRENCIES.map((currency) => {
      const flag = flags[currency];
      const rule = own[currency];
      if (typeof flag === "boolean") return [currency, flag || !rule];
      const oldDefault =
        rule?.feeCents === DEFAULT_SHIPPING_RULE.feeCents &&
        rule.freeAboveCents === DEFAULT_SHIPPING_RULE.freeAboveCents;
      return [currency, !rule || oldDefault];
    }),
  ) as Record<DerivedCurrency, boolean>;
  return {
    shipping: deliveryRules(ruleOf("HKD") ?? DEFAULT_SHIPPING_RULE, rates, shippingFromHkd, own),
    shippingFromHkd,
  };
}

/** The payment window a new order gets: the owner's setting, else PAYMENT_WINDOW_HOURS. */
export function paymentWindowHours(shop: ShopDetails, config: Pick<Config, "paymentWindowHours">): number {
  return shop.paymentWindowHours ?? config.paymentWindowHours;
}

export async function loadShop(db: DB): Promise<ShopDetails> {
  return parseShopDetails(await getSetting(db, SHOP_DETAILS_KEY));
}

// One read per request, however many loaders ask (they share the request's context).
const perRequest = new WeakMap<object, Promise<ShopDetails>>();

/** The shop's details for this request (read once, shared by the root and the page loaders). */
export function getShop(context: Readonly<RouterContextProvider>): Promise<ShopDetails> {
  let shop = perRequest.get(context);
  if (!shop) {
    shop = loadShop(services(context).db);
    perRequest.set(context, shop);
  }
  return shop;
}

/** The shop's name in one language (the other language when that one is empty). */
export function shopName(shop: ShopDetails, language: Language): string {
  return shop.name[language] || shop.name.en || shop.name.zh;
}

/** The owner's words in one language, else in English; "" when both are empty. */
function inLanguage(text: Bilingual, language: Language): string {
  return text[language] || text.en;
}

/**
 * The home hero's headline and subtitle in the reader's language. An empty headline is the
 * shop's name (the home page keeps its one heading); an empty subtitle is none.
 */
export function heroTexts(shop: ShopDetails, language: Language): { title: string; text: string } {
  return {
    title: inLanguage(shop.heroTitle, language) || shopName(shop, language),
    text: inLanguage(shop.heroText, language),
  };
}

/** What the storefront's header and footer show, in the reader's language. */
export function shopIdentity(shop: ShopDetails, language: Language) {
  const supporter = shop.supportedBy.name[language] || shop.supportedBy.name.en;
  return {
    name: shopName(shop, language),
    /** The footer's blurb under the name; empty: none. */
    blurb: inLanguage(shop.footerText, language),
    address: shop.address[language] || shop.address.en,
    supportEmail: shop.supportEmail,
    supportedBy: supporter
      ? { name: supporter, url: shop.supportedBy.url, logoUrl: publicUrl(shop.supportedBy.logoKey) }
      : null,
  };
}

export type ShopIdentity = ReturnType<typeof shopIdentity>;

/**
 * Saves the owner's shop details in one transaction: the value, an audit entry and, when an
 * exchange rate changed, every derived price recomputed from its HKD price at the new rate (the
 * prices the operator typed stay as typed). Returns the logo key that was replaced, for the
 * caller to delete after the commit.
 */
export async function saveShopDetails(
  db: DB,
  details: ShopDetails,
  options: { actorUserId: string | null },
): Promise<{ replacedLogoKey: string | null }> {
  return db.transaction().execute(async (trx) => {
    const before = parseShopDetails(await getSetting(trx, SHOP_DETAILS_KEY));
    await putSetting(trx, SHOP_DETAILS_KEY, JSON.stringify(details));
    // The delivery rule here is the default (rest-of-world) zone's: one place for one rule (decision 047).
    await setRestOfWorldRules(trx, details.shipping);
    for (const currency of DERIVED_CURRENCIES) {
      if (before.exchangeRates[currency] !== details.exchangeRates[currency]) {
        await recomputeDerivedPrices(trx, currency, details.exchangeRates[currency]);
      }
    }
    await auditAction(trx, options.actorUserId, "setting.shop_details_updated", SHOP_DETAILS_KEY, {
      before,
      after: details,
    });
    const replaced = before.supportedBy.logoKey;
    return { replacedLogoKey: replaced && replaced !== details.supportedBy.logoKey ? replaced : null };
  });
}

const PRICE_COLUMNS = {
  GBP: {
    price: "price_gbp_cents",
    derived: "price_gbp_derived",
    sale: "sale_price_gbp_cents",
    saleDerived: "sale_price_gbp_derived",
  },
  EUR: {
    price: "price_eur_cents",
    derived: "price_eur_derived",
    sale: "sale_price_eur_cents",
    saleDerived: "sale_price_eur_derived",
  },
  USD: {
    price: "price_usd_cents",
    derived: "price_usd_derived",
    sale: "sale_price_usd_cents",
    saleDerived: "sale_price_usd_derived",
  },
} as const;

/**
 * Every price in `currency` that follows HKD, recomputed at `ratePpm` (millionths per HKD),
 * rounded half up in integer arithmetic like `convertFromHkd`. Run inside the caller's transaction.
 */
export async function recomputeDerivedPrices(
  db: DB | Transaction<Database>,
  currency: DerivedCurrency,
  ratePpm: number,
): Promise<void> {
  const columns = PRICE_COLUMNS[currency];
  await db
    .updateTable("products")
    .set({
      // The rate inline as an integer literal: a bound JavaScript number reaches SQLite as a
      // REAL and would turn the integer division into a fractional price.
      [columns.price]: sql<number>`(cast(price_hkd_cents as bigint) * ${sql.lit(Math.trunc(ratePpm))} + 500000) / 1000000`,
    })
    .where(columns.derived, "=", 1)
    .execute();
  // Sale prices that follow the HKD sale price likewise (docs/decisions/053).
  await db
    .updateTable("products")
    .set({
      [columns.sale]: sql<number>`(cast(sale_price_hkd_cents as bigint) * ${sql.lit(Math.trunc(ratePpm))} + 500000) / 1000000`,
    })
    .where(columns.saleDerived, "=", 1)
    .where("sale_price_hkd_cents", "is not", null)
    .execute();
}

/** "Page | Shop name" in the request's language, for <title>. */
export async function titleWithShop(context: Readonly<RouterContextProvider>, title: string): Promise<string> {
  const shop = await getShop(context);
  const language = getLanguage(context);
  return `${title} | ${shopName(shop, language)}`;
}

/** The Shop details form's fields as they show when the page opens: the shop's current details. */
export function shopDetailsFormValues(shop: ShopDetails): Record<string, string> {
  const values: Record<string, string> = {
    name_en: shop.name.en,
    name_zh: shop.name.zh,
    address_en: shop.address.en,
    address_zh: shop.address.zh,
    support_email: shop.supportEmail,
    sender_email: shop.senderEmail,
    supported_by_en: shop.supportedBy.name.en,
    supported_by_zh: shop.supportedBy.name.zh,
    supported_by_url: shop.supportedBy.url ?? "",
    hero_title_en: shop.heroTitle.en,
    hero_title_zh: shop.heroTitle.zh,
    hero_text_en: shop.heroText.en,
    hero_text_zh: shop.heroText.zh,
    footer_text_en: shop.footerText.en,
    footer_text_zh: shop.footerText.zh,
  };
  for (const currency of CURRENCIES) {
    const rule = shop.shipping[currency];
    values[feeField(currency)] = centsToText(rule.feeCents);
    values[freeAboveField(currency)] = rule.freeAboveCents === null ? "" : centsToText(rule.freeAboveCents);
  }
  for (const currency of DERIVED_CURRENCIES)
    values[fromHkdField(currency)] = shop.shippingFromHkd[currency] ? "on" : "";
  for (const currency of DERIVED_CURRENCIES) values[rateField(currency)] = rateToText(shop.exchangeRates[currency]);
  values.payment_window_hours = shop.paymentWindowHours === null ? "" : String(shop.paymentWindowHours);
  values.alert_emails = (shop.alerts.emails ?? []).join("\n");
  for (const event of ALERT_EVENTS) values[ALERT_FIELDS[event]] = shop.alerts.events[event] ? "on" : "";
  values.alert_language = shop.alerts.language;
  return values;
}

/**
 * The delivery rules the form sets. A currency other than HKD follows HKD when its "follows HK$"
 * box is ticked and its amounts are still those the page showed (`current`); amounts typed over
 * them are that currency's own, ticked or not (the form's no-JavaScript answer to "I typed a
 * price but forgot the box"; with JavaScript, typing clears the box).
 */
function deliveryFromForm(form: ShopDetailsForm, current: ShopDetails, rates: ExchangeRates) {
  const typed = (currency: (typeof CURRENCIES)[number]): ShippingRule => ({
    feeCents: form[feeField(currency)],
    freeAboveCents: form[freeAboveField(currency)],
  });
  const shippingFromHkd = Object.fromEntries(
    DERIVED_CURRENCIES.map((currency) => {
      const rule = typed(currency);
      const shown = current.shipping[currency];
      const unchanged = rule.feeCents === shown.feeCents && rule.freeAboveCents === shown.freeAboveCents;
      return [currency, form[fromHkdField(currency)] && unchanged];
    }),
  ) as Record<DerivedCurrency, boolean>;
  const own = Object.fromEntries(DERIVED_CURRENCIES.map((currency) => [currency, typed(currency)]));
  return { shipping: deliveryRules(typed("HKD"), rates, shippingFromHkd, own), shippingFromHkd };
}

/**
 * Saves the Shop details form: a new "Supported By" logo is stored through the image pipeline
 * first (and removed again if the save fails); the old one is deleted after the commit.
 * Returns whether an exchange rate changed (every derived price then moved with it).
 */
export async function updateShopDetails(
  db: DB,
  storage: Storage,
  form: ShopDetailsForm,
  options: { actorUserId: string | null },
): Promise<{ ratesChanged: boolean }> {
  const current = await loadShop(db);
  const exchangeRates = Object.fromEntries(
    DERIVED_CURRENCIES.map((currency) => [currency, form[rateField(currency)]]),
  ) as ExchangeRates;
  // A refused logo is said at its field; the "too large" one in this form's words.
  const newLogo = await storeChosenImage(storage, form.supported_by_logo, "logo", {
    folder: "logos",
    field: "supported_by_logo",
    keys: { tooLarge: "adminShop.errors.logoTooLarge" },
  });
  const details: ShopDetails = {
    name: { en: form.name_en, zh: form.name_zh },
    address: { en: form.address_en, zh: form.address_zh },
    supportEmail: form.support_email,
    senderEmail: form.sender_email,
    supportedBy: {
      name: { en: form.supported_by_en, zh: form.supported_by_zh },
      url: form.supported_by_url,
      logoKey: keptImage(current.supportedBy.logoKey, newLogo ?? null, form.supported_by_logo_remove),
    },
    ...deliveryFromForm(form, current, exchangeRates),
    exchangeRates,
    paymentWindowHours: form.payment_window_hours,
    heroTitle: { en: form.hero_title_en, zh: form.hero_title_zh },
    heroText: { en: form.hero_text_en, zh: form.hero_text_zh },
    footerText: { en: form.footer_text_en, zh: form.footer_text_zh },
    alerts: {
      emails: form.alert_emails,
      events: Object.fromEntries(ALERT_EVENTS.map((event) => [event, form[ALERT_FIELDS[event]]])) as Record<
        AlertEvent,
        boolean
      >,
      language: form.alert_language,
    },
  };
  const { replacedLogoKey: replaced } = await savingImage(storage, newLogo ?? null, () =>
    saveShopDetails(db, details, options),
  );
  await deletePublicImage(storage, replaced);
  return {
    ratesChanged: DERIVED_CURRENCIES.some(
      (currency) => current.exchangeRates[currency] !== details.exchangeRates[currency],
    ),
  };
}

const DEMO_TEXTS = ["heroTitle", "heroText", "footerText"] as const;

/** Whether a hero or footer text still has the demo shop's words (in either language). */
export function hasDemoTexts(shop: ShopDetails): boolean {
  return DEMO_TEXTS.some((field) =>
    LANGUAGES.some((language) => shop[field][language] === DEFAULT_SHOP[field][language]),
  );
}

/**
 * Empties, inside the caller's transaction, each hero and footer text that is still the demo
 * shop's (per field and language; the owner's own words stay), so the storefront shows its
 * neutral fallback (`heroTexts`, `shopIdentity`). Only those keys of the stored value change:
 * whatever else the owner never set keeps following its default. Returns whether any changed.
 */
export async function clearDemoTexts(trx: Transaction<Database>): Promise<boolean> {
  const raw = await getSetting(trx, SHOP_DETAILS_KEY);
  const shop = parseShopDetails(raw);
  if (!hasDemoTexts(shop)) return false;
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (isRecord(parsed)) stored = parsed;
  } catch {
    // A damaged value: rewritten with the texts alone, as parseShopDetails reads it (defaults).
  }
  for (const field of DEMO_TEXTS) {
    stored[field] = Object.fromEntries(
      LANGUAGES.map((language) => {
        const text = shop[field][language];
        return [language, text === DEFAULT_SHOP[field][language] ? "" : text];
      }),
    );
  }
  await putSetting(trx, SHOP_DETAILS_KEY, JSON.stringify(stored));
  return true;
}
