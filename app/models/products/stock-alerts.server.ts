import crypto from "node:crypto";
import { type DB, now } from "#db/connect.server";
import { lockRows } from "#db/dialect";
import { isUniqueViolation } from "#db/errors";
import type { Locale, StockAlertsTable } from "#db/schema";
import { DEFAULT_COLOR } from "~/lib/colors";
import type { Config } from "~/lib/config.server";
import { localized, variantName } from "~/lib/localize";
import { renderLocalizedEmail } from "~/lib/mail.server";
import { UserError } from "~/lib/problem";
import type { Language } from "~/locales";
import { queueEmail } from "../outbox/queue.server";
import { RateLimiter } from "../rate-limits.server";
import { loadShop } from "../settings/shop.server";
import { normalizeEmail } from "../user.server";

/** Back-in-stock alert requests per client address (docs/decisions/055). */
export const stockAlertsPerAddress = new RateLimiter("stock-alert-address", 20, 60 * 60 * 1000);
/** Back-in-stock alert e-mails (confirmation or acknowledgement) per e-mail address: the shop is no mail cannon. */
export const stockAlertMailsPerEmail = new RateLimiter("stock-alert-email", 5, 24 * 60 * 60 * 1000);

/*
 * Back-in-stock alerts (docs/decisions/055). A shopper asks to hear once when a sold-out variant
 * is back; a guest's request (or an address the account has not proven) waits as `pending` until
 * its confirmation link is followed, so the shop cannot be used to mail strangers. When a
 * variant's stock goes from 0 to more (an admin save, a CSV import, a cancelled or expired
 * order's restock) `notifyBackInStock` queues one e-mail per active alert in the transaction of
 * that write and ends the alert.
 */

/** How long a confirmation link works. */
export const CONFIRM_TTL_MS = 48 * 60 * 60 * 1000;
/** A repeated request for the same variant and address within this time sends no second e-mail. */
export const RESEND_AFTER_MS = 15 * 60 * 1000;

/** What the e-mails' links need of the configuration. */
export type StockAlertMailConfig = Pick<Config, "publicUrl">;

export type SubscribeOutcome = "active" | "pending" | "alreadyActive" | "alreadyPending";

export interface SubscribeInput {
  variantId: number;
  email: string;
  language: Language;
  /** The signed-in shopper, if any: their own verified address is active at once. */
  userId: string | null;
  /** The client's address, for the per-address throttle. */
  ip: string;
}

export interface SubscribeResult {
  outcome: SubscribeOutcome;
  email: string;
  productId: number;
  color: string;
}

function hash(token: string): string {
  return crypto.createHash("sha256").update(token).digest("hex");
}

function newToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** The language an alert's messages are written in. */
function alertLanguage(locale: string): Language {
  return locale === "zh" ? "zh" : "en";
}

/** The `?lng=` a link carries so its page opens in the alert's language. */
function withLanguage(url: string, language: Language): string {
  return language === "zh" ? `${url}${url.includes("?") ? "&" : "?"}lng=zh` : url;
}

function tooMany(key: "tooManyAttempts" | "tooManyEmails", wait: number): UserError {
  return new UserError(`stockAlerts.errors.${key}`, {
    params: { minutes: Math.max(1, Math.ceil(wait / 60)) },
    status: 429,
  });
}

/** A variant as the alerts name it: its product's names and the variant's colour (and, soon, option). */
interface AlertVariant {
  id: number;
  product_id: number;
  stock: number;
  color: string;
  color_zh: string | null;
  /** The second option's value ('' when none; docs/decisions/054). */
  option_value: string;
  option_value_zh: string | null;
  name_en: string;
  name_zh: string;
  /** Its category is switched off: shoppers cannot see it (no new alerts). */
  hidden: boolean;
}

async function readVariants(db: DB, ids: number[]): Promise<AlertVariant[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom("product_variants")
    .innerJoin("products", "products.id", "product_variants.product_id")
    .leftJoin("categories", "categories.id", "products.category_id")
    .select([
      "product_variants.id",
      "product_variants.product_id",
      "product_variants.stock",
      "product_variants.color",
      "product_variants.color_zh",
      "product_variants.option_value",
      "product_variants.option_value_zh",
      "products.name_en",
      "products.name_zh",
      "categories.is_active as category_active",
    ])
    .where("product_variants.id", "in", ids)
    .execute()
    .then((rows) => rows.map(({ category_active, ...row }) => ({ ...row, hidden: category_active === 0 })));
}

/**
 * "Tactical gloves (Black / L)" in `language`: the product's name and what tells the variant
 * apart — its colour and its second option's value (docs/decisions/054).
 */
function itemName(variant: AlertVariant, language: Language): string {
  const which = variantName(variant, language);
  const name = localized(variant, "name", language);
  if (which === "") return name;
  return language === "zh" ? `${name}（${which}）` : `${name} (${which})`;
}

/** The product page with the variant chosen, in the alert's language. */
function productUrl(config: StockAlertMailConfig, variant: AlertVariant, language: Language): string {
  return withLanguage(
    `${config.publicUrl}${productPath(variant.product_id, variant.color, variant.option_value)}`,
    language,
  );
}

function stopUrl(config: StockAlertMailConfig, token: string, language: Language): string {
  return withLanguage(`${config.publicUrl}/stock-alerts/stop?token=${encodeURIComponent(token)}`, language);
}

/**
 * Queues the e-mail a new or renewed alert sends: the confirmation link (pending) or the
 * acknowledgement (active at once), both with the link that stops the alert. Counted against the
 * address's throttle in the same transaction.
 */
async function queueSubscriptionEmail(
  trx: DB,
  config: StockAlertMailConfig,
  variant: AlertVariant,
  email: string,
  language: Language,
  tokens: { confirm: string | null; cancel: string },
  at: Date,
): Promise<void> {
  const wait = await stockAlertMailsPerEmail.hit(trx, email, at.getTime());
  if (wait > 0) throw tooMany("tooManyEmails", wait);
  const name = itemName(variant, language);
  const stop = stopUrl(config, tokens.cancel, language);
  const message = await renderLocalizedEmail(await loadShop(trx), email, language, (t, shop) =>
    tokens.confirm
      ? {
          subject: t("stockAlerts.confirmSubject", { item: name }),
          heading: t("stockAlerts.confirmHeading"),
          paragraphs: [
            t("stockAlerts.confirmEmailText", { item: name, shop }),
            t("stockAlerts.confirmIgnore"),
            t("stockAlerts.stopLink", { url: stop }),
          ],
          action: {
            label: t("stockAlerts.confirmAction"),
            url: withLanguage(
              `${config.publicUrl}/stock-alerts/confirm?token=${encodeURIComponent(tokens.confirm)}`,
              language,
            ),
          },
        }
      : {
          subject: t("stockAlerts.subscribedSubject", { item: name }),
          heading: t("stockAlerts.subscribedHeading"),
          paragraphs: [t("stockAlerts.subscribedText", { item: name }), t("stockAlerts.stopLink", { url: stop })],
          action: { label: t("stockAlerts.backAction"), url: productUrl(config, variant, language) },
        },
  );
  await queueEmail(
    trx,
    message,
    { event: tokens.confirm ? "stockAlert.confirm" : "stockAlert.subscribed", audience: "customer", language },
    at,
  );
}

/**
 * A shopper asks to be e-mailed once when a sold-out variant is back. Rules:
 * - only while the variant's stock is 0 (else `UserError` "it's in stock now", 409);
 * - throttled per client address (every request) and per e-mail address (every e-mail sent): 429;
 * - the signed-in shopper's own, verified address is active at once (an acknowledgement with the
 *   stop link is sent); any other address is pending and gets a confirmation link (48 h);
 * - a repeated request for the same variant and address is idempotent: an active alert stays as
 *   it is, a pending one gets a new link only once RESEND_AFTER_MS has passed since the last one.
 * The variant's row is locked first, so a restock committing meanwhile either sees this alert or
 * makes this request see the stock.
 */
export async function subscribeToStockAlert(
  db: DB,
  config: StockAlertMailConfig,
  input: SubscribeInput,
  at: Date = new Date(),
): Promise<SubscribeResult> {
  const ipWait = await stockAlertsPerAddress.hit(db, input.ip, at.getTime());
  if (ipWait > 0) throw tooMany("tooManyAttempts", ipWait);
  const email = normalizeEmail(input.email);
  const timestamp = now(at);
  try {
    return await db.transaction().execute(async (trx) => {
      // The rule "only while sold out" against a restock in flight (see above).
      await lockRows(trx, "product_variants", "id", input.variantId);
      const [variant] = await readVariants(trx, [input.variantId]);
      if (!variant || variant.hidden) throw new UserError("stockAlerts.errors.gone", { status: 404 });
      if (variant.stock > 0) throw new UserError("stockAlerts.errors.inStock", { status: 409 });
      const result = (outcome: SubscribeOutcome): SubscribeResult => ({
        outcome,
        email,
        productId: variant.product_id,
        color: variant.color,
      });
      const user = input.userId
        ? await trx
            .selectFrom("users")
            .select(["id", "email", "email_verified_at"])
            .where("id", "=", input.userId)
            .executeTakeFirst()
        : undefined;
      const proven = user !== undefined && user.email_verified_at !== null && normalizeEmail(user.email) === email;
      const locale: Locale = input.language;

      const open = await trx
        .selectFrom("stock_alerts")
        .selectAll()
        .where("variant_id", "=", variant.id)
        .where("email", "=", email)
        .where("status", "in", ["pending", "active"])
        .executeTakeFirst();
      if (open?.status === "active") return result("alreadyActive");
      if (open && proven) {
        await trx
          .updateTable("stock_alerts")
          .set({ status: "active", confirmed_at: timestamp, confirm_token_hash: null, user_id: user.id, locale })
          .where("id", "=", open.id)
          .execute();
        return result("active");
      }
      if (open) {
        const lastSent = open.confirm_sent_at ? Date.parse(open.confirm_sent_at) : 0;
        if (at.getTime() - lastSent < RESEND_AFTER_MS) return result("alreadyPending");
        const confirm = newToken();
        const cancel = newToken();
        await trx
          .updateTable("stock_alerts")
          .set({
            confirm_token_hash: hash(confirm),
            confirm_expires_at: now(new Date(at.getTime() + CONFIRM_TTL_MS)),
            confirm_sent_at: timestamp,
            cancel_token_hash: hash(cancel),
            locale,
          })
          .where("id", "=", open.id)
          .execute();
        await queueSubscriptionEmail(trx, config, variant, email, input.language, { confirm, cancel }, at);
        return result("pending");
      }

      const confirm = proven ? null : newToken();
      const cancel = newToken();
      const row: Omit<StockAlertsTable, "id"> = {
        variant_id: variant.id,
        product_id: variant.product_id,
        email,
        user_id: user?.id ?? null,
        locale,
        status: proven ? "active" : "pending",
        confirm_token_hash: confirm ? hash(confirm) : null,
        confirm_expires_at: confirm ? now(new Date(at.getTime() + CONFIRM_TTL_MS)) : null,
        confirm_sent_at: timestamp,
        cancel_token_hash: hash(cancel),
        created_at: timestamp,
        confirmed_at: proven ? timestamp : null,
        sent_at: null,
        cancelled_at: null,
      };
      await trx.insertInto("stock_alerts").values(row).execute();
      await queueSubscriptionEmail(trx, config, variant, email, input.language, { confirm, cancel }, at);
      return result(proven ? "active" : "pending");
    });
  } catch (error) {
    // The same request twice at once: the other one made the alert (and sent its e-mail).
    if (isUniqueViolation(error)) {
      const variant = (await readVariants(db, [input.variantId]))[0];
      if (variant) return { outcome: "alreadyPending", email, productId: variant.product_id, color: variant.color };
    }
    throw error;
  }
}

/** The variant the form is for, as its page names it; null when there is none. */
export async function findAlertVariant(
  db: DB,
  variantId: number,
  language: Language,
): Promise<{ productId: number; color: string; optionValue: string; item: string; stock: number } | null> {
  if (!Number.isSafeInteger(variantId) || variantId < 1) return null;
  const [variant] = await readVariants(db, [variantId]);
  return variant && !variant.hidden
    ? {
        productId: variant.product_id,
        color: variant.color,
        optionValue: variant.option_value,
        item: itemName(variant, language),
        stock: variant.stock,
      }
    : null;
}

/** The product page with the variant chosen (a path: `?colour=`, `?option=`), where the form's answers go back to. */
export function productPath(productId: number, color: string, optionValue = ""): string {
  const query = new URLSearchParams();
  if (color !== DEFAULT_COLOR) query.set("colour", color);
  if (optionValue !== "") query.set("option", optionValue);
  const search = query.toString();
  return `/product/${productId}${search ? `?${search}` : ""}`;
}

/** What a confirm or stop link's page shows: the item, in `language`; null when the link does not work. */
export async function findStockAlertByToken(
  db: DB,
  token: string,
  kind: "confirm" | "stop",
  language: Language,
  at: Date = new Date(),
): Promise<{ item: string; status: StockAlertsTable["status"] } | null> {
  if (token.length < 20) return null;
  let query = db
    .selectFrom("stock_alerts")
    .select(["variant_id", "status"])
    .where(kind === "confirm" ? "confirm_token_hash" : "cancel_token_hash", "=", hash(token));
  if (kind === "confirm") query = query.where("status", "=", "pending").where("confirm_expires_at", ">", now(at));
  const alert = await query.executeTakeFirst();
  if (!alert) return null;
  const [variant] = await readVariants(db, [alert.variant_id]);
  return variant ? { item: itemName(variant, language), status: alert.status } : null;
}

/**
 * Follows a confirmation link: the pending alert becomes active (once; a used, expired or unknown
 * link is a `UserError`). If the variant came back while the alert was pending, its e-mail is sent
 * now, in the same transaction. Returns whether it was sent at once, and the product to go back to.
 */
export async function confirmStockAlert(
  db: DB,
  config: StockAlertMailConfig,
  token: string,
  at: Date = new Date(),
): Promise<{ productId: number; color: string; sentNow: boolean }> {
  const timestamp = now(at);
  return db.transaction().execute(async (trx) => {
    const alert = await trx
      .updateTable("stock_alerts")
      .set({ status: "active", confirmed_at: timestamp, confirm_token_hash: null })
      .where("confirm_token_hash", "=", hash(token))
      .where("status", "=", "pending")
      .where("confirm_expires_at", ">", timestamp)
      .returning(["id", "variant_id", "product_id"])
      .executeTakeFirst();
    if (!alert) throw new UserError("stockAlerts.invalidTitle");
    const sent = await notifyBackInStock(trx, config, [alert.variant_id], at);
    const [variant] = await readVariants(trx, [alert.variant_id]);
    return { productId: alert.product_id, color: variant?.color ?? DEFAULT_COLOR, sentNow: sent > 0 };
  });
}

/**
 * Follows a stop link: a pending or active alert is cancelled. "ended" when it had already been
 * sent or cancelled; null when the link is unknown.
 */
export async function cancelStockAlert(
  db: DB,
  token: string,
  at: Date = new Date(),
): Promise<"stopped" | "ended" | null> {
  const cancelled = await db
    .updateTable("stock_alerts")
    .set({ status: "cancelled", cancelled_at: now(at), confirm_token_hash: null })
    .where("cancel_token_hash", "=", hash(token))
    .where("status", "in", ["pending", "active"])
    .executeTakeFirst();
  if (Number(cancelled.numUpdatedRows) === 1) return "stopped";
  const known = await db
    .selectFrom("stock_alerts")
    .select("id")
    .where("cancel_token_hash", "=", hash(token))
    .executeTakeFirst();
  return known ? "ended" : null;
}

/**
 * The restock's side: for each of `variantIds` whose stock is now above 0, every ACTIVE alert
 * gets one e-mail in its own language and becomes `sent`, in the caller's transaction `trx` (the
 * write that raised the stock), so an e-mail exists exactly when its alert has ended. Each alert
 * is claimed by a compare-and-set (active → sent): a second process restocking the same variant
 * at once, or a second restock later, sends nothing more. Pending alerts are never mailed.
 * Callers pass the variants whose stock went from 0 to more. Returns the number of e-mails queued.
 */
export async function notifyBackInStock(
  trx: DB,
  config: StockAlertMailConfig,
  variantIds: readonly number[],
  at: Date = new Date(),
): Promise<number> {
  const ids = [...new Set(variantIds)];
  let queued = 0;
  for (let start = 0; start < ids.length; start += 500) {
    const back = (await readVariants(trx, ids.slice(start, start + 500))).filter((variant) => variant.stock > 0);
    if (back.length === 0) continue;
    const byId = new Map(back.map((variant) => [variant.id, variant]));
    const alerts = await trx
      .selectFrom("stock_alerts")
      .select(["id", "variant_id", "email", "locale"])
      .where("variant_id", "in", [...byId.keys()])
      .where("status", "=", "active")
      .orderBy("id")
      .execute();
    if (alerts.length === 0) continue;
    const shop = await loadShop(trx);
    for (const alert of alerts) {
      const claimed = await trx
        .updateTable("stock_alerts")
        .set({ status: "sent", sent_at: now(at) })
        .where("id", "=", alert.id)
        .where("status", "=", "active")
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) continue;
      const variant = byId.get(alert.variant_id) as AlertVariant;
      const language = alertLanguage(alert.locale);
      const item = itemName(variant, language);
      const message = await renderLocalizedEmail(shop, alert.email, language, (t, shopName) => ({
        subject: t("stockAlerts.backSubject", { item }),
        heading: t("stockAlerts.backHeading"),
        paragraphs: [t("stockAlerts.backText", { item, shop: shopName }), t("stockAlerts.backEnded")],
        action: { label: t("stockAlerts.backAction"), url: productUrl(config, variant, language) },
      }));
      await queueEmail(trx, message, { event: "stockAlert.back", audience: "customer", language }, at);
      queued += 1;
    }
  }
  return queued;
}

/** Active alerts per product, for the admin list: one grouped query over the given products. */
export async function countWaitingByProduct(db: DB, productIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (productIds.length === 0) return counts;
  const rows = await db
    .selectFrom("stock_alerts")
    .select(["product_id", (eb) => eb.fn.countAll<number>().as("waiting")])
    .where("product_id", "in", [...productIds])
    .where("status", "=", "active")
    .groupBy("product_id")
    .execute();
  for (const row of rows) counts.set(Number(row.product_id), Number(row.waiting));
  return counts;
}
