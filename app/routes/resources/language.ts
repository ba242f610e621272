import { data, redirect } from "react-router";
import { setFlash } from "~/lib/flash.server";
import { readForm } from "~/lib/read-form";
import { safeRedirect } from "~/lib/redirect";
import { isLanguage } from "~/locales";
import { languageCookie } from "~/middleware/i18next";
import type { Route } from "./+types/language";

/** POST { language, redirectTo }: remembers the choice in a cookie and returns to the page. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const language = form.get("language");
  if (!isLanguage(language)) {
    return data({ error: "errors.invalidLanguage" }, { status: 400 });
  }
  setFlash(context, { type: "success", key: "flash.languageChanged" });
  return redirect(safeRedirect(form.get("redirectTo")), {
    headers: { "Set-Cookie": await languageCookie.serialize(language) },
  });
}

export function loader() {
  return redirect("/");
}
