import { AdminSection } from "~/components/admin/admin-section";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";

/** Settings → Search synonyms: how many groups apply, whose list it is, and the way to edit it. */
export function SearchSynonymsSection({ groups, editedText }: { groups: number; editedText: string | null }) {
  const { t } = useTranslation();
  return (
    <AdminSection
      id="search"
      look="part"
      heading={t("adminSearch.summary.heading")}
      intro={t("adminSearch.summary.intro")}
    >
      <div className="mt-4 rounded-lg bg-white p-6 shadow-sm">
        <p className="text-sm" data-testid="synonyms-summary">
          {t("adminSearch.count", { count: groups })} ·{" "}
          {editedText ? t("adminSearch.stateEdited", { date: editedText }) : t("adminSearch.stateDefault")}
        </p>
        <ButtonLink to="/admin/settings/search" className="mt-4">
          {t("adminSearch.summary.edit")}
        </ButtonLink>
      </div>
    </AdminSection>
  );
}
