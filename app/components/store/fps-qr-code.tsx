import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";
import { formatMoney } from "~/lib/money";
import { useHydrated } from "~/lib/use-hydrated";

/** "HK$1,234.50" from the payload's "1234.50" (digits only: no floating point). */
function hkd(amount: string): string {
  return formatMoney(Number.parseInt(amount.replace(".", ""), 10), "HKD");
}

/** A value to copy by hand (selectable text), with a Copy button once JavaScript runs. */
function CopyValue({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <>
      <dt className="text-stone-500">{label}</dt>
      <dd className="flex flex-wrap items-center gap-2">
        <span className="select-all font-mono text-base font-bold">{value}</span>
        {hydrated && typeof navigator !== "undefined" && navigator.clipboard ? (
          <>
            <Button
              type="button"
              variant="secondary"
              size="sm"
              onClick={() => {
                navigator.clipboard.writeText(value).then(
                  () => setCopied(true),
                  () => undefined,
                );
              }}
            >
              {copied ? t("fpsQr.copied") : t("fpsQr.copy")}
              <span className="sr-only"> {label}</span>
            </Button>
            <span role="status" className="sr-only">
              {copied ? t("fpsQr.copied") : ""}
            </span>
          </>
        ) : null}
      </dd>
    </>
  );
}

/**
 * The FPS QR code for a payment (made on the server by `fpsQrFor`, app/lib/fps-qr.server.ts), with
 * the FPS id and the amount as text to copy into a banking app that cannot scan. The SVG is
 * markup from our own QR encoder (attributes only), so it goes into the page as it is.
 */
export function FpsQrCode({ svg, fpsId, amount }: { svg: string; fpsId: string; amount: string }) {
  const { t } = useTranslation();
  const money = hkd(amount);
  return (
    <div data-testid="fps-qr" className="flex flex-col items-center gap-3 sm:items-start">
      <figure className="flex flex-col items-center gap-3 sm:items-start">
        <div
          role="img"
          aria-label={t("fpsQr.label", { amount: money })}
          className="size-[200px] shrink-0 rounded-md border border-stone-200 bg-white [&>svg]:block [&>svg]:size-full"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: SVG the server drew from the payload, no user markup
          dangerouslySetInnerHTML={{ __html: svg }}
        />
        <figcaption className="max-w-xs text-center text-sm text-stone-700 sm:max-w-[200px] sm:text-left">
          {t("fpsQr.caption", { amount: money })}
        </figcaption>
      </figure>
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
        <CopyValue label={t("fpsQr.fpsId")} value={fpsId} />
        <CopyValue label={t("fpsQr.amount")} value={amount} />
      </dl>
    </div>
  );
}
