import { getZodConstraint } from "@conform-to/zod/v4";
import { Form, Link, redirect } from "react-router";
import { FormErrors, StatusButton } from "~/components/ui/field";
import { SignInFields } from "~/components/ui/sign-in-fields";
import { useServerForm } from "~/components/ui/use-server-form";
import { requestInfoContext, services } from "~/context";
import { formAction, UserError } from "~/lib/form-action.server";
import { useTranslation } from "~/lib/i18n";
import { safeRedirect } from "~/lib/redirect";
import { getInstance, getLanguage } from "~/middleware/i18next";
import { titleWithShop } from "~/models/settings/shop.server";
import { normalizeEmail, signUp } from "~/models/user.server";
import { authenticate, getUser, LoginError, recordFailedSignIn, signIn } from "~/request/auth.server";
import { mergeCartAtSignIn } from "~/request/cart.server";
import { setFlash } from "~/request/flash.server";
import { signInFailuresPerAccount, signInWait, signUpsPerAddress } from "~/request/rate-limit.server";
import { authSchema, loginSchema, signupSchema } from "~/schemas/auth";
import type { Route } from "./+types/login";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "/");
  // A signed-in user has nothing to do here.
  if (getUser(context)) throw redirect("/");
  const mode = url.searchParams.get("mode") === "signup" ? "signup" : "login";
  const t = getInstance(context).t;
  return {
    mode,
    redirectTo,
    // Validation runs on the server only (the action); the browser gets the schema's HTML
    // constraints, not Zod (docs/decisions/015).
    constraint: getZodConstraint(mode === "signup" ? signupSchema : loginSchema),
    title: await titleWithShop(context, t(mode === "signup" ? "auth.metaSignup" : "auth.metaLogin")),
  } as const;
}

/**
 * Sign-in and sign-up, told apart by `intent`. Every refusal is a `UserError` (the form comes
 * back with the e-mail, never the password); success signs in and redirects with a flash.
 */
export const action = formAction<Route.ActionArgs, typeof authSchema, void, Response>(
  { schema: authSchema, hideFields: ["password"] },
  async ({ request, context, value }) => {
    const { db, config } = services(context);
    const { intent, email, password } = value;
    const redirectTo = safeRedirect(value.redirectTo, "/");
    const ip = context.get(requestInfoContext).ip ?? "unknown";
    const client = { ip: context.get(requestInfoContext).ip, userAgent: request.headers.get("User-Agent") };
    const tooMany = (wait: number) =>
      new UserError("flash.tooManyAttempts", {
        detailKey: "flash.tooManyAttemptsDetail",
        params: { minutes: Math.ceil(wait / 60) },
        status: 429,
      });

    if (intent === "login") {
      const account = normalizeEmail(email);
      const wait = await signInWait(db, account, ip);
      if (wait > 0) throw tooMany(wait);
      // The attempt counts as a failure before the password is checked (one atomic hit), so
      // attempts in flight at once, in any process, never get past the limit; a right password
      // clears the count.
      const failures = await signInFailuresPerAccount.hit(db, account);
      if (failures > 0) throw tooMany(failures);
      try {
        const user = await authenticate(context, { email, password });
        await signInFailuresPerAccount.reset(db, account);
        await signIn(context, user, client);
        const capped = await mergeCartAtSignIn(context, user.id);
        setFlash(context, {
          type: "success",
          key: "flash.loginSuccess",
          detailKey: capped > 0 ? "cart.mergedCapped" : "flash.loginSuccessDetail",
        });
        return redirect(redirectTo);
      } catch (error) {
        if (!(error instanceof LoginError)) throw error;
        await recordFailedSignIn(context, email, client);
        if (error.reason === "unverified") {
          // The password was right: not a failure.
          await signInFailuresPerAccount.reset(db, account);
          throw new UserError("flash.notVerified", { detailKey: "flash.notVerifiedDetail" });
        }
        throw new UserError("flash.loginFailed", { detailKey: "flash.loginFailedDetail" });
      }
    }

    const wait = await signUpsPerAddress.hit(db, ip);
    if (wait > 0) throw tooMany(wait);
    const verify = config.emailVerification ? { config, language: getLanguage(context) } : undefined;
    const user = await signUp(db, { email, password }, verify);
    if (verify) {
      setFlash(context, { type: "info", key: "flash.checkEmail", detailKey: "flash.checkEmailDetail" });
      return redirect(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
    }
    await signIn(context, user, client);
    await mergeCartAtSignIn(context, user.id);
    setFlash(context, { type: "success", key: "flash.signupSuccess", detailKey: "flash.signupSuccessDetail" });
    return redirect(redirectTo);
  },
);

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { mode, redirectTo, constraint } = loaderData;
  const [form, fields] = useServerForm<typeof authSchema>(actionData?.result, constraint, { id: `auth-${mode}` });
  const otherMode = `/login?${new URLSearchParams({ ...(mode === "login" ? { mode: "signup" } : {}), ...(redirectTo !== "/" ? { redirectTo } : {}) })}`;

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-3xl font-bold">{t(mode === "signup" ? "auth.signupTitle" : "auth.loginTitle")}</h1>
      <p className="mt-2 text-stone-600">{t(mode === "signup" ? "auth.signupIntro" : "auth.loginIntro")}</p>

      {/* Keyed by mode: switching between login and sign-up clears e-mail and password. */}
      <Form
        method="post"
        {...form.props}
        key={mode}
        className="mt-8 flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-6 shadow-sm"
      >
        <FormErrors errors={form.errors} params={actionData?.problem?.params} />
        <input type="hidden" name="intent" value={mode} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <SignInFields
          email={fields.email}
          password={fields.password}
          passwordHint={mode === "signup" ? t("auth.passwordHint") : undefined}
          passwordAutoComplete={mode === "signup" ? "new-password" : "current-password"}
        />
        <StatusButton pendingText={t("auth.pending")}>
          {t(mode === "signup" ? "auth.submitSignup" : "auth.submitLogin")}
        </StatusButton>
        {mode === "login" ? (
          <Link to="/forgot-password" className="text-sm text-brand-700 hover:underline">
            {t("auth.forgotPassword")}
          </Link>
        ) : null}
      </Form>

      <p className="mt-6 text-center text-sm text-stone-600">
        {t(mode === "signup" ? "auth.haveAccount" : "auth.noAccount")}{" "}
        <Link to={otherMode} className="font-semibold text-brand-700 hover:underline">
          {t(mode === "signup" ? "auth.toLogin" : "auth.toSignup")}
        </Link>
      </p>
    </div>
  );
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData?.title ?? "Login" },
  { name: "robots", content: "noindex" },
];
