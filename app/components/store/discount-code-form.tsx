import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";
import { fieldMessage, type Problem } from "~/lib/problem";
import { translateKey } from "~/lib/translate-key";
import type { CartDiscount } from "~/models/discounts/cart.server";

/** What the code field shows: the applied code (or why it stopped applying) and the last refused attempt. */
export interface DiscountCodeState {
  discount: CartDiscount | null;
  discountProblem: (Problem & { code: string }) | null;
  attempt: { code: string; problem: Problem } | null;
}

/**
 * The shopper's discount code field (cart, checkout, payment; docs/decisions/048): plain form
 * posts to /cart/code, so it works without JavaScript; a refused code comes back with its reason
 * next to the field and what was typed kept. An applied code shows with a Remove button.
 */
export function DiscountCodeForm({ state, redirectTo }: { state: DiscountCodeState; redirectTo: string }) {
  const { t } = useTranslation();
  const { discount, discountProblem, attempt } = state;
  const applied = discount?.code ?? discountProblem?.code ?? null;
  const errors = attempt ? [fieldMessage(attempt.problem.key, attempt.problem.params ?? {})] : null;
  return (
    <section aria-labelledby="discount-code-heading" className="mt-4 border-t border-stone-200 pt-4 text-sm">
      <h3 id="discount-code-heading" className="sr-only">
        {t("discounts.fieldLabel")}
      </h3>
      {applied ? (
        <div data-testid="discount-applied" className="mb-3 flex flex-wrap items-center justify-between gap-2">
          <div>
            {discount ? (
              <p className="font-medium text-green-800">
                {t("discounts.appliedCode", { code: discount.code })}
                {discount.freeShipping ? ` ${t("discounts.freeShippingNote")}` : null}
              </p>
            ) : discountProblem ? (
              <p className="text-red-700" role="alert">
                {t("discounts.notApplying", { code: discountProblem.code })}{" "}
                {translateKey(t, discountProblem.key, discountProblem.params)}
              </p>
            ) : null}
          </div>
          <Form method="post" action="/cart/code">
            <input type="hidden" name="intent" value="removeCode" />
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <Button variant="secondary" size="sm" aria-label={t("discounts.removeNamed", { code: applied })}>
              {t("discounts.remove")}
            </Button>
          </Form>
        </div>
      ) : null}
      {/* A new key after each answer: the field shows what the server kept (empty once applied). */}
      <Form
        key={`${applied ?? ""}:${attempt?.code ?? ""}:${attempt?.problem.key ?? ""}`}
        method="post"
        action="/cart/code"
        className="flex flex-col gap-2"
        noValidate
      >
        <input type="hidden" name="intent" value="applyCode" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          htmlFor="discount-code"
          label={t("discounts.fieldLabel")}
          hint={applied ? undefined : t("discounts.fieldHint")}
          errors={errors}
        >
          <input
            name="code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
            defaultValue={attempt?.code ?? ""}
            className={`${inputClass} uppercase`}
          />
        </Field>
        <Button variant="secondary" className="self-end">
          {t("discounts.apply")}
        </Button>
      </Form>
    </section>
  );
}
