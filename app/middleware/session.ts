import type { MiddlewareFunction } from "react-router";
import { requestInfoContext, services } from "~/context";
import { commitSession, readSession, sessionContext, sessionCookie } from "~/request/session.server";

/** Loads the database session before the loaders run and saves it (with its cookie) after. */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { db, config } = services(context);
  const cookie = sessionCookie(config.sessionSecret, config.secureCookies);
  const session = await readSession(db, cookie, request.headers.get("Cookie"));
  context.set(sessionContext, session);
  const response = await next();
  const setCookie = await commitSession(db, cookie, session, {
    ip: context.get(requestInfoContext).ip,
    userAgent: request.headers.get("User-Agent"),
  });
  if (setCookie) response.headers.append("Set-Cookie", setCookie);
  return response;
};
