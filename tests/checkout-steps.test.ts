import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { type CheckoutStep, CheckoutSteps } from "~/components/checkout-steps";
import en from "~/locales/en/translation";
import zh from "~/locales/zh/translation";
import PaymentSuccess, { loader as successLoader } from "~/routes/store/payment-success";
import { createCustomer, placeTestOrder } from "./factories";
import { createTestServices } from "./setup/db";
import { renderPage } from "./setup/render";
import { runRoute } from "./setup/route";

/**
 * The checkout's step indicator names the steps a shopper goes through — delivery details
 * (/checkout), payment with the receipt (/payment), the order placed (/payment-success) — and no
 * "Review" page, which does not exist (issue 25). The success page marks the last step.
 */

/** The steps' labels in order, and which one is marked current. */
function steps(html: string) {
  const items = [...html.matchAll(/<li([^>]*)>(.*?)<\/li>/g)].map(([, attributes, inner]) => ({
    current: attributes?.includes('aria-current="step"') ?? false,
    label: (inner ?? "").replace(/<[^>]+>/g, "").replace(/^›?[✓\d]/, ""),
  }));
  return { labels: items.map((item) => item.label), current: items.find((item) => item.current)?.label };
}

describe("the checkout steps", () => {
  it("are the three steps the checkout has, in both languages", async () => {
    for (const [language, text] of [
      ["en", en.checkout],
      ["zh", zh.checkout],
    ] as const) {
      const shown = async (current: CheckoutStep) =>
        steps(
          await renderPage({
            url: "/",
            Component: () => createElement(CheckoutSteps, { current }),
            loaderData: {},
            language,
          }),
        );
      const labels = [text.stepShipping, text.stepPayment, text.stepComplete];
      expect(await shown("shipping")).toEqual({ labels, current: text.stepShipping });
      expect(await shown("payment")).toEqual({ labels, current: text.stepPayment });
      expect(await shown("complete")).toEqual({ labels, current: text.stepComplete });
    }
    expect(Object.keys(en.checkout)).not.toContain("stepReview");
  });

  it("end on the success page, at Complete", async () => {
    const svc = await createTestServices();
    const user = await createCustomer(svc.db);
    const { order } = await placeTestOrder(svc.db, { user });
    const url = `/payment-success?order=${order.order_number}`;
    const { result } = await runRoute(svc, successLoader, new Request(`http://localhost${url}`), {
      id: user.id,
      email: user.email,
      isAdmin: false,
      role: null,
    });
    const html = await renderPage({ url, Component: PaymentSuccess, loaderData: result });
    expect(html).toContain(order.order_number);
    expect(steps(html).labels.slice(0, 3)).toEqual(["Shipping", "Payment", "Complete"]);
    expect(steps(html).current).toBe("Complete");
  });
});
