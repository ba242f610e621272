import { useTranslation } from "~/lib/i18n";
import type { Flash } from "~/request/flash.server";

/** The answer of an add-to-cart fetcher, shown next to the button (JavaScript only). */
export function CartMessage({ flash }: { flash: Flash | null | undefined }) {
  const { t } = useTranslation();
  if (!flash) return null;
  // Names in the parameters (product, colour) are already in the reader's language.
  const params = flash.params;
  return (
    <p
      role={flash.type === "error" ? "alert" : "status"}
      className={`text-sm ${flash.type === "error" ? "text-red-700" : "text-green-800"}`}
      data-testid="cart-message"
    >
      {/* biome-ignore lint/suspicious/noExplicitAny: keys come from the server */}
      <span className="font-medium">{t(flash.key as any, params)}</span>
      {/* biome-ignore lint/suspicious/noExplicitAny: keys come from the server */}
      {flash.detailKey ? <span> – {t(flash.detailKey as any, params)}</span> : null}
    </p>
  );
}
