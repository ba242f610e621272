import { getZodConstraint } from "@conform-to/zod/v4";
import { redirect } from "react-router";
import { AdminPageHeader } from "~/components/admin/page-header";
import { StaffActivity, StaffAddForm, StaffList, StaffRemoveConfirmation } from "~/components/admin/staff";
import { ProblemAlert } from "~/components/ui/field";
import { services } from "~/context";
import { formatDate } from "~/lib/dates";
import { formAction, succeed } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { parseId } from "~/lib/ids";
import { privatePageMeta } from "~/lib/meta";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { INVITE_TOKEN_TTL_DAYS } from "~/models/account-token.server";
import { addStaff, listStaff, recentActivity, removeStaff, setStaffRole } from "~/models/staff.server";
import { resendStaffInvitation } from "~/models/staff-invitations.server";
import { ownerOnly, requireOwner } from "~/request/auth.server";
import { addStaffSchema, staffActionSchema } from "~/schemas/staff";
import type { Route } from "./+types/staff";

const PATH = "/admin/staff";

/** GET /admin/staff (&remove=id: the confirmation step without JavaScript). The owner only. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const owner = requireOwner(context, request);
  const { db, config } = services(context);
  const language = getLanguage(context);
  const [admins, activity] = await Promise.all([listStaff(db, config.shopOwnerEmail), recentActivity(db, 50)]);
  const removeId = parseId(new URL(request.url).searchParams.get("remove"));
  const removing = admins.find((row) => row.id !== null && row.id === removeId && !row.fromConfig) ?? null;
  const t = getInstance(context).t;
  return {
    admins: admins.map((row) => ({
      ...row,
      addedOn: row.addedAt ? formatDate(row.addedAt, language) : null,
      self: row.email === owner.email.toLowerCase(),
    })),
    activity: activity.map((entry) => ({ ...entry, when: formatDate(entry.at, language, "dateTime") })),
    removing: removing ? { id: removing.id as number, email: removing.email } : null,
    constraint: getZodConstraint(addStaffSchema),
    language,
    inviteDays: INVITE_TOKEN_TTL_DAYS,
    title: `${t("adminStaff.title")} | ${t("admin.title")}`,
  };
}

/**
 * intent=add (email, language), intent=resend (id), intent=remove (id, confirmed), intent=role
 * (id, role). The owner only. Adding queues the invitation with the new member of staff
 * (docs/decisions/042, 044).
 */
export const action = formAction({ schema: staffActionSchema, authorize: ownerOnly }, async (args) => {
  const { context, form, value, auth } = args;
  const { db, config } = services(context);
  const days = INVITE_TOKEN_TTL_DAYS;
  if (value.intent === "add") {
    const { user, created } = await addStaff(db, config, auth, value.email, value.language);
    return succeed(context, form, {
      redirectTo: PATH,
      flash: {
        type: "success",
        key: created ? "adminStaff.addedCreated" : "adminStaff.added",
        params: { email: user.email, days },
      },
    });
  }
  if (value.intent === "resend") {
    const { email } = await resendStaffInvitation(db, config, auth, value.id);
    return succeed(context, form, {
      redirectTo: PATH,
      flash: { type: "success", key: "adminStaff.resent", params: { email, days } },
    });
  }
  if (value.intent === "remove") {
    // Without JavaScript there is no confirm(): the confirmation is a second step on the page.
    if (value.confirmed !== "1") return redirect(`${PATH}?remove=${value.id}#remove-heading`);
    const { email } = await removeStaff(db, auth, config.shopOwnerEmail, value.id);
    return succeed(context, form, {
      redirectTo: PATH,
      flash: { type: "success", key: "adminStaff.removed", params: { email } },
    });
  }
  const { email } = await setStaffRole(db, auth, config.shopOwnerEmail, value.id, value.role);
  const role = getInstance(context).t(`adminStaff.roles.${value.role}`);
  return succeed(context, form, {
    redirectTo: PATH,
    flash: { type: "success", key: "adminStaff.roleChanged", params: { email, role } },
  });
});

export default function AdminStaff({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const addResult = actionData?.result?.initialValue?.intent === "add" ? actionData.result : undefined;
  return (
    <div className="max-w-5xl">
      <AdminPageHeader title={t("adminStaff.title")} intro={t("adminStaff.intro")} />
      {actionData?.problem && !addResult ? (
        <div className="mt-4">
          <ProblemAlert problem={actionData.problem} />
        </div>
      ) : null}
      {loaderData.removing ? <StaffRemoveConfirmation {...loaderData.removing} cancelTo={PATH} /> : null}
      <StaffList admins={loaderData.admins} />
      <StaffAddForm
        lastResult={addResult}
        constraint={loaderData.constraint}
        language={loaderData.language}
        inviteDays={loaderData.inviteDays}
      />
      <StaffActivity activity={loaderData.activity} />
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Staff");
