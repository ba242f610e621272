import { Link, type ShouldRevalidateFunctionArgs, useLocation, useNavigate, useNavigation } from "react-router";
import { notFound } from "~/components/layout/route-error-boundary";
import { ProductGrid } from "~/components/product-card";
import { ProductBrandLink } from "~/components/store/brand-filter";
import { JsonLd } from "~/components/store/json-ld";
import { ProductBuyForm } from "~/components/store/product-page-buy-form";
import { ColourLinks, colourHref, Gallery, optionHref } from "~/components/store/product-page-gallery";
import { publicPageMeta } from "~/components/store/public-page-meta";
import { SoldOutAlertLinks, StockAlertForm } from "~/components/store/stock-alert-form";
import { Breadcrumb } from "~/components/ui/breadcrumb";
import { services } from "~/context";
import { DEFAULT_COLOR } from "~/lib/colors";
import { chosenColour, imageIndex, imagesForColour } from "~/lib/colour-images";
import { formatDate } from "~/lib/dates";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { localized } from "~/lib/localize";
import { formatMoney } from "~/lib/money";
import { productJsonLd } from "~/lib/structured-data.server";
import { chosenOptionValue, coloursOf, findVariant } from "~/lib/variants";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { brandName } from "~/models/brands.server";
import { shipsToText } from "~/models/orders/restrictions.server";
import { cardViews } from "~/models/products/cards.server";
import { findProduct, listRelatedProducts } from "~/models/products/catalog.server";
import { titleWithShop } from "~/models/settings/shop.server";
import type { Route } from "./+types/product";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { db, config } = services(context);
  const language = getLanguage(context);
  const id = parseId(params.id);
  const product = id === null ? null : await findProduct(db, id, getCurrency(context));
  if (!product)
    throw notFound({ title: "product.notFoundTitle", text: "product.notFoundText", home: "product.backHome" });
  const related = await listRelatedProducts(db, product, getCurrency(context), 4);
  const url = new URL(request.url);
  const images = product.images.map((src, index) => ({ src, color: product.imageColors[index] ?? null }));
  // ?colour= (any other value: the default colour) puts that colour's images first (docs/decisions/035).
  const colour = chosenColour(coloursOf(product.variants), url.searchParams.get("colour"))?.color ?? DEFAULT_COLOR;
  const gallery = imagesForColour(images, colour).map((image) => image.src);
  const image = imageIndex(url.searchParams.get("image"), gallery.length);
  const name = localized(product, "name", language);
  const jsonLd = productJsonLd(product, config.publicUrl, language);
  return {
    // What the page shows, in the reader's language (the other one comes with the page that switches).
    product: {
      id: product.id,
      name,
      description: localized(product, "description", language),
      price_cents: product.price_cents,
      regular_price_cents: product.regular_price_cents,
      sale_ends_at: product.sale_ends_at,
      currency: product.currency,
      is_featured: product.is_featured,
      adult_only: product.adult_only,
      // "Ships to Hong Kong only": the zones it may go to, in the page's language (docs/decisions/049).
      shipsTo: await shipsToText(db, product.id, language),
      category: product.category
        ? {
            slug: product.category.slug,
            name: localized(product.category, "name", language),
            is_active: product.category.is_active,
          }
        : null,
      images,
      // What the choice and the back-in-stock form need; the SKU stays on the server (docs/decisions/054).
      variants: product.variants.map(({ sku: _sku, ...variant }) => variant),
      option: product.option
        ? localized(product.option, "name", language) || getInstance(context).t("product.option")
        : null,
      brand: product.brand ? { slug: product.brand.slug, name: brandName(product.brand, language) } : null,
    },
    related: cardViews(related, language),
    // The page works both out of the address as well (it switches without the server); these are
    // what the server rendered.
    colour,
    gallery,
    image,
    language,
    jsonLd,
    title: await titleWithShop(context, name),
    description: localized(product, "description", language).slice(0, 160),
  };
}

/**
 * Choosing a colour or an image changes only the query (`?colour=`, `?image=`): the page works
 * them out from the data it has, so with JavaScript the gallery switches without asking the
 * server again (after a form is sent, or for any other change, the data is read again).
 */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const rest = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("colour");
    params.delete("option");
    params.delete("image");
    return params.toString();
  };
  return rest(currentUrl) === rest(nextUrl) ? false : defaultShouldRevalidate;
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, related, language, jsonLd } = loaderData;
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { name } = product;
  // The address is the one source of the chosen colour and image (the loader works them out the
  // same way); while a switch on this page is under way (the layout's data is read again), the
  // address it goes to, so the gallery and the form follow the click at once.
  const shown = navigation.location?.pathname === location.pathname ? navigation.location : location;
  const search = new URLSearchParams(shown.search);
  const colours = coloursOf(product.variants);
  const chosen = chosenColour(colours, search.get("colour"));
  const color = chosen?.color ?? DEFAULT_COLOR;
  const optionValue = chosenOptionValue(product.variants, color, search.get("option"));
  const gallery = imagesForColour(product.images, color).map((image) => image.src);
  const image = imageIndex(search.get("image"), gallery.length);
  // The variant chosen: its stock, and the back-in-stock form when it is sold out.
  const variant = findVariant(product.variants, color, optionValue);
  const stock = variant?.stock ?? 0;
  const tagged = product.images.some(
    (picture) => picture.color !== null && colours.some((v) => v.color === picture.color),
  );
  const categoryName = product.category?.name ?? null;

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <JsonLd data={jsonLd} />
      <Breadcrumb
        items={[
          ...(product.category && categoryName && product.category.is_active
            ? [{ label: categoryName, to: `/category/${product.category.slug}` }]
            : []),
          { label: name },
        ]}
      />
      <div className="mt-6 grid gap-10 lg:grid-cols-2">
        <div className="flex flex-col gap-4">
          <Gallery images={gallery} name={name} current={image} />
          {tagged ? <ColourLinks variants={colours} chosen={color} language={language} /> : null}
        </div>
        <div className="flex flex-col gap-5">
          <div>
            {product.is_featured ? (
              <span className="mb-2 inline-block rounded bg-brand-600 px-2 py-0.5 text-xs font-semibold text-white">
                {t("product.featured")}
              </span>
            ) : null}
            {product.adult_only ? (
              <span
                className="mb-2 ml-2 inline-block rounded bg-stone-800 px-2 py-0.5 text-xs font-semibold text-white first:ml-0"
                title={t("product.adultOnlyHint")}
                data-adult-only
              >
                {t("product.adultOnly")}
              </span>
            ) : null}
            <ProductBrandLink brand={product.brand} />
            <h1 className="text-3xl font-bold">{name}</h1>
            <p className="mt-2 text-2xl font-bold text-brand-700" data-price>
              {formatMoney(product.price_cents, product.currency)}
            </p>
            {product.regular_price_cents > product.price_cents ? (
              <p className="mt-1 flex flex-wrap items-baseline gap-x-3 text-sm" data-sale>
                <s className="text-stone-500" data-was-price>
                  {t("product.wasPrice", { amount: formatMoney(product.regular_price_cents, product.currency) })}
                </s>
                <span className="font-semibold text-red-700" data-saving>
                  {t("product.save", {
                    amount: formatMoney(product.regular_price_cents - product.price_cents, product.currency),
                  })}
                </span>
                {product.sale_ends_at ? (
                  <span className="text-stone-600">
                    {t("product.saleEnds", { date: formatDate(product.sale_ends_at, language, "dateTime") })}
                  </span>
                ) : null}
              </p>
            ) : null}
          </div>
          {product.shipsTo !== null ? (
            <p className="text-sm font-medium text-amber-800" data-ships-to>
              {product.shipsTo === "" ? t("product.shipsNowhere") : t("product.shipsTo", { zones: product.shipsTo })}
            </p>
          ) : null}
          <p className="leading-relaxed text-stone-700">{product.description}</p>

          <ProductBuyForm
            productId={product.id}
            variants={product.variants}
            option={product.option}
            language={language}
            color={color}
            optionValue={optionValue}
            onColorChange={(next) => navigate(colourHref(location, next), { replace: true, preventScrollReset: true })}
            onOptionChange={(next) => navigate(optionHref(location, next), { replace: true, preventScrollReset: true })}
          />
          {variant && variant.stock === 0 ? (
            <StockAlertForm key={variant.id} variantId={variant.id} />
          ) : (
            <SoldOutAlertLinks variants={product.variants} />
          )}

          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-stone-500">{t("product.stock")}</dt>
            <dd data-testid="stock">{stock > 0 ? t("product.inStock", { count: stock }) : t("product.soldOut")}</dd>
            {categoryName ? (
              <>
                <dt className="text-stone-500">{t("product.category")}</dt>
                <dd>
                  {product.category?.is_active ? (
                    <Link to={`/category/${product.category.slug}`} className="text-brand-700 hover:underline">
                      {categoryName}
                    </Link>
                  ) : (
                    categoryName
                  )}
                </dd>
              </>
            ) : null}
          </dl>
        </div>
      </div>

      {related.length > 0 ? (
        <section className="mt-16" aria-labelledby="related-heading">
          <h2 id="related-heading" className="mb-6 text-2xl font-bold">
            {t("product.related")}
          </h2>
          <ProductGrid products={related} t={t} columns={4} />
        </section>
      ) : null}
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData: page }) =>
  page ? publicPageMeta(page.title, page.description, { "og:title": page.title, "og:type": "product" }) : [];
