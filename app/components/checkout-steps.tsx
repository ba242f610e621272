import { useTranslation } from "~/lib/i18n";

/**
 * The checkout as it happens: the delivery details (/checkout), payment with the receipt
 * (/payment), then the order is placed (/payment-success). There is no separate review page: the
 * payment page shows the order summary beside the form.
 */
const STEPS = ["shipping", "payment", "complete"] as const;
export type CheckoutStep = (typeof STEPS)[number];

const LABEL_KEYS = {
  shipping: "checkout.stepShipping",
  payment: "checkout.stepPayment",
  complete: "checkout.stepComplete",
} as const;

/** Where the shopper is in checkout: the current step is marked for the eye and with aria-current. */
export function CheckoutSteps({ current }: { current: CheckoutStep }) {
  const { t } = useTranslation();
  const at = STEPS.indexOf(current);
  return (
    <ol aria-label={t("checkout.stepsLabel")} className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
      {STEPS.map((step, index) => {
        const state = index < at ? "done" : index === at ? "current" : "todo";
        return (
          <li
            key={step}
            aria-current={state === "current" ? "step" : undefined}
            className={`flex items-center gap-1.5 ${
              state === "current"
                ? "font-semibold text-brand-700"
                : state === "done"
                  ? "text-stone-700"
                  : "text-stone-600"
            }`}
          >
            {index > 0 ? (
              <span aria-hidden="true" className="text-stone-400">
                ›
              </span>
            ) : null}
            <span
              aria-hidden="true"
              className={`flex h-5 w-5 items-center justify-center rounded-full text-xs ${
                state === "current"
                  ? "bg-brand-600 text-white"
                  : state === "done"
                    ? "border border-brand-600 text-brand-700"
                    : "border border-stone-400"
              }`}
            >
              {state === "done" ? "✓" : index + 1}
            </span>
            <span className={state === "current" ? "underline decoration-2 underline-offset-4" : undefined}>
              {t(LABEL_KEYS[step])}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
