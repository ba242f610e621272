import { redirect } from "react-router";
import { signOut } from "~/lib/auth.server";
import { setFlash } from "~/lib/flash.server";
import { readForm } from "~/lib/read-form";
import { getSession } from "~/lib/session.server";
import type { Route } from "./+types/logout";

/** POST /logout: the session row is deleted, so the old cookie is anonymous afterwards. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  signOut(getSession(context));
  setFlash(context, { type: "success", key: "flash.loggedOut", detailKey: "flash.loggedOutDetail" });
  return redirect(form.get("to") === "/admin/login" ? "/admin/login" : "/");
}

export function loader() {
  return redirect("/");
}
