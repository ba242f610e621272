import { data, type HeadersFunction, isRouteErrorResponse } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";
import { REQUEST_ID_META, useRequestId } from "~/lib/request-id";
import { useRootData } from "~/lib/root-data";
import { translateKey } from "~/lib/translate-key";

/**
 * What an error page says, as translation keys. A loader that throws a 404 may name its own
 * (the product page says "Product not found"); otherwise the page says the generic text.
 */
export interface ErrorPageText {
  title: string;
  text: string;
  /** The "home" link's text. */
  home?: string;
}

/** A 404 for the nearest error boundary, optionally with the page's own words. */
export function notFound(text?: ErrorPageText) {
  return data(text ?? null, { status: 404 });
}

/**
 * The `headers` of every route with an error boundary: a thrown answer's `Retry-After` (a 503
 * while the database restarts) reaches the error page's response; React Router keeps a thrown
 * answer's status but drops its other headers unless the boundary's route passes them on.
 */
export const errorPageHeaders: HeadersFunction = ({ errorHeaders }) => {
  const headers = new Headers();
  const retryAfter = errorHeaders?.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

function isErrorPageText(value: unknown): value is ErrorPageText {
  if (!value || typeof value !== "object") return false;
  const { title, text } = value as Record<string, unknown>;
  return typeof title === "string" && typeof text === "string";
}

/** The generic words of an error page by its status. */
function genericText(status: number): Required<ErrorPageText> {
  if (status === 404) return { title: "notFound.title", text: "notFound.text", home: "notFound.returnHome" };
  const home = "error.returnHome";
  // A dependency down or too slow (the database restarting, the bucket unreachable): try again soon.
  if (status === 502 || status === 503 || status === 504) {
    return { title: "error.unavailableTitle", text: "error.unavailableText", home };
  }
  // The disk is full: nothing the shopper sent was kept.
  if (status === 507) return { title: "error.storageFullTitle", text: "error.storageFullText", home };
  if (status >= 500) return { title: "error.title", text: "error.serverText", home };
  return { title: "error.title", text: status === 403 ? "error.forbidden" : "error.text", home };
}

/**
 * The status and the words of an error page; no stack trace or server message leaks (a thrown
 * Error reaches the page as React Router's sanitised "Unexpected Server Error" in production,
 * and its message is never shown in any mode).
 */
export function describeRouteError(error: unknown): { status: number; text: Required<ErrorPageText> } {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const own = isRouteErrorResponse(error) && isErrorPageText(error.data) ? error.data : null;
  const generic = genericText(status);
  return { status, text: { ...generic, ...own, home: own?.home ?? generic.home } };
}

/**
 * The body of an error page: the status, what happened and a way back, with the document's
 * title (and `noindex`: an error page is not a page to find).
 */
export function ErrorMessage({
  error,
  homeTo = "/",
  homeLabel,
}: {
  error: unknown;
  /** Where the way back leads, and its text when not the page's own "home" text. */
  homeTo?: string;
  homeLabel?: string;
}) {
  const { t } = useTranslation();
  const root = useRootData();
  const { status, text } = describeRouteError(error);
  // A server error names the request, for the shopper to quote and the operator to find in the log.
  const requestId = useRequestId();
  const reference = status >= 500 ? requestId : null;
  const shop = root?.shop.name ?? "";
  const title =
    status === 404 && text.title === "notFound.title"
      ? t("notFound.metaTitle", { shop })
      : shop
        ? `${translateKey(t, text.title)} | ${shop}`
        : translateKey(t, text.title);
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <title>{title}</title>
      <meta name="robots" content="noindex" />
      {reference ? <meta name={REQUEST_ID_META} content={reference} /> : null}
      <p className="text-6xl font-extrabold text-brand-700">{status}</p>
      <h1 className="text-2xl font-semibold">{translateKey(t, text.title)}</h1>
      <p className="text-stone-600">{translateKey(t, text.text)}</p>
      {reference ? (
        <p className="text-sm text-stone-600">
          {t("error.reference")} <code className="mt-1 block break-all font-mono text-stone-900">{reference}</code>
        </p>
      ) : null}
      <ButtonLink to={homeTo}>{homeLabel ?? translateKey(t, text.home)}</ButtonLink>
    </div>
  );
}
