import { redirect } from "react-router";
import { z } from "zod";
import { formAction, succeed } from "~/lib/form-action.server";
import { signOut } from "~/request/auth.server";
import { getSession } from "~/request/session.server";
import type { Route } from "./+types/logout";

export function loader() {
  return redirect("/");
}

/**
 * POST /logout, no fields (`to=/admin/login` from the admin shell goes back there; any other
 * `to` goes home): the session row is deleted, so the old cookie is anonymous afterwards.
 */
export const action = formAction<Route.ActionArgs, z.ZodObject, void, ReturnType<typeof succeed>>(
  { schema: z.object({}) },
  ({ context, form }) => {
    signOut(getSession(context));
    return succeed(context, form, {
      redirectTo: form.get("to") === "/admin/login" ? "/admin/login" : "/",
      flash: { type: "success", key: "flash.loggedOut", detailKey: "flash.loggedOutDetail" },
    });
  },
);
