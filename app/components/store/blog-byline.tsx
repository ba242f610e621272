import { useTranslation } from "~/lib/i18n";

/** "By author · Published on date" under a post's title (the blog list and the post). */
export function BlogByline({
  author,
  publishedAt,
  publishedOn,
  className = "",
}: {
  author: string;
  /** The machine-readable date (ISO), for <time>. */
  publishedAt: string | null;
  /** The date in the reader's language. */
  publishedOn: string | null;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <p className={`text-sm text-stone-500 ${className}`}>
      {t("blog.by", { author })}
      {publishedAt && publishedOn ? (
        <>
          {" · "}
          <time dateTime={publishedAt}>{t("blog.publishedOn", { date: publishedOn })}</time>
        </>
      ) : null}
    </p>
  );
}
