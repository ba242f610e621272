import { redirect } from "react-router";
import { services } from "~/context";
import { formAction, succeed } from "~/lib/form-action.server";
import { safeRedirect } from "~/lib/redirect";
import { languageCookie } from "~/middleware/i18next";
import { languageSchema } from "~/schemas/preferences";
import type { Route } from "./+types/language";

/**
 * POST { language, redirectTo }: remembers the choice in a cookie (Secure when the shop is served
 * over HTTPS, as the session cookie) and returns to the page.
 */
export const action = formAction<Route.ActionArgs, typeof languageSchema, void, unknown>(
  { schema: languageSchema },
  async ({ context, form, value }) =>
    succeed(context, form, {
      redirectTo: safeRedirect(value.redirectTo),
      flash: { type: "success", key: "flash.languageChanged" },
      headers: {
        "Set-Cookie": await languageCookie.serialize(value.language, {
          secure: services(context).config.secureCookies,
        }),
      },
    }),
);

export function loader() {
  return redirect("/");
}
