import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { data, Form, Link, redirect } from "react-router";
import type { z } from "zod";
import { Field, FormErrors, inputClass, StatusButton } from "~/components/ui/field";
import { requestInfoContext, services } from "~/context";
import { authenticate, getUser, LoginError, recordFailedSignIn, signIn } from "~/lib/auth.server";
import { mergeCartAtSignIn } from "~/lib/cart-session.server";
import { setFlash } from "~/lib/flash.server";
import { useTranslation } from "~/lib/i18n";
import { signInAttemptsPerAddress, signInFailuresPerAccount, signUpsPerAddress } from "~/lib/rate-limit.server";
import { readForm } from "~/lib/read-form";
import { safeRedirect } from "~/lib/redirect";
import { getInstance } from "~/middleware/i18next";
import { sendVerificationEmail } from "~/models/account-token.server";
import { titleWithShop } from "~/models/settings/shop.server";
import { createUser, findUserByEmail, normalizeEmail } from "~/models/user.server";
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

export async function action({ request, context }: Route.ActionArgs) {
  const { db, config, mailer } = services(context);
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: authSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }), minutes: 0 }, { status: 400 });
  }
  const { intent, email, password } = submission.value;
  const redirectTo = safeRedirect(submission.value.redirectTo, "/");
  const ip = context.get(requestInfoContext).ip ?? "unknown";
  const client = { ip: context.get(requestInfoContext).ip, userAgent: request.headers.get("User-Agent") };
  const refuse = (keys: string[], status = 400, minutes = 0) =>
    data({ result: submission.reply({ formErrors: keys, hideFields: ["password"] }), minutes }, { status });

  if (intent === "login") {
    const account = normalizeEmail(email);
    const wait = Math.max(signInAttemptsPerAddress.retryAfter(ip), signInFailuresPerAccount.retryAfter(account));
    if (wait > 0) return refuse(["flash.tooManyAttempts", "flash.tooManyAttemptsDetail"], 429, Math.ceil(wait / 60));
    signInAttemptsPerAddress.hit(ip);
    try {
      const user = await authenticate(context, { email, password });
      signInFailuresPerAccount.reset(account);
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
      if (error.reason === "unverified") return refuse(["flash.notVerified", "flash.notVerifiedDetail"]);
      signInFailuresPerAccount.hit(account);
      return refuse(["flash.loginFailed", "flash.loginFailedDetail"]);
    }
  }

  const wait = signUpsPerAddress.retryAfter(ip);
  if (wait > 0) return refuse(["flash.tooManyAttempts", "flash.tooManyAttemptsDetail"], 429, Math.ceil(wait / 60));
  signUpsPerAddress.hit(ip);
  if (await findUserByEmail(db, email)) return refuse(["flash.accountExists", "flash.accountExistsDetail"], 409);
  let user: Awaited<ReturnType<typeof createUser>>;
  try {
    user = await createUser(db, { email, password });
  } catch (error) {
    if (await findUserByEmail(db, email)) return refuse(["flash.accountExists", "flash.accountExistsDetail"], 409);
    console.error("sign up failed", error);
    return refuse(["flash.signupFailed", "flash.signupFailedDetail"], 500);
  }
  if (config.emailVerification) {
    await sendVerificationEmail(db, mailer, config, user, getInstance(context).language === "zh" ? "zh" : "en");
    setFlash(context, { type: "info", key: "flash.checkEmail", detailKey: "flash.checkEmailDetail" });
    return redirect(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  }
  await signIn(context, user, client);
  await mergeCartAtSignIn(context, user.id);
  setFlash(context, { type: "success", key: "flash.signupSuccess", detailKey: "flash.signupSuccessDetail" });
  return redirect(redirectTo);
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { mode, redirectTo, constraint } = loaderData;
  const [form, fields] = useForm<z.input<typeof authSchema>>({
    id: `auth-${mode}`,
    lastResult: actionData?.result,
    constraint,
    shouldValidate: "onSubmit",
  });
  const otherMode = `/login?${new URLSearchParams({ ...(mode === "login" ? { mode: "signup" } : {}), ...(redirectTo !== "/" ? { redirectTo } : {}) })}`;

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-3xl font-bold">{t(mode === "signup" ? "auth.signupTitle" : "auth.loginTitle")}</h1>
      <p className="mt-2 text-stone-600">{t(mode === "signup" ? "auth.signupIntro" : "auth.loginIntro")}</p>

      {/* Keyed by mode: switching between login and sign-up clears e-mail and password. */}
      <Form
        method="post"
        {...getFormProps(form)}
        key={mode}
        className="mt-8 flex flex-col gap-4 rounded-lg border border-stone-200 bg-white p-6 shadow-sm"
      >
        <FormErrors errors={form.errors} params={{ minutes: actionData?.minutes ?? 0 }} />
        <input type="hidden" name="intent" value={mode} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field
          label={t("auth.email")}
          htmlFor={fields.email.id}
          errors={fields.email.errors}
          errorId={fields.email.errorId}
        >
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" className={inputClass} />
        </Field>
        <Field
          label={t("auth.password")}
          htmlFor={fields.password.id}
          hint={mode === "signup" ? t("auth.passwordHint") : undefined}
          errors={fields.password.errors}
          errorId={fields.password.errorId}
        >
          <input
            {...getInputProps(fields.password, { type: "password" })}
            autoComplete={mode === "signup" ? "new-password" : "current-password"}
            className={inputClass}
          />
        </Field>
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

export function meta({ loaderData }: Route.MetaArgs) {
  return [{ title: loaderData?.title ?? "Login" }, { name: "robots", content: "noindex" }];
}
