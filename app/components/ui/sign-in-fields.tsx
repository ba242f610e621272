import { useTranslation } from "~/lib/i18n";
import { FieldFor, type FormField, inputClass, inputProps, PasswordField } from "./field";

/** The e-mail and password inputs of a sign-in (or sign-up) form, with their labels and errors. */
export function SignInFields({
  email,
  password,
  passwordHint,
  passwordAutoComplete = "current-password",
}: {
  email: FormField;
  password: FormField;
  passwordHint?: string;
  passwordAutoComplete?: "current-password" | "new-password";
}) {
  const { t } = useTranslation();
  return (
    <>
      <FieldFor field={email} label={t("auth.email")}>
        <input {...inputProps(email, "email")} autoComplete="email" className={inputClass} />
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
