import type { SubmissionResult } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { FieldFor, FormErrors, inputClass, inputProps, StatusButton } from "~/components/ui/field";
import { useServerForm } from "~/components/ui/use-server-form";
import { useTranslation } from "~/lib/i18n";
import type { retentionSchema } from "~/schemas/outbox";

/**
 * How long sent messages are kept (Admin → Messages): said to everyone, changed by the owner
 * (a plain form post; the server refuses staff too).
 */
export function RetentionSection({
  days,
  owner,
  constraint,
  lastResult,
}: {
  days: number;
  owner: boolean;
  constraint: ReturnType<typeof getZodConstraint>;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useServerForm<typeof retentionSchema>(lastResult, constraint, {
    id: "retention",
    defaultValue: { days: String(days) },
  });
  return (
    <AdminSection
      id="retention"
      heading={t("adminMessages.retention.heading")}
      intro={t("adminMessages.retention.text", { count: days })}
      className="mt-10"
    >
      {owner ? (
        <Form method="post" {...form.props} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
          <FormErrors errors={form.errors} />
          <input type="hidden" name="intent" value="retention" />
          <div className="sm:w-72">
            <FieldFor
              field={fields.days}
              label={t("adminMessages.retention.label")}
              hint={t("adminMessages.retention.hint")}
            >
              <input {...inputProps(fields.days, "number")} inputMode="numeric" className={inputClass} />
            </FieldFor>
          </div>
          <StatusButton className="sm:mb-6">{t("adminMessages.retention.save")}</StatusButton>
        </Form>
      ) : (
        <p className="mt-2 text-sm text-stone-600">{t("adminMessages.retention.ownerOnly")}</p>
      )}
    </AdminSection>
  );
}
