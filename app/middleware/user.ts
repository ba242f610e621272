import type { MiddlewareFunction } from "react-router";
import { loadCurrentUser, userContext } from "~/request/auth.server";
import { getSession } from "~/request/session.server";

/** Puts the signed-in user (with the admin right) into the context; runs after the session. */
export const userMiddleware: MiddlewareFunction<Response> = async ({ context }, next) => {
  context.set(userContext, await loadCurrentUser(context, getSession(context)));
  return next();
};
