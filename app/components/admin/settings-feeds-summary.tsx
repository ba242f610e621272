import { AdminSection } from "~/components/admin/admin-section";
import { TextLink } from "~/components/ui/text-link";
import { useTranslation } from "~/lib/i18n";

export interface FeedAddress {
  /** "en-HKD" */
  name: string;
  url: string;
}

/** The address of each shopping feed that is on, to copy into Merchant Center (docs/decisions/056). */
export function FeedUrls({
  urls,
  headingLevel = 2,
  className = "mt-8",
}: {
  urls: FeedAddress[];
  headingLevel?: 2 | 3;
  className?: string;
}) {
  const { t } = useTranslation();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className={className} aria-labelledby="feed-urls">
      <Heading id="feed-urls" className="text-lg font-semibold">
        {t("adminFeeds.urlsHeading")}
      </Heading>
      {urls.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">{t("adminFeeds.none")}</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2">
          {urls.map(({ name, url }) => (
            <li key={name} className="rounded-lg bg-white p-3 shadow-sm">
              <a href={url} className="break-all font-mono text-sm text-brand-700 hover:underline" data-feed-url={name}>
                {url}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Settings → Shopping feeds: the addresses of the feeds that are on, and the way to choose them. */
export function ShoppingFeedsSection({ urls }: { urls: FeedAddress[] }) {
  const { t } = useTranslation();
  return (
    <AdminSection id="feeds" look="part" heading={t("adminFeeds.title")} intro={t("adminFeeds.summaryIntro")}>
      <div className="mt-4 rounded-lg bg-white p-6 shadow-sm">
        <FeedUrls urls={urls} headingLevel={3} className="" />
        <TextLink to="/admin/settings/feeds" className="mt-4 inline-block">
          {t("adminFeeds.manage")}
        </TextLink>
      </div>
    </AdminSection>
  );
}
