import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form } from "react-router";
import { z } from "zod";
import { ErrorList, Field, inputClass, StatusButton } from "~/components/ui/field";
import { services } from "~/context";
import { requireAdmin } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { readForm } from "~/lib/read-form";
import { getInstance } from "~/middleware/i18next";
import { findUserByEmail, grantAdmin } from "~/models/user.server";
import { emailField } from "~/schemas/auth";
import type { Route } from "./+types/dashboard";

const grantSchema = z.object({ intent: z.literal("grant"), email: emailField });

export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(context, request);
  const { db } = services(context);
  const admins = await db
    .selectFrom("admin_users")
    .leftJoin("users", "users.id", "admin_users.user_id")
    .select(["admin_users.id", "admin_users.email", "users.email as user_email", "admin_users.created_at"])
    .orderBy("admin_users.created_at")
    .execute();
  const t = getInstance(context).t;
  return {
    email: admin.email,
    admins: admins.map((row) => ({ id: row.id, email: row.user_email ?? row.email ?? "" })),
    title: `${t("admin.dashboard")} | ${t("admin.title")}`,
  };
}

/** Grant the admin right to an existing account (e.g. a member of staff). Admins only. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = requireAdmin(context, request);
  const { db } = services(context);
  const submission = parseWithZod(await readForm(request), { schema: grantSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const user = await findUserByEmail(db, submission.value.email);
  if (!user) return data(submission.reply({ fieldErrors: { email: ["adminHome.noSuchAccount"] } }), { status: 400 });
  const granted = await grantAdmin(db, user);
  await db
    .insertInto("audit_log")
    .values({
      actor_user_id: admin.id,
      action: "admin.grant",
      entity_type: "user",
      entity_id: user.id,
      details: JSON.stringify({ email: user.email, granted }),
      created_at: new Date().toISOString(),
    })
    .execute();
  setFlash(context, {
    type: "success",
    key: granted ? "adminHome.granted" : "adminHome.alreadyAdmin",
    params: { email: user.email },
  });
  return data(submission.reply({ resetForm: true }));
}

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const emailErrors = actionData?.status === "error" ? actionData.error?.email : undefined;
  return (
    <div className="max-w-4xl">
      <h1 className="text-2xl font-bold">{t("admin.welcome", { email: loaderData.email })}</h1>
      <p className="mt-1 text-stone-600">{t("admin.welcomeText")}</p>
      <section className="mt-8 rounded-lg bg-white p-6 shadow-sm">
        <h2 className="text-lg font-semibold">{t("adminHome.adminsTitle")}</h2>
        <ul className="mt-3 list-disc pl-6 text-sm">
          {loaderData.admins.map((row) => (
            <li key={row.id}>{row.email}</li>
          ))}
        </ul>
        <Form method="post" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
          <input type="hidden" name="intent" value="grant" />
          <div className="flex-1">
            <Field label={t("adminHome.grantLabel")} htmlFor="grant-email" hint={t("adminHome.grantHint")}>
              <input id="grant-email" name="email" type="email" required className={inputClass} />
            </Field>
            <ErrorList errors={emailErrors} />
          </div>
          <StatusButton>{t("adminHome.grantSubmit")}</StatusButton>
        </Form>
      </section>
    </div>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? "Admin" }, { name: "robots", content: "noindex" }];
}
