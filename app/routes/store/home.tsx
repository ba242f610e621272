import type { ReactNode } from "react";
import { Link } from "react-router";
import { ProductGrid } from "~/components/product-card";
import { JsonLd } from "~/components/store/json-ld";
import { publicPageMeta } from "~/components/store/public-page-meta";
import { ButtonLink } from "~/components/ui/button";
import { services } from "~/context";
import { useTranslation } from "~/lib/i18n";
import { localized } from "~/lib/localize";
import { publicUrl } from "~/lib/storage.server";
import { homeJsonLd } from "~/lib/structured-data.server";
import { getCurrency } from "~/middleware/currency";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { listActiveCategories } from "~/models/categories.server";
import { cardViews, listFeaturedProducts } from "~/models/products/cards.server";
import { getShop, heroTexts, shopName } from "~/models/settings/shop.server";
import { getSetting, HERO_IMAGE_KEY } from "~/models/settings/site-settings.server";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const { db, config } = services(context);
  const currency = getCurrency(context);
  const t = getInstance(context).t;
  const [featured, featuredHkd, categories, heroKey, shop] = await Promise.all([
    listFeaturedProducts(db, currency, 3),
    currency === "HKD" ? null : listFeaturedProducts(db, "HKD", 3),
    listActiveCategories(db),
    getSetting(db, HERO_IMAGE_KEY),
    getShop(context),
  ]);
  const language = getLanguage(context);
  const title = t("home.title", { shop: shopName(shop, language) });
  return {
    title,
    description: t("meta.defaultDescription"),
    // The operator's hero image (Settings), else the default one that ships with the shop.
    heroImage: publicUrl(heroKey) ?? "/images/hero-default.webp",
    // The owner's headline and subtitle (Settings → Shop details).
    hero: heroTexts(shop, language),
    // The spec's "Shop Now" goes to the rifles; a shop without that category (the demo removed) to every product.
    shopNowTo: categories.some((c) => c.slug === "rifles") ? "/category/rifles" : "/category/all",
    featured: cardViews(featured, language),
    // Only what a category tile shows.
    categories: categories.map((c) => ({
      id: c.id,
      slug: c.slug,
      name: localized(c, "name", language),
      description: localized(c, "description", language),
      image_url: publicUrl(c.image_path),
    })),
    // Structured data in the page's language; its prices always quote HKD, the shop's own currency.
    jsonLd: homeJsonLd({
      shop,
      siteUrl: config.publicUrl,
      language,
      title,
      paymentAccepted: t("meta.paymentAccepted"),
      featured: featuredHkd ?? featured,
    }),
  };
}

/** A section of the home page: its heading and subtitle (a link beside them), then its content. */
function HomeSection({
  id,
  title,
  subtitle,
  link,
  className,
  children,
}: {
  /** The heading's id. */
  id: string;
  title: string;
  subtitle: string;
  link?: ReactNode;
  className: string;
  children: ReactNode;
}) {
  return (
    <section className={`mx-auto max-w-7xl px-4 ${className}`} aria-labelledby={id}>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id={id} className="text-2xl font-bold">
            {title}
          </h2>
          <p className="text-stone-600">{subtitle}</p>
        </div>
        {link}
      </div>
      {children}
    </section>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { heroImage, hero, shopNowTo, featured, categories, jsonLd } = loaderData;
  return (
    <>
      <JsonLd data={jsonLd} />
      <section className="relative isolate overflow-hidden bg-brand-900 text-white">
        <img
          src={heroImage}
          alt=""
          fetchPriority="high"
          className="absolute inset-0 -z-10 h-full w-full object-cover opacity-60"
        />
        <div className="mx-auto max-w-7xl px-4 py-24 sm:py-32">
          <h1 className="max-w-2xl text-4xl font-extrabold tracking-tight break-words sm:text-5xl">{hero.title}</h1>
          {hero.text ? (
            <p className="mt-4 max-w-xl text-lg whitespace-pre-line text-stone-200" data-testid="hero-text">
              {hero.text}
            </p>
          ) : null}
          <div className="mt-8 flex flex-wrap gap-3">
            <ButtonLink to={shopNowTo} size="lg">
              {t("home.shopNow")}
            </ButtonLink>
            <Link
              to="/category/new-arrivals"
              className="rounded-md border border-white/60 px-5 py-3 font-semibold hover:bg-white/10"
            >
              {t("home.newArrivals")}
            </Link>
          </div>
        </div>
      </section>

      <HomeSection
        id="featured-heading"
        title={t("home.featuredTitle")}
        subtitle={t("home.featuredSubtitle")}
        link={
          <Link to="/category/all" className="font-medium text-brand-700 hover:underline">
            {t("home.viewAll")} →
          </Link>
        }
        className="py-12"
      >
        {featured.length === 0 ? (
          <p
            className="rounded-md border border-dashed border-stone-300 p-8 text-center text-stone-600"
            data-testid="featured-empty"
          >
            {t("home.noFeatured")}
          </p>
        ) : (
          <ProductGrid products={featured} t={t} />
        )}
      </HomeSection>

      {/* A shop without categories yet (the demo removed) shows no empty section. */}
      {categories.length === 0 ? null : (
        <HomeSection
          id="categories-heading"
          title={t("home.shopByCategory")}
          subtitle={t("home.shopByCategorySubtitle")}
          className="pb-4"
        >
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {categories.map((category) => (
              <Link
                key={category.id}
                to={`/category/${category.slug}`}
                className="group relative isolate flex aspect-[3/2] flex-col justify-end overflow-hidden rounded-lg bg-brand-900 p-5 text-white"
              >
                {category.image_url ? (
                  <img
                    src={category.image_url}
                    alt=""
                    loading="lazy"
                    className="absolute inset-0 -z-10 h-full w-full object-cover opacity-70 transition group-hover:scale-105"
                  />
                ) : null}
                <span className="absolute inset-0 -z-10 bg-gradient-to-t from-black/80 to-transparent" />
                <span className="text-xl font-bold">{category.name}</span>
                <span className="line-clamp-2 text-sm text-stone-200">{category.description}</span>
              </Link>
            ))}
          </div>
        </HomeSection>
      )}
    </>
  );
}

export const meta: Route.MetaFunction = ({ loaderData: page }) =>
  page
    ? publicPageMeta(page.title, page.description, { "og:title": page.title, "og:description": page.description })
    : [];
