import { useState } from "react";
import { useLocation } from "react-router";
import { useTranslation } from "~/lib/i18n";
import { useHydrated } from "~/lib/use-hydrated";
import type { Flash } from "~/request/flash.server";

const dismissClass = "-my-1 -mr-2 rounded px-2 py-1 text-lg leading-none opacity-70 hover:opacity-100";

const STYLES: Record<Flash["type"], string> = {
  success: "border-green-300 bg-green-50 text-green-900",
  error: "border-red-300 bg-red-50 text-red-900",
  info: "border-sky-300 bg-sky-50 text-sky-900",
};

/**
 * The flash message, rendered in the server HTML so it shows without JavaScript. Its "×" is a
 * link to the same page until React runs: the root loader has already cleared the message, so
 * the page comes back without it. Once hydrated it is a button that hides the message in place.
 */
export function FlashBanner({ flash }: { flash: Flash | null | undefined }) {
  const { t } = useTranslation();
  const location = useLocation();
  const hydrated = useHydrated();
  const [dismissed, setDismissed] = useState<Flash | null>(null);
  if (!flash || dismissed === flash) return null;
  // Names in the parameters (product, colour) are already in the reader's language.
  const params = flash.params;
  return (
    <div
      role={flash.type === "error" ? "alert" : "status"}
      data-flash={flash.type}
      className={`mx-auto mt-4 flex max-w-7xl items-start justify-between gap-4 rounded-md border px-4 py-3 ${STYLES[flash.type]}`}
    >
      <div>
        {/* biome-ignore lint/suspicious/noExplicitAny: keys come from the server as strings */}
        <p className="font-medium">{t(flash.key as any, params)}</p>
        {/* biome-ignore lint/suspicious/noExplicitAny: see above */}
        {flash.detailKey ? <p className="text-sm">{t(flash.detailKey as any, params)}</p> : null}
      </div>
      {hydrated ? (
        <button
          type="button"
          onClick={() => setDismissed(flash)}
          className={dismissClass}
          aria-label={t("flash.dismiss")}
          data-testid="flash-dismiss"
        >
          ×
        </button>
      ) : (
        <a
          href={`${location.pathname}${location.search}`}
          className={dismissClass}
          aria-label={t("flash.dismiss")}
          data-testid="flash-dismiss"
        >
          ×
        </a>
      )}
    </div>
  );
}
