import crypto from "node:crypto";
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, redirect } from "react-router";
import { AdminSection } from "~/components/admin/admin-section";
import { LanguageToggle } from "~/components/layout/preference-forms";
import { FieldFor, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { FlashBanner } from "~/components/ui/flash-banner";
import { SignInFields } from "~/components/ui/sign-in-fields";
import { requestInfoContext, services } from "~/context";
import { formAction, refuse, succeed, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { privatePageMeta } from "~/lib/meta";
import { useRootData } from "~/lib/root-data";
import { getInstance } from "~/middleware/i18next";
import {
  consumeAdminSetupToken,
  findAdminSetupToken,
  restoreAdminSetupToken,
} from "~/models/settings/admin-setup.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { adminExists, grantAdmin, isAdmin, normalizeEmail } from "~/models/user.server";
import { authenticate, getUser, LoginError, recordFailedSignIn, signIn, signOut } from "~/request/auth.server";
import { signInFailuresPerAccount, signInWait } from "~/request/rate-limit.server";
import { getSession } from "~/request/session.server";
import { adminLoginSchema, adminSetupSchema } from "~/schemas/auth";
import type { Route } from "./+types/login";

export async function loader({ context }: Route.LoaderArgs) {
  if (getUser(context)?.isAdmin) throw redirect("/admin");
  const t = getInstance(context).t;
  return { title: await titleWithShop(context, t("adminLogin.title")) };
}

function sameToken(a: string, b: string): boolean {
  const x = crypto.createHash("sha256").update(a).digest();
  const y = crypto.createHash("sha256").update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

/** Never sent back to the page. */
const HIDE = ["password", "token"];

/** A refusal that offers the first-admin setup: the account is not admin (or the token was wrong). */
type SetupOffer = { notAdmin: true; setupOpen: boolean };
type AdminLoginAnswer = ReturnType<typeof refuse<SetupOffer>> | ReturnType<typeof succeed>;

/**
 * Admin sign-in, and the one-time "Add Me As Admin" setup (`intent=setup`, only while no admin
 * exists, with the token from the server log). A refusal that offers the setup (not admin, wrong
 * token) comes back with `notAdmin` and whether the setup is still open; every other refusal is
 * a `UserError`.
 */
export const action = formAction<Route.ActionArgs, typeof adminLoginSchema, void, AdminLoginAnswer>(
  { schema: adminLoginSchema, hideFields: HIDE },
  async ({ request, context, form, submission, value }) => {
    const { db, config } = services(context);
    const ip = context.get(requestInfoContext).ip ?? "unknown";
    const client = { ip: context.get(requestInfoContext).ip, userAgent: request.headers.get("User-Agent") };
    const account = normalizeEmail(value.email);
    // Read from the database, shared by every process of the shop (models/settings/admin-setup).
    const setupToken = await findAdminSetupToken(db);
    const setupOpen = setupToken !== null && !(await adminExists(db, config.shopOwnerEmail));
    const offerSetup = (key: string) =>
      refuse<SetupOffer>(submission, new UserError(key).problem, 403, { notAdmin: true, setupOpen }, HIDE);

    const tooMany = (wait: number) =>
      new UserError("flash.tooManyAttempts", {
        detailKey: "flash.tooManyAttemptsDetail",
        params: { minutes: Math.ceil(wait / 60) },
        status: 429,
      });

    const wait = await signInWait(db, account, ip);
    if (wait > 0) throw tooMany(wait);

    if (value.intent === "setup" && !setupOpen) {
      throw new UserError("flash.setupClosed", { detailKey: "flash.setupClosedDetail", status: 403 });
    }
    if (value.intent === "setup" && !sameToken(value.token, setupToken ?? "")) {
      return offerSetup("flash.setupTokenWrong");
    }

    // The attempt counts as a failure before the password is checked (one atomic hit), so
    // attempts in flight at once, in any process, never get past the limit; a right password
    // clears the count.
    const failures = await signInFailuresPerAccount.hit(db, account);
    if (failures > 0) throw tooMany(failures);
    let user: Awaited<ReturnType<typeof authenticate>>;
    try {
      user = await authenticate(context, value);
    } catch (error) {
      if (!(error instanceof LoginError)) throw error;
      await recordFailedSignIn(context, value.email, client);
      throw new UserError("flash.loginFailed", { detailKey: "flash.loginFailedDetail" });
    }
    await signInFailuresPerAccount.reset(db, account);
    const session = getSession(context);

    if (value.intent === "setup") {
      // The token is used up first (a conditional delete: one caller wins, in any process), so
      // a second setup with the same token, here or in another process, is refused.
      if (!(await consumeAdminSetupToken(db, value.token))) {
        throw new UserError("flash.setupClosed", { detailKey: "flash.setupClosedDetail", status: 403 });
      }
      try {
        await grantAdmin(db, user);
      } catch (error) {
        await restoreAdminSetupToken(db, value.token);
        throw error;
      }
      signOut(session);
      return succeed(context, form, {
        redirectTo: "/admin/login",
        flash: { type: "success", key: "flash.adminGranted", detailKey: "flash.adminGrantedDetail" },
      });
    }
    if (!(await isAdmin(db, config.shopOwnerEmail, user))) {
      signOut(session);
      return offerSetup("flash.notAdmin");
    }
    await signIn(context, user, client);
    return succeed(context, form, {
      redirectTo: "/admin",
      flash: { type: "success", key: "flash.loginSuccess", detailKey: "flash.loginSuccessDetail" },
    });
  },
);

export default function AdminLogin({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const root = useRootData();
  const [form, fields] = useForm({
    id: "admin-login",
    lastResult: actionData?.result,
    constraint: getZodConstraint(adminLoginSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: adminLoginSchema }),
  });
  const offer = actionData && "notAdmin" in actionData ? actionData : null;
  const [setupForm, setupFields] = useForm({
    id: "admin-setup",
    constraint: getZodConstraint(adminSetupSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: adminSetupSchema }),
  });
  return (
    <main id="main" className="min-h-screen bg-stone-100 px-4 py-12">
      <div className="mx-auto max-w-md">
        <div className="flex justify-end">
          <LanguageToggle language={root?.language ?? "en"} className="text-sm text-brand-700" />
        </div>
        <FlashBanner flash={root?.flash} />
        <h1 className="mt-4 text-3xl font-bold">{t("adminLogin.title")}</h1>
        <p className="mt-2 text-stone-600">{t("adminLogin.intro")}</p>
        <Form method="post" {...getFormProps(form)} className="mt-6 flex flex-col gap-4 rounded-lg bg-white p-6 shadow">
          <FormErrors errors={form.errors} params={actionData?.problem?.params} />
          <input type="hidden" name="intent" value="login" />
          <SignInFields email={fields.email} password={fields.password} />
          <StatusButton pendingText={t("adminLogin.attempting")}>{t("adminLogin.submit")}</StatusButton>
        </Form>

        {offer?.notAdmin ? (
          <AdminSection id="setup" look="warning" className="mt-6" heading={t("adminLogin.setupRequired")}>
            <p className="mt-2 text-sm text-amber-900">{t("adminLogin.setupText")}</p>
            <pre className="mt-2 overflow-x-auto rounded bg-stone-900 p-3 text-xs text-stone-100">
              <code>{t("adminLogin.setupCommand")}</code>
            </pre>
            {offer.setupOpen ? (
              <Form
                method="post"
                {...getFormProps(setupForm)}
                className="mt-6 flex flex-col gap-3 border-t border-amber-200 pt-4"
              >
                <h3 className="font-semibold">{t("adminLogin.firstAdminTitle")}</h3>
                <p className="text-sm text-stone-700">{t("adminLogin.firstAdminText")}</p>
                <input type="hidden" name="intent" value="setup" />
                <SignInFields email={setupFields.email} password={setupFields.password} />
                <FieldFor field={setupFields.token} label={t("adminLogin.setupToken")}>
                  <input
                    {...getInputProps(setupFields.token, { type: "text" })}
                    autoComplete="off"
                    className={inputClass}
                  />
                </FieldFor>
                <StatusButton pendingText={t("auth.pending")}>{t("adminLogin.firstAdminSubmit")}</StatusButton>
              </Form>
            ) : null}
          </AdminSection>
        ) : null}
        <p className="mt-6 text-center text-sm">
          <Link to="/" className="text-brand-700 hover:underline">
            {t("adminLogin.backToStore")}
          </Link>
        </p>
      </div>
    </main>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => privatePageMeta(loaderData?.title, "Admin Login");
