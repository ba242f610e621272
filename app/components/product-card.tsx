import type { TFunction } from "i18next";
import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { CartMessage } from "~/components/cart-message";
import { FetcherField } from "~/components/ui/fetcher-field";
import { useFollowLinks } from "~/components/ui/kept-markup";
import { DEFAULT_COLOR } from "~/lib/colors";
import { cardImageSources } from "~/lib/image-sizes";
import { formatMoney } from "~/lib/money";
import type { CardView } from "~/models/products/cards.server";
import type { Flash } from "~/request/flash.server";

/*
 * The parts of a card take `t` from their parent instead of calling useTranslation: on the
 * server every call copies the i18n instance, and a listing renders dozens of cards.
 */

export function ProductImage({
  src,
  alt,
  t,
  className = "",
  eager = false,
  width = 800,
  height = 800,
}: {
  src: string | null;
  alt: string;
  t: TFunction;
  className?: string;
  /** Above the fold: loaded at once, and first (it is likely the page's largest image). */
  eager?: boolean;
  width?: number;
  height?: number;
}) {
  if (!src) {
    return (
      <div className={`flex items-center justify-center bg-stone-200 text-sm text-stone-700 ${className}`}>
        {t("home.noImage")}
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : undefined}
      decoding="async"
      className={`object-cover ${className}`}
    />
  );
}

/** The value of a card's Add to Cart button: the product and the colour, `49:Black` (the cart's `add` field). */
export function cardAddValue(id: number, color: string): string {
  return `${id}:${color}`;
}

/*
 * A card is rendered dozens of times a page: its look lives in a few shared classes (`.card…` in
 * app.css) rather than long class lists. Its links are plain `<a>`, followed by the grid's one
 * click handler (a <Link> each would resolve its path on every server render), and only the
 * first card's title link asks React Router to discover the product route (`/product/:id` is
 * one route: once known, every card's link is).
 * Its Add to Cart button belongs to the grid's one form (`form=`) and names the product and the
 * colour itself; the title's id describes both of the card's controls (decision 068).
 */
export function ProductCard({
  product,
  t,
  formId,
  eager = false,
  discover = true,
  busy = false,
  message = null,
}: {
  product: CardView;
  t: TFunction;
  /** The id of the grid's Add to Cart form. */
  formId: string;
  eager?: boolean;
  /** Whether the title link asks React Router to discover the product route (one card is enough). */
  discover?: boolean;
  /** This card's Add to Cart is on its way (JavaScript only). */
  busy?: boolean;
  /** The cart's answer to this card's Add to Cart (JavaScript only). */
  message?: Flash | null;
}) {
  const { id, name, image } = product;
  const href = `/product/${id}`;
  const titleId = `${formId}-${id}`;
  const color = product.cartColor;
  return (
    <article className="card">
      {/* Not a link of its own: the title's link covers it (`.card h3 a::after` in app.css). */}
      <div className="ci">
        {image ? (
          <img
            {...cardImageSources(image, eager)}
            alt=""
            width={800}
            height={800}
            loading={eager ? "eager" : "lazy"}
            fetchPriority={eager ? "high" : undefined}
          />
        ) : (
          <div>{t("home.noImage")}</div>
        )}
        {product.was_cents !== null ? (
          <span data-sale-badge>{t("home.saleBadge")}</span>
        ) : product.featured ? (
          <span>{t("home.featuredBadge")}</span>
        ) : null}
      </div>
      {product.category ? <p className="cc">{product.category}</p> : null}
      <h3 id={titleId}>
        <a href={href} data-discover={discover ? "true" : undefined}>
          {name}
        </a>
      </h3>
      <p className="cd">{product.description}</p>
      {product.colors.length > 0 ? (
        <ul className="chips" aria-label={t("product.color")}>
          {product.colors.map((c, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: two colours may share a translated name
            <li key={index} className={c.out ? "out" : undefined}>
              {c.name}
            </li>
          ))}
          {product.more > 0 ? <li className="more">{t("catalog.moreColors", { count: product.more })}</li> : null}
        </ul>
      ) : null}
      <div className="cf">
        <p data-price="">
          {formatMoney(product.price_cents, product.currency)}
          {product.was_cents !== null ? (
            <>
              {" "}
              <s data-was-price>
                <span className="sr-only">{t("product.wasPrice", { amount: "" })}</span>
                {formatMoney(product.was_cents, product.currency)}
              </s>
            </>
          ) : null}
        </p>
        {color === null ? <p>{t("home.outOfStock")}</p> : null}
        <a href={href} aria-describedby={titleId}>
          {t("home.details")}
        </a>
        <button
          type="submit"
          form={formId}
          name="add"
          value={cardAddValue(id, color ?? DEFAULT_COLOR)}
          disabled={color === null || busy}
          aria-describedby={titleId}
        >
          {color === null ? t("product.outOfStock") : t("home.addToCart")}
        </button>
        {message ? <CartMessage flash={message} /> : null}
      </div>
    </article>
  );
}

const GRID_COLUMNS = { 3: "lg:grid-cols-3", 4: "lg:grid-cols-4" } as const;

/**
 * Product cards in a grid: one column on phones, two from `sm`, then `columns`; the first `eager`
 * cards load at once. One Add to Cart form for all of them: a plain POST that comes back to this
 * page without JavaScript, a fetcher with it (the answer shows in the card whose button was pressed).
 *
 * `inDocument`: the cards came with the document (a listing, decision 068) and are not in the
 * loader data the page hydrates from (`products` is null in the browser then). The server renders
 * them; the browser keeps that markup as it is (React does not hydrate the inside of an element
 * with `dangerouslySetInnerHTML`), follows its links by one click handler on the grid, and its
 * buttons submit the grid's form by their `form=`. The next loader data (a navigation, the
 * revalidation after Add to Cart) has the cards, and React renders them from then on.
 */
export function ProductGrid({
  products,
  t,
  columns = 3,
  eager = 0,
  className = "",
  id = "add",
  inDocument = false,
}: {
  products: CardView[] | null;
  t: TFunction;
  columns?: keyof typeof GRID_COLUMNS;
  eager?: number;
  className?: string;
  /** The id of the grid's Add to Cart form (unique on the page). */
  id?: string;
  inDocument?: boolean;
}) {
  const location = useLocation();
  const followLinks = useFollowLinks();
  const fetcher = useFetcher<{ flash?: Flash | null }>();
  const [pressed, setPressed] = useState<string | null>(null);
  const pressedButton = useRef<HTMLButtonElement | null>(null);
  const sending = fetcher.formData?.get("add");
  const idle = fetcher.state === "idle";
  useEffect(() => {
    // A button of the document's markup, disabled by hand while its Add to Cart was on its way.
    if (idle && pressedButton.current) pressedButton.current.disabled = false;
  }, [idle]);
  const gridClass = `grid gap-6 sm:grid-cols-2 ${GRID_COLUMNS[columns]} ${className}`;
  const cards = (products ?? []).map((product, index) => {
    const value = cardAddValue(product.id, product.cartColor ?? DEFAULT_COLOR);
    return (
      <ProductCard
        key={product.id}
        product={product}
        t={t}
        formId={id}
        eager={index < eager}
        discover={index === 0}
        busy={!idle && sending === value}
        message={idle && pressed === value ? fetcher.data?.flash : null}
      />
    );
  });
  return (
    <>
      <fetcher.Form
        id={id}
        method="post"
        action="/cart"
        hidden
        onSubmit={(event) => {
          const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          setPressed(submitter?.value ?? null);
          if (inDocument && submitter) {
            // Disabled after this event (the browser reads the button's value first).
            queueMicrotask(() => {
              submitter.disabled = true;
            });
            pressedButton.current = submitter;
          }
        }}
      >
        {/* With JavaScript the cart answers with data (no reload); without, with a redirect back here. */}
        <FetcherField />
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      </fetcher.Form>
      {!inDocument ? (
        // biome-ignore lint/a11y/useKeyWithClickEvents: only forwards the clicks of the links inside (keyboard follows them natively)
        // biome-ignore lint/a11y/noStaticElementInteractions: as above
        <div key="live" className={gridClass} onClick={followLinks}>
          {cards}
        </div>
      ) : products ? (
        // The server's render of the document's cards.
        <div key="document" className={gridClass} suppressHydrationWarning>
          {cards}
        </div>
      ) : (
        // In the browser: the same element, its inside left as the server sent it.
        // biome-ignore lint/a11y/useKeyWithClickEvents: only forwards the clicks of the links inside (keyboard follows them natively)
        // biome-ignore lint/a11y/noStaticElementInteractions: as above
        <div
          key="document"
          className={gridClass}
          onClick={followLinks}
          suppressHydrationWarning
          // biome-ignore lint/security/noDangerouslySetInnerHtml: empty: keeps the server's markup
          dangerouslySetInnerHTML={{ __html: "" }}
        />
      )}
    </>
  );
}
