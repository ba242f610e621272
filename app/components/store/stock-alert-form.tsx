import type { SubmissionResult } from "@conform-to/react";
import { useEffect } from "react";
import { Link, useFetcher } from "react-router";
import { FetcherField } from "~/components/ui/fetcher-field";
import { FieldFor, FormErrors, inputClass, inputProps } from "~/components/ui/field";
import { useServerForm } from "~/components/ui/use-server-form";
import { useTranslation } from "~/lib/i18n";
import { variantName } from "~/lib/localize";
import type { Problem } from "~/lib/problem";
import { useRootData, useVisitor } from "~/lib/root-data";
import type { StoreVariant } from "~/lib/variants";
import type { Flash } from "~/request/flash.server";
import type { stockAlertSchema } from "~/schemas/stock-alert";

/** The HTML constraints of stockAlertSchema (the browser gets no Zod: docs/decisions/045). */
const CONSTRAINT = { variant_id: { required: true }, email: { required: true, maxLength: 254 } };

/** What /stock-alerts answers a fetcher: a refusal (`result`, `problem`) or the flash of a success. */
export interface StockAlertAnswer {
  result?: SubmissionResult<string[]>;
  problem?: Problem | null;
  flash?: Flash | null;
}

/** Where the form posts: the variant rides in the address too, so the no-JavaScript answer page knows it. */
export function stockAlertAction(variantId: number): string {
  return `/stock-alerts?variant=${variantId}`;
}

/**
 * "E-mail me when it's back" for a sold-out variant (docs/decisions/055), shown under the buy
 * form. `variantId` (a hidden field) is its whole interface with the page. With JavaScript it
 * posts through a fetcher and the answer shows here; without, a plain post to /stock-alerts,
 * which redirects back with a flash or answers with its own page (the error, the input kept).
 * On its own page (/stock-alerts, never cached) the signed-in shopper's address is filled in by
 * the server; on the product page, which the page cache serves to everyone (docs/decisions/067),
 * the server markup carries no one's address and the browser fills it in after hydration.
 */
export function StockAlertForm({
  variantId,
  item,
  lastResult,
  problem,
}: {
  variantId: number;
  /** The product and colour, when the form stands on its own page. */
  item?: string;
  /** The answer of a plain post (the page version). */
  lastResult?: SubmissionResult<string[]>;
  problem?: Problem | null;
}) {
  const { t } = useTranslation();
  const fetcher = useFetcher<StockAlertAnswer>();
  const signedInEmail = useVisitor().email ?? "";
  const answer = fetcher.state === "idle" ? fetcher.data : undefined;
  const [form, fields] = useServerForm<typeof stockAlertSchema>(answer?.result ?? lastResult, CONSTRAINT, {
    id: `stock-alert-${variantId}`,
    defaultValue: { email: item ? signedInEmail : "" },
  });
  // The product page: the visitor's own address once in the browser, unless they typed one.
  const emailId = fields.email.id;
  useEffect(() => {
    if (item || !signedInEmail) return;
    const input = document.getElementById(emailId);
    if (input instanceof HTMLInputElement && input.value === "") input.value = signedInEmail;
  }, [item, signedInEmail, emailId]);
  const done = answer?.flash;
  return (
    <section
      aria-labelledby={`${form.id}-title`}
      className="rounded-lg border border-amber-300 bg-amber-50 p-4"
      data-testid="stock-alert"
    >
      <h2 id={`${form.id}-title`} className="font-semibold">
        {t("stockAlerts.formTitle")}
      </h2>
      {done ? (
        <p role="status" className="mt-2 text-sm text-green-800" data-testid="stock-alert-done">
          {/* biome-ignore lint/suspicious/noExplicitAny: keys come from the server */}
          <span className="font-medium">{t(done.key as any, done.params)}</span>
          {/* biome-ignore lint/suspicious/noExplicitAny: keys come from the server */}
          {done.detailKey ? <span> {t(done.detailKey as any, done.params)}</span> : null}
        </p>
      ) : (
        <fetcher.Form
          method="post"
          action={stockAlertAction(variantId)}
          {...form.props}
          className="mt-2 flex flex-col gap-3"
        >
          <p className="text-sm text-stone-700">
            {item ? t("stockAlerts.formIntroFor", { item }) : t("stockAlerts.formIntro")}
          </p>
          <FetcherField />
          <input type="hidden" name="variant_id" value={variantId} />
          <FormErrors errors={form.errors} params={(answer?.problem ?? problem)?.params} />
          <FieldFor field={fields.email} label={t("stockAlerts.email")}>
            <input {...inputProps(fields.email, "email")} autoComplete="email" className={inputClass} />
          </FieldFor>
          <button
            type="submit"
            disabled={fetcher.state !== "idle"}
            className="min-h-11 w-full rounded-md bg-stone-800 px-4 py-2 font-semibold text-white hover:bg-stone-900 disabled:opacity-60 sm:w-auto sm:self-start"
          >
            {fetcher.state !== "idle" ? t("stockAlerts.pending") : t("stockAlerts.submit")}
          </button>
        </fetcher.Form>
      )}
    </section>
  );
}

/**
 * While the chosen colour is in stock, the sold-out ones each get a link to the alert's own page
 * (/stock-alerts?variant=ID), with or without JavaScript: a sold-out colour cannot be chosen in
 * the buy form, so this is how a shopper asks for it. Nothing personal: safe in the cached page.
 */
export function SoldOutAlertLinks({ variants }: { variants: (StoreVariant & { id: number })[] }) {
  const { t } = useTranslation();
  const language = useRootData()?.language ?? "en";
  // Each sold-out colour (or colour × size, docs/decisions/054) by its name; a product without either has none.
  const soldOut = variants.filter((variant) => variant.stock === 0 && variantName(variant, language) !== "");
  if (soldOut.length === 0) return null;
  return (
    <ul className="flex flex-col gap-1 text-sm" data-testid="sold-out-alerts">
      {soldOut.map((variant) => (
        <li key={variant.id}>
          <Link to={stockAlertAction(variant.id)} className="text-brand-700 underline-offset-2 hover:underline">
            {t("stockAlerts.linkFor", { colour: variantName(variant, language) })}
          </Link>
        </li>
      ))}
    </ul>
  );
}
