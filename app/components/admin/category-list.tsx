import { DeleteButton, DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";
import { localized } from "~/lib/localize";
import { useRootData } from "~/lib/root-data";
import type { Language } from "~/locales";
import type { AdminCategory } from "~/models/categories.server";
import { CATEGORIES_PATH as PATH } from "./category-form";

/** The category's name and description in the reader's language first, the other name beside it. */
function inReaderLanguage(category: AdminCategory, language: Language) {
  const other: Language = language === "en" ? "zh" : "en";
  return {
    name: localized(category, "name", language),
    other: localized(category, "name", other),
    otherLang: other === "zh" ? "zh-HK" : "en",
    description: category[`description_${language}`],
  };
}

export function CategoryRow({ category }: { category: AdminCategory }) {
  const { t } = useTranslation();
  const shown = inReaderLanguage(category, useRootData()?.language ?? "en");
  return (
    <li
      className="flex flex-col gap-4 rounded-lg bg-white p-4 shadow-sm sm:flex-row sm:items-start"
      data-testid="category-row"
    >
      {category.image_url ? (
        <img
          src={category.image_url}
          alt={shown.name}
          width={80}
          height={80}
          className="h-20 w-20 shrink-0 rounded-md object-cover"
        />
      ) : (
        <div className="flex h-20 w-20 shrink-0 items-center justify-center rounded-md bg-stone-100 text-xs text-stone-600">
          {t("adminCategories.noImage")}
        </div>
      )}
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold">{shown.name}</h3>
          <span lang={shown.otherLang} className="text-stone-700">
            {shown.other}
          </span>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-medium ${category.is_active ? "bg-green-100 text-green-800" : "bg-stone-200 text-stone-700"}`}
          >
            {category.is_active ? t("adminCategories.statusActive") : t("adminCategories.statusInactive")}
          </span>
        </div>
        <p className="mt-1 text-xs text-stone-500">
          {t("adminCategories.sortLabel", { order: category.sort_order })} ·{" "}
          {t("adminCategories.products", { count: category.product_count })} · /category/{category.slug}
        </p>
        {shown.description ? <p className="mt-2 text-sm text-stone-700">{shown.description}</p> : null}
        <p className="mt-1 truncate text-xs text-stone-500">
          {category.image_url ?? t("adminCategories.noImageUploaded")}
        </p>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        <ButtonLink
          to={`${PATH}?edit=${category.id}`}
          aria-label={t("adminCategories.editNamed", { name: shown.name })}
          variant="secondary"
          size="sm"
          className="font-normal"
        >
          {t("adminCategories.editLink")}
        </ButtonLink>
        <DeleteForm category={category} />
      </div>
    </li>
  );
}

function DeleteForm({ category }: { category: AdminCategory }) {
  const { t } = useTranslation();
  const language = useRootData()?.language ?? "en";
  return (
    <DeleteButton
      action={PATH}
      fields={{ intent: "delete", id: category.id }}
      question={t("adminCategories.confirmDelete")}
      label={t("adminCategories.delete")}
      ariaLabel={t("adminCategories.deleteNamed", { name: inReaderLanguage(category, language).name })}
    />
  );
}

export function CategoryDeleteConfirmation({ category }: { category: AdminCategory }) {
  const { t } = useTranslation();
  return (
    <DeleteConfirmation
      heading={t("adminCategories.confirmDelete")}
      action={PATH}
      fields={{ intent: "delete", id: category.id }}
      confirmLabel={t("adminCategories.confirmDeleteButton")}
      cancelLabel={t("adminCategories.cancel")}
      cancelTo={PATH}
    >
      {category.name_en} · <span lang="zh-HK">{category.name_zh}</span>
    </DeleteConfirmation>
  );
}
