import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { type ComponentProps, createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FieldFor, FormErrors, inputProps, textareaProps } from "~/components/ui/field";
import { SignInFields } from "~/components/ui/sign-in-fields";
import { useServerForm } from "~/components/ui/use-server-form";
import { problemReply } from "~/lib/form-action.server";
import { I18nProvider, type Messages } from "~/lib/i18n";
import resources from "~/locales";
import { signupSchema } from "~/schemas/auth";
import { checkoutSchema } from "~/schemas/checkout";

/**
 * `useServerForm` stands in for Conform's `useForm` on the storefront (docs/decisions/045): it
 * reads the reply `formAction` sends (Conform's `SubmissionResult`, unchanged) and gives the
 * fields the ids, errors, kept input and HTML constraints Conform gave them.
 */

type Language = "en" | "zh";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

/** The reply `formAction` answers an invalid sign-up with (400): the password is never sent back. */
function signupReply(fields: Record<string, string>) {
  return parseWithZod(form({ intent: "signup", redirectTo: "/", ...fields }), { schema: signupSchema }).reply({
    hideFields: ["password"],
  });
}

function SignUp({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const [signup, fields] = useServerForm<typeof signupSchema>(lastResult, getZodConstraint(signupSchema), {
    id: "auth-signup",
  });
  return createElement(
    "form",
    signup.props,
    createElement(FormErrors, { errors: signup.errors }),
    createElement(SignInFields, {
      email: fields.email,
      password: fields.password,
      passwordHint: "hint",
      passwordAutoComplete: "new-password",
    }),
  );
}

/** A `FieldFor` around one control (passed as React's children argument). */
function fieldFor(props: Omit<ComponentProps<typeof FieldFor>, "children">, control: ReactElement) {
  return createElement(FieldFor, props as ComponentProps<typeof FieldFor>, control);
}

function Checkout({
  lastResult,
  defaults,
}: {
  lastResult?: SubmissionResult<string[]>;
  defaults: Record<string, string>;
}) {
  const [checkout, fields] = useServerForm<typeof checkoutSchema>(lastResult, getZodConstraint(checkoutSchema), {
    id: "checkout",
    defaultValue: defaults,
  });
  return createElement(
    "form",
    checkout.props,
    fieldFor({ field: fields.country, label: "Country" }, createElement("input", inputProps(fields.country, "text"))),
    fieldFor({ field: fields.address, label: "Address" }, createElement("textarea", textareaProps(fields.address))),
  );
}

function render(node: ReturnType<typeof createElement>, language: Language = "en"): string {
  return renderToString(
    createElement(I18nProvider, { language, messages: resources[language].translation as Messages }, node),
  );
}

/** The attributes of the element with this id (React's markup: double quotes, escaped). */
function element(html: string, id: string): Record<string, string> {
  const tag = new RegExp(`<\\w+\\b[^>]*\\sid="${id}"[^>]*>`).exec(html)?.[0];
  if (!tag) throw new Error(`no #${id} in ${html}`);
  return Object.fromEntries(
    [...tag.matchAll(/\s([\w-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [name?.toLowerCase(), value ?? ""]),
  );
}

/** The text inside the element with this id. */
function textOf(html: string, id: string): string {
  const match = new RegExp(`<(\\w+)[^>]*\\sid="${id}"[^>]*>(.*?)</\\1>`).exec(html);
  return match ? (match[2] ?? "").replace(/<[^>]+>/g, "") : `(no #${id})`;
}

describe("useServerForm", () => {
  it("starts with Conform's ids, the schema's HTML constraints and no browser checks", () => {
    const html = render(createElement(SignUp));
    expect(element(html, "auth-signup")).toHaveProperty("novalidate");
    const email = element(html, "auth-signup-email");
    expect(email).toMatchObject({ name: "email", type: "email", required: "" });
    expect(email).not.toHaveProperty("aria-invalid");
    expect(email).not.toHaveProperty("value");
    const password = element(html, "auth-signup-password");
    expect(password).toMatchObject({ name: "password", type: "password", required: "" });
    expect(password["aria-describedby"]).toBe("auth-signup-password-hint");
    expect(html).not.toContain('role="alert"');
  });

  it.each([
    ["en", "Enter a valid e-mail address", "Password must be at least 6 characters"],
    ["zh", "請輸入有效的電郵地址", "密碼最少要有 6 個字元"],
  ] as const)("shows the reply's messages next to their fields, the input kept, in %s", (language, badEmail, short) => {
    const html = render(
      createElement(SignUp, { lastResult: signupReply({ email: "not-an-email", password: "abc" }) }),
      language,
    );
    const email = element(html, "auth-signup-email");
    expect(email).toMatchObject({ value: "not-an-email", "aria-invalid": "true" });
    expect(email["aria-describedby"]).toBe("auth-signup-email-error");
    expect(textOf(html, "auth-signup-email-error")).toBe(badEmail);
    const password = element(html, "auth-signup-password");
    // Never echoed; described by its error first, then its hint.
    expect(password).not.toHaveProperty("value");
    expect(password).toMatchObject({ "aria-invalid": "true" });
    expect(password["aria-describedby"]).toBe("auth-signup-password-error auth-signup-password-hint");
    expect(textOf(html, "auth-signup-password-error")).toBe(short);
  });

  it("shows a refusal of the whole form above it, the e-mail kept", () => {
    const submission = parseWithZod(
      form({ intent: "signup", redirectTo: "/", email: "a@example.com", password: "long-enough" }),
      { schema: signupSchema },
    );
    const reply = problemReply(submission, { key: "flash.loginFailed", detailKey: "flash.loginFailedDetail" }, [
      "password",
    ]);
    const html = render(createElement(SignUp, { lastResult: reply }), "zh");
    expect(html).toContain('role="alert"');
    expect(html).toContain(resources.zh.translation.flash.loginFailed);
    expect(html).toContain(resources.zh.translation.flash.loginFailedDetail);
    expect(element(html, "auth-signup-email")).toMatchObject({ value: "a@example.com" });
    expect(element(html, "auth-signup-email")).not.toHaveProperty("aria-invalid");
    expect(element(html, "auth-signup-password")).not.toHaveProperty("value");
  });

  it("names the field a refusal points at", () => {
    const submission = parseWithZod(form({ intent: "signup", email: "a@example.com", password: "long-enough" }), {
      schema: signupSchema,
    });
    // As the account page's action answers a wrong current password (a `UserError` with its field).
    const reply = problemReply(submission, { key: "errors.currentPasswordWrong", field: "email" }, ["password"]);
    const html = render(createElement(SignUp, { lastResult: reply }));
    expect(element(html, "auth-signup-email")).toMatchObject({ "aria-invalid": "true", value: "a@example.com" });
    expect(textOf(html, "auth-signup-email-error")).toBe(resources.en.translation.errors.currentPasswordWrong);
    expect(html).not.toContain('role="alert"');
  });

  it("puts every HTML constraint the loader sends on the control", () => {
    const field = { id: "f-code", name: "code", errorId: "f-code-error", initialValue: "AB" };
    const constraint = { required: true, minLength: 2, maxLength: 8, pattern: "[A-Z]+" };
    expect(inputProps({ ...field, ...constraint }, "text")).toEqual({
      id: "f-code",
      name: "code",
      type: "text",
      defaultValue: "AB",
      ...constraint,
      min: undefined,
      max: undefined,
      step: undefined,
    });
    expect(textareaProps({ ...field, required: false, maxLength: 8 })).toEqual({
      id: "f-code",
      name: "code",
      required: undefined,
      minLength: undefined,
      maxLength: 8,
      defaultValue: "AB",
    });
  });

  it("starts from the defaults, and from the shopper's input once the server has answered", () => {
    const defaults = { country: "Hong Kong", address: "1 Queen's Road" };
    const fresh = render(createElement(Checkout, { defaults }));
    expect(element(fresh, "checkout-country")).toMatchObject({ value: "Hong Kong", required: "" });
    expect(element(fresh, "checkout-address")).toMatchObject({ name: "address", required: "" });
    expect(textOf(fresh, "checkout-address")).toBe("1 Queen&#x27;s Road");

    const reply = parseWithZod(form({ country: "Macau", address: "" }), { schema: checkoutSchema }).reply();
    const answered = render(createElement(Checkout, { defaults, lastResult: reply }));
    expect(element(answered, "checkout-country")).toMatchObject({ value: "Macau" });
    expect(element(answered, "checkout-country")).not.toHaveProperty("aria-invalid");
    expect(element(answered, "checkout-address")).toMatchObject({ "aria-invalid": "true" });
    expect(textOf(answered, "checkout-address")).toBe("");
    expect(textOf(answered, "checkout-address-error")).toBe(resources.en.translation.checkout.errors.required);
  });
});
