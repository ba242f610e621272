import { AdminSection } from "~/components/admin/admin-section";
import { Badge, FAILURE_TONE } from "~/components/admin/badges";
import { ButtonLink } from "~/components/ui/button";
import { useTranslation } from "~/lib/i18n";
import { WEBHOOKS_PATH } from "./webhook-list";

/** Settings → Webhooks: how many there are, how many deliveries failed, and the way to them. */
export function WebhooksSection({ count, active, failed }: { count: number; active: number; failed: number }) {
  const { t } = useTranslation();
  return (
    <AdminSection
      id="webhooks"
      look="part"
      heading={t("adminWebhooks.summary.heading")}
      intro={t("adminWebhooks.summary.intro")}
    >
      <div className="mt-4 rounded-lg bg-white p-6 shadow-sm">
        <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="webhooks-summary">
          <span>{t("adminWebhooks.summary.count", { count, active })}</span>
          {failed > 0 ? <Badge tone={FAILURE_TONE}>{t("adminWebhooks.failed", { count: failed })}</Badge> : null}
        </p>
        <ButtonLink to={WEBHOOKS_PATH} className="mt-4">
          {t("adminWebhooks.summary.manage")}
        </ButtonLink>
      </div>
    </AdminSection>
  );
}
