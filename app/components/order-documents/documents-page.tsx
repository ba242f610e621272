import type { TFunction } from "i18next";
import { useMemo } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { createTranslator, type Messages, useTranslation } from "~/lib/i18n";
import { useHydrated } from "~/lib/use-hydrated";
import type { Language } from "~/locales";
import type { OrderDocument } from "~/models/orders/documents.server";
import { InvoiceSheet, PackingSlipSheet } from "./sheets";

/**
 * The paper: A4 with a margin the printers of a small shop all manage; the screen's grey and
 * the toolbar stay off it (`print:hidden`), so only the sheets print, one a page.
 */
const PRINT_CSS = "@page { size: A4; margin: 12mm 12mm 14mm; } @media print { html, body { background: #fff; } }";

export interface DocumentsPageProps {
  documents: OrderDocument[];
  /** The documents' words, per language the documents are written in (the orders' languages). */
  texts: Partial<Record<Language, Messages>>;
  /** Ids of a selection that are no order: named on screen, never printed. */
  missing: string[];
  back: { to: string; label: "orderDocuments.backToOrder" | "orderDocuments.backToOrders" };
  /** A selection that cannot be printed (400): what to do instead. */
  problem?: { key: string; params?: Record<string, string | number> } | null;
}

/**
 * A page of printable documents in a layout of its own (no shop header or admin sidebar): a
 * small toolbar in the reader's language — the way back, how many, how to print — then the
 * sheets. Printing needs no JavaScript (the browser's own Print); with it, a Print button.
 */
export function OrderDocumentsPage({ documents, texts, missing, back, problem }: DocumentsPageProps) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const translators = useMemo(() => {
    const made: Partial<Record<Language, TFunction>> = {};
    for (const [language, messages] of Object.entries(texts) as [Language, Messages][]) {
      made[language] = createTranslator(language, { orderDocuments: messages });
    }
    return made;
  }, [texts]);
  return (
    <main id="main" className="min-h-screen bg-stone-200 pb-10 print:min-h-0 print:bg-white print:pb-0">
      <style>{PRINT_CSS}</style>
      <div className="border-b border-stone-300 bg-white print:hidden" data-testid="documents-toolbar">
        <div className="mx-auto flex max-w-[210mm] flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
          <Link to={back.to} className="text-sm text-brand-700 underline underline-offset-2 hover:no-underline">
            ← {t(back.label)}
          </Link>
          {documents.length > 1 ? (
            <p className="text-sm font-medium">{t("orderDocuments.count", { count: documents.length })}</p>
          ) : null}
          {hydrated && documents.length > 0 ? (
            <button
              type="button"
              onClick={() => window.print()}
              className={buttonClass("primary", "sm", "ml-auto")}
              data-testid="print-button"
            >
              {t("orderDocuments.print")}
            </button>
          ) : null}
          {documents.length > 0 ? (
            <p className="basis-full text-xs text-stone-600">{t("orderDocuments.printHint")}</p>
          ) : null}
        </div>
      </div>
      {problem ? (
        <div className="mx-auto mt-6 max-w-[210mm] px-4 print:hidden">
          <h1 className="text-xl font-bold">{t("orderDocuments.errors.title")}</h1>
          <p className="mt-2 text-red-800" role="alert" data-testid="documents-problem">
            {t(problem.key as "orderDocuments.errors.none", problem.params)}
          </p>
        </div>
      ) : null}
      {missing.length > 0 ? (
        <p
          className="mx-auto mt-4 max-w-[210mm] px-4 text-sm font-medium text-red-800 [overflow-wrap:anywhere] print:hidden"
          role="alert"
          data-testid="documents-missing"
        >
          {t("orderDocuments.missing", { count: missing.length, ids: missing.join(", ") })}
        </p>
      ) : null}
      <div className="mt-4 flex flex-col gap-6 sm:mt-6 sm:px-4 print:m-0 print:block print:p-0">
        {documents.map((document) => {
          const docT = translators[document.language] ?? t;
          return document.kind === "invoice" ? (
            <InvoiceSheet key={document.orderId} invoice={document} t={docT} />
          ) : (
            <PackingSlipSheet key={document.orderId} slip={document} t={docT} />
          );
        })}
      </div>
    </main>
  );
}
