import { type FieldMetadata, getInputProps } from "@conform-to/react";
import { useTranslation } from "~/lib/i18n";
import { FieldFor, inputClass, PasswordField } from "./field";

/** The e-mail and password inputs of a sign-in (or sign-up) form, with their labels and errors. */
export function SignInFields({
  email,
  password,
  passwordHint,
  passwordAutoComplete = "current-password",
}: {
  email: FieldMetadata<string | undefined>;
  password: FieldMetadata<string | undefined>;
  passwordHint?: string;
  passwordAutoComplete?: "current-password" | "new-password";
}) {
  const { t } = useTranslation();
  return (
    <>
      <FieldFor field={email} label={t("auth.email")}>
        <input {...getInputProps(email, { type: "email" })} autoComplete="email" className={inputClass} />
      </FieldFor>
      <PasswordField
        field={password}
        label={t("auth.password")}
        hint={passwordHint}
        autoComplete={passwordAutoComplete}
      />
    </>
  );
}
