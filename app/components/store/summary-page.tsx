import type { ReactNode } from "react";
import { type CheckoutStep, CheckoutSteps } from "~/components/checkout-steps";

/**
 * A page on the way to an order (cart, checkout, payment): the checkout step, the heading, a
 * notice below it, then the page's main column with the summary beside it.
 */
export function SummaryPage({
  step,
  title,
  notice,
  summary,
  children,
}: {
  /** Where in checkout the page stands; none for the cart. */
  step?: CheckoutStep;
  title: string;
  notice?: ReactNode;
  summary: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      {step ? <CheckoutSteps current={step} /> : null}
      <h1 className={step ? "mt-2 text-3xl font-bold" : "text-3xl font-bold"}>{title}</h1>
      {notice}
      <div className="mt-6 grid gap-8 lg:grid-cols-[1fr_22rem]">
        {children}
        {summary}
      </div>
    </div>
  );
}
