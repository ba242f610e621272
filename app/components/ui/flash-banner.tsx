import { useState } from "react";
import { colorLabel } from "~/lib/color";
import type { Flash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";

const STYLES: Record<Flash["type"], string> = {
  success: "border-green-300 bg-green-50 text-green-900",
  error: "border-red-300 bg-red-50 text-red-900",
  info: "border-sky-300 bg-sky-50 text-sky-900",
};

/** The flash message, rendered in the server HTML so it shows without JavaScript. */
export function FlashBanner({ flash }: { flash: Flash | null | undefined }) {
  const { t } = useTranslation();
  const [dismissed, setDismissed] = useState<Flash | null>(null);
  if (!flash || dismissed === flash) return null;
  const params = flash.params?.color
    ? { ...flash.params, color: colorLabel(String(flash.params.color), t) }
    : flash.params;
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
      <button
        type="button"
        onClick={() => setDismissed(flash)}
        className="text-sm underline opacity-70 hover:opacity-100"
        aria-label={t("flash.dismiss")}
      >
        ×
      </button>
    </div>
  );
}
