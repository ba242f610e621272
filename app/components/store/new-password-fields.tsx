import { type FormField, PasswordField } from "~/components/ui/field";
import { useTranslation } from "~/lib/i18n";

/** A new password, with the rules as its hint, and the same again to confirm it (account, reset). */
export function NewPasswordFields({ password, confirm }: { password: FormField; confirm: FormField }) {
  const { t } = useTranslation();
  return (
    <>
      <PasswordField
        field={password}
        label={t("account.newPassword")}
        hint={t("auth.passwordHint")}
        autoComplete="new-password"
      />
      <PasswordField field={confirm} label={t("account.confirmPassword")} autoComplete="new-password" />
    </>
  );
}
