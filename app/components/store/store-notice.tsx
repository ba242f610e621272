import { Link } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { MessagePanel } from "~/components/ui/message-panel";
import { useTranslation } from "~/lib/i18n";

/**
 * The storefront's pages that only say something: what each says and its one way on. "Nothing
 * to order" notices stand in the middle of the page with a button; a link from one of the shop's
 * e-mails that cannot be used (used, expired or garbled) stands where its form would, with a link.
 */
const NOTICES = {
  emptyCart: { title: "cart.emptyTitle", text: "cart.emptyText", to: "/category/all", action: "cart.startShopping" },
  emptyCheckout: { title: "checkout.emptyTitle", text: "checkout.emptyText", to: "/", action: "checkout.backHome" },
  // No checkout to pay for: nothing in the cart, or no details yet.
  noOrder: { title: "payment.noOrderTitle", text: "payment.noOrderText", to: "/cart", action: "payment.returnToCart" },
  resetLink: {
    title: "reset.invalidTitle",
    text: "reset.invalidText",
    to: "/forgot-password",
    action: "reset.requestNew",
  },
  verifyLink: {
    title: "verify.invalidTitle",
    text: "verify.invalidText",
    to: "/login?mode=signup",
    action: "auth.toSignup",
  },
  // A back-in-stock alert's confirm or stop link (docs/decisions/055).
  stockAlertLink: {
    title: "stockAlerts.invalidTitle",
    text: "stockAlerts.invalidText",
    to: "/",
    action: "product.backHome",
  },
} as const;

const LINK_NOTICES: ReadonlySet<keyof typeof NOTICES> = new Set(["resetLink", "verifyLink", "stockAlertLink"]);

/** A page that only says something (nothing to order, an e-mail link that cannot be used). */
export function StoreNotice({ notice }: { notice: keyof typeof NOTICES }) {
  const { t } = useTranslation();
  const texts = NOTICES[notice];
  const isLink = LINK_NOTICES.has(notice);
  return (
    <MessagePanel
      layout={isLink ? "page" : "centered"}
      title={t(texts.title)}
      text={t(texts.text)}
      action={
        isLink ? (
          <Link to={texts.to} className="mt-6 inline-block font-semibold text-brand-700 hover:underline">
            {t(texts.action)}
          </Link>
        ) : (
          <ButtonLink to={texts.to} size="lg">
            {t(texts.action)}
          </ButtonLink>
        )
      }
    />
  );
}
