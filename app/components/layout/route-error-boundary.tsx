import { data, isRouteErrorResponse } from "react-router";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";
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

function isErrorPageText(value: unknown): value is ErrorPageText {
  if (!value || typeof value !== "object") return false;
  const { title, text } = value as Record<string, unknown>;
  return typeof title === "string" && typeof text === "string";
}

/** The status and the words of an error page; no stack trace or server message leaks. */
export function describeRouteError(error: unknown): { status: number; text: Required<ErrorPageText> } {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const own = isRouteErrorResponse(error) && isErrorPageText(error.data) ? error.data : null;
  const generic =
    status === 404
      ? { title: "notFound.title", text: "notFound.text", home: "notFound.returnHome" }
      : { title: "error.title", text: status === 403 ? "error.forbidden" : "error.text", home: "error.returnHome" };
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
      <p className="text-6xl font-extrabold text-brand-700">{status}</p>
      <h1 className="text-2xl font-semibold">{translateKey(t, text.title)}</h1>
      <p className="text-stone-600">{translateKey(t, text.text)}</p>
      <ButtonLink to={homeTo}>{homeLabel ?? translateKey(t, text.home)}</ButtonLink>
    </div>
  );
}
