import type { MiddlewareFunction } from "react-router";
import { requestInfoContext, services } from "~/context";
import { userContext } from "~/request/auth.server";
import { commitSession, sessionContext, sessionCookie } from "~/request/session.server";
import { readVisitor, visitorContext } from "~/request/visitor.server";
import { currencyContext } from "./currency";
import { languageContext } from "./i18next";

/**
 * Who is asking, once per request (app/request/visitor.server.ts): the visitor the page cache
 * already read for this request (a cacheable miss), else read here. Puts its session, user,
 * language and currency into the context before the loaders run, and saves the session (with its
 * cookie) after.
 */
export const visitorMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const { db, config } = services(context);
  const info = context.get(requestInfoContext);
  const visitor =
    info.visitor ??
    (await readVisitor(
      { db, config },
      {
        url: new URL(request.url),
        cookie: request.headers.get("Cookie"),
        acceptLanguage: request.headers.get("Accept-Language"),
        userAgent: request.headers.get("User-Agent"),
        ip: info.ip,
        proxyCountry: info.proxyCountry,
      },
    ));
  context.set(visitorContext, visitor);
  context.set(sessionContext, visitor.session);
  context.set(userContext, visitor.user);
  context.set(languageContext, visitor.language);
  context.set(currencyContext, visitor.currency);
  const response = await next();
  const setCookie = await commitSession(
    db,
    sessionCookie(config.sessionSecret, config.secureCookies),
    visitor.session,
    {
      ip: info.ip,
      userAgent: request.headers.get("User-Agent"),
    },
  );
  if (setCookie) response.headers.append("Set-Cookie", setCookie);
  return response;
};
