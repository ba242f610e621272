import { z } from "zod";

/**
 * Shared by the server (actions) and the browser (Conform): messages are translation keys,
 * so one schema speaks both languages.
 */
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 200;

export const emailField = z
  .string({ error: "errors.emailRequired" })
  .trim()
  .max(254, { error: "errors.emailTooLong" })
  .pipe(z.email({ error: "errors.emailInvalid" }));

/** At sign-in any stored password is accepted; length rules apply when one is chosen. */
export const loginPasswordField = z
  .string({ error: "errors.passwordRequired" })
  .max(PASSWORD_MAX, { error: "errors.passwordTooLong" });

export const newPasswordField = z
  .string({ error: "errors.passwordRequired" })
  .min(PASSWORD_MIN, { error: "errors.passwordTooShort" })
  .max(PASSWORD_MAX, { error: "errors.passwordTooLong" });

export const loginSchema = z.object({
  intent: z.literal("login"),
  email: emailField,
  password: loginPasswordField,
  redirectTo: z.string().optional(),
});

export const signupSchema = z.object({
  intent: z.literal("signup"),
  email: emailField,
  password: newPasswordField,
  redirectTo: z.string().optional(),
});

export const authSchema = z.discriminatedUnion("intent", [loginSchema, signupSchema]);

export const forgotPasswordSchema = z.object({ email: emailField });

export const resetPasswordSchema = z
  .object({
    token: z.string().min(10).max(200),
    password: newPasswordField,
    confirm: z.string({ error: "errors.passwordRequired" }),
  })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], error: "errors.passwordsDiffer" });

/** The verification link's token, confirmed with a button; anything unusable is the "invalid link" page. */
export const verifyEmailSchema = z.object({
  token: z
    .string({ error: "verify.invalidTitle" })
    .min(11, { error: "verify.invalidTitle" })
    .max(200, { error: "verify.invalidTitle" }),
});

export const changePasswordSchema = z
  .object({
    current: loginPasswordField,
    password: newPasswordField,
    confirm: z.string({ error: "errors.passwordRequired" }),
  })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], error: "errors.passwordsDiffer" });

export const adminSetupSchema = z.object({
  intent: z.literal("setup"),
  email: emailField,
  password: loginPasswordField,
  token: z.string({ error: "errors.tokenRequired" }).trim().min(1, { error: "errors.tokenRequired" }).max(200),
});

export const adminLoginSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("login"), email: emailField, password: loginPasswordField }),
  adminSetupSchema,
]);
