import { useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher } from "react-router";
import { useTranslation } from "~/lib/i18n";
import { localized } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import type { Language } from "~/locales";
import type { loader as searchLoader } from "~/routes/resources/search";

const DEBOUNCE_MS = 300;
const MIN_CHARS = 2;

function ResultImage({ src }: { src: string | null }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return <span className="h-12 w-12 shrink-0 rounded bg-stone-200" aria-hidden="true" />;
  return (
    <img
      src={src}
      alt=""
      width={48}
      height={48}
      className="h-12 w-12 shrink-0 rounded object-cover"
      onError={() => setFailed(true)}
    />
  );
}

/**
 * The header search. Without JavaScript it is a GET form to /search?q=. With JavaScript it
 * also searches as the shopper types (300 ms after the last key, from 2 characters, 10 results).
 */
export function SearchBox({ id, language }: { id: string; language: Language }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<typeof searchLoader>();
  const [term, setTerm] = useState("");
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const trimmed = term.trim();
  const { load } = fetcher;

  useEffect(() => {
    clearTimeout(timer.current);
    if ([...trimmed].length < MIN_CHARS) return;
    timer.current = setTimeout(() => load(`/resources/search?q=${encodeURIComponent(trimmed)}`), DEBOUNCE_MS);
    return () => clearTimeout(timer.current);
  }, [trimmed, load]);

  const results = fetcher.data?.q === trimmed ? fetcher.data.results : null;
  const searching = [...trimmed].length >= MIN_CHARS && (fetcher.state !== "idle" || results === null);

  return (
    <div className="relative w-full">
      <Form method="get" action="/search" role="search" className="hd-q" onSubmit={() => setOpen(false)}>
        <label htmlFor={id} className="sr-only">
          {t("nav.searchLabel")}
        </label>
        <input
          id={id}
          type="search"
          name="q"
          maxLength={100}
          autoComplete="off"
          placeholder={t("nav.searchPlaceholder")}
          value={term}
          onChange={(event) => {
            setTerm(event.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onKeyDown={(event) => {
            if (event.key === "Escape") setOpen(false);
          }}
        />
        <button type="submit">{t("nav.search")}</button>
      </Form>
      {open ? (
        <div
          className="absolute right-0 z-50 mt-2 w-[min(26rem,calc(100vw-1.5rem))] rounded-md bg-white p-2 text-stone-900 shadow-xl ring-1 ring-black/10"
          data-testid="search-panel"
        >
          <div className="flex items-center justify-between px-2 pb-1">
            <p className="text-xs text-stone-500" aria-live="polite">
              {[...trimmed].length < MIN_CHARS
                ? t("search.hint")
                : searching
                  ? t("search.searching")
                  : results?.length === 0
                    ? t("search.noResults")
                    : ""}
            </p>
            <button
              type="button"
              onClick={() => setOpen(false)}
              className="text-sm text-stone-500 hover:text-stone-900"
              aria-label={t("search.close")}
            >
              ×
            </button>
          </div>
          {results && results.length > 0 ? (
            <ul className="max-h-96 overflow-y-auto">
              {results.map((hit) => (
                <li key={hit.id}>
                  <Link
                    to={`/product/${hit.id}`}
                    onClick={() => setOpen(false)}
                    className="flex items-center gap-3 rounded px-2 py-2 hover:bg-stone-100"
                  >
                    <ResultImage src={hit.image_url} />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate text-sm font-medium">{localized(hit, "name", language)}</span>
                      <span className="block truncate text-xs text-stone-500">
                        {localized(hit, "category", language)}
                      </span>
                    </span>
                    <span className="text-sm font-semibold text-brand-700">
                      {formatMoney(hit.price_cents, hit.currency)}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
