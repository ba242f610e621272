import type { SubmissionResult } from "@conform-to/react";
import type { getZodConstraint } from "@conform-to/zod/v4";
import { Form } from "react-router";
import type { AdminRole } from "#db/schema";
import { AdminSection } from "~/components/admin/admin-section";
import { AdminTable } from "~/components/admin/admin-table";
import { DeleteConfirmation } from "~/components/admin/delete-confirmation";
import { FieldFor, FormErrors, inputClass, inputProps, StatusButton, selectProps } from "~/components/ui/field";
import { useServerForm } from "~/components/ui/use-server-form";
import { useTranslation } from "~/lib/i18n";
import type { Language } from "~/locales/languages";
import type { addStaffSchema } from "~/schemas/staff";

export interface StaffRow {
  id: number | null;
  email: string;
  role: AdminRole;
  addedOn: string | null;
  fromConfig: boolean;
  hasAccount: boolean;
  invitation: "pending" | "expired" | null;
  self: boolean;
}

const smallButton =
  "rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-stone-50 focus-visible:outline-2";

/** The owners and staff, with Remove and the role change for the others. */
export function StaffList({ admins }: { admins: StaffRow[] }) {
  const { t } = useTranslation();
  const columns = [
    t("adminStaff.columns.email"),
    t("adminStaff.columns.role"),
    t("adminStaff.columns.added"),
    t("adminStaff.columns.actions"),
  ];
  return (
    <AdminSection id="admins" heading={t("adminStaff.listHeading")} look="bare" className="mt-6">
      <AdminTable columns={columns} minWidth="min-w-[40rem]" layout="cards" tableTestId="staff-table">
        {admins.map((row) => (
          <tr key={row.id ?? `config-${row.email}`} data-testid="staff-row" data-email={row.email}>
            <td data-label={columns[0]} className="px-3 py-2 break-all">
              {row.email}
              {row.self ? <span className="ml-1 text-stone-600">({t("adminStaff.you")})</span> : null}
              {row.hasAccount ? null : (
                <span className="ml-1 text-xs text-stone-600">({t("adminStaff.noAccountYet")})</span>
              )}
              {row.invitation ? (
                <span className="ml-1 text-xs text-stone-600" data-testid="staff-invitation">
                  ({t(row.invitation === "pending" ? "adminStaff.invitationPending" : "adminStaff.invitationExpired")})
                </span>
              ) : null}
            </td>
            <td data-label={columns[1]} className="px-3 py-2">
              {row.fromConfig ? t("adminStaff.configOwner") : t(`adminStaff.roles.${row.role}`)}
            </td>
            <td data-label={columns[2]} className="px-3 py-2 whitespace-nowrap">
              {row.addedOn ?? "—"}
            </td>
            <td data-label={columns[3]} className="px-3 py-2">
              {row.id === null || row.fromConfig || row.self ? (
                <span aria-hidden="true">{t("adminStaff.notRemovable")}</span>
              ) : (
                <div className="flex flex-wrap gap-2">
                  {row.invitation ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="resend" />
                      <input type="hidden" name="id" value={row.id} />
                      <button type="submit" className={smallButton}>
                        {t("adminStaff.resend")}
                        <span className="sr-only"> · {row.email}</span>
                      </button>
                    </Form>
                  ) : null}
                  <Form method="post">
                    <input type="hidden" name="intent" value="role" />
                    <input type="hidden" name="id" value={row.id} />
                    <input type="hidden" name="role" value={row.role === "owner" ? "staff" : "owner"} />
                    <button type="submit" className={smallButton}>
                      {t(row.role === "owner" ? "adminStaff.makeStaff" : "adminStaff.makeOwner")}
                      <span className="sr-only"> · {row.email}</span>
                    </button>
                  </Form>
                  <Form method="post">
                    <input type="hidden" name="intent" value="remove" />
                    <input type="hidden" name="id" value={row.id} />
                    <button
                      type="submit"
                      className="rounded-md border border-red-300 bg-white px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50"
                    >
                      {t("adminStaff.remove")}
                      <span className="sr-only"> · {row.email}</span>
                    </button>
                  </Form>
                </div>
              )}
            </td>
          </tr>
        ))}
      </AdminTable>
    </AdminSection>
  );
}

/** The second step of Remove (works without JavaScript). */
export function StaffRemoveConfirmation({ id, email, cancelTo }: { id: number; email: string; cancelTo: string }) {
  const { t } = useTranslation();
  return (
    <DeleteConfirmation
      id="remove"
      heading={t("adminStaff.confirmRemove", { email })}
      fields={{ intent: "remove", id }}
      confirmLabel={t("adminStaff.confirmRemoveButton")}
      cancelLabel={t("adminStaff.cancel")}
      cancelTo={cancelTo}
    >
      {t("adminStaff.confirmRemoveText")}
    </DeleteConfirmation>
  );
}

/** Add a member of staff by e-mail; their invitation is written in the language chosen (the owner's by default). */
export function StaffAddForm({
  lastResult,
  constraint,
  language,
  inviteDays,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  constraint: ReturnType<typeof getZodConstraint>;
  language: Language;
  inviteDays: number;
}) {
  const { t } = useTranslation();
  const [form, fields] = useServerForm<typeof addStaffSchema>(lastResult, constraint, {
    id: "add-staff",
    defaultValue: { language },
  });
  return (
    <AdminSection id="add-staff" heading={t("adminStaff.addHeading")} className="mt-8">
      <Form method="post" {...form.props} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <FormErrors errors={form.errors} />
        <input type="hidden" name="intent" value="add" />
        <div className="flex-1">
          <FieldFor
            field={fields.email}
            label={t("adminStaff.emailLabel")}
            hint={t("adminStaff.emailHint", { days: inviteDays })}
          >
            <input {...inputProps(fields.email, "email")} autoComplete="off" className={inputClass} />
          </FieldFor>
        </div>
        <FieldFor field={fields.language} label={t("adminStaff.languageLabel")}>
          <select {...selectProps(fields.language)} className={inputClass}>
            <option value="en">English</option>
            <option value="zh">中文</option>
          </select>
        </FieldFor>
        <StatusButton>{t("adminStaff.addSubmit")}</StatusButton>
      </Form>
    </AdminSection>
  );
}

export interface ActivityRow {
  id: number;
  when: string;
  actor: string | null;
  action: string;
  entity: string;
}

/** The latest audit log entries: who did what, when. */
export function StaffActivity({ activity }: { activity: ActivityRow[] }) {
  const { t } = useTranslation();
  const columns = [
    t("adminStaff.activityColumns.when"),
    t("adminStaff.activityColumns.who"),
    t("adminStaff.activityColumns.action"),
    t("adminStaff.activityColumns.entity"),
  ];
  return (
    <AdminSection
      id="activity"
      heading={t("adminStaff.activityHeading")}
      intro={t("adminStaff.activityIntro")}
      look="bare"
      className="mt-8"
      empty={activity.length === 0 ? t("adminStaff.activityEmpty") : undefined}
    >
      <AdminTable columns={columns} minWidth="min-w-[40rem]" layout="cards" tableTestId="activity-table">
        {activity.map((entry) => (
          <tr key={entry.id} data-testid="activity-row">
            <td data-label={columns[0]} className="px-3 py-2 whitespace-nowrap">
              {entry.when}
            </td>
            <td data-label={columns[1]} className="px-3 py-2 break-all">
              {entry.actor ?? t("adminStaff.system")}
            </td>
            <td data-label={columns[2]} className="px-3 py-2 font-mono text-xs">
              {entry.action}
            </td>
            <td data-label={columns[3]} className="px-3 py-2 break-all text-xs">
              {entry.entity}
            </td>
          </tr>
        ))}
      </AdminTable>
    </AdminSection>
  );
}
