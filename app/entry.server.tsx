import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import {
  type EntryContext,
  type HandleErrorFunction,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { requestInfoContext } from "./context";
import { DocumentOnlyProvider } from "./lib/document-only";
import { I18nProvider } from "./lib/i18n";
import { loggablePath, logger } from "./lib/log.server";
import { createNodeBody } from "./lib/node-body.server";
import { NonceProvider } from "./lib/nonce";
import { noteFailure, outageStatus } from "./lib/outage.server";
import { RequestIdProvider } from "./lib/request-id";
import resources, { type Language } from "./locales";
import { getLanguage, requestLanguage } from "./middleware/i18next";

export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce, trace } = loadContext.get(requestInfoContext);
  const language = await languageOf(request, loadContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and shoppers without JavaScript get the whole page at once.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    // Declared before the timer: if rendering throws before it returns, the timer must not
    // reach an uninitialised binding (that would crash the whole process six seconds later).
    let abort: (() => void) | undefined;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort?.(), streamTimeout + 1000);
    const fail = (error: unknown) => {
      clearTimeout(timeoutId);
      timeoutId = undefined;
      reject(error);
    };

    // The body is React's pipe itself: the server writes it straight into the Node response
    // (server/request-handler.ts); anything else reads it as a web stream (app/lib/node-body.server.ts).
    const ready = () => {
      shellRendered = true;
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(
        new Response(
          createNodeBody((destination) => pipe(destination)),
          { headers: responseHeaders, status: responseStatusCode },
        ),
      );
    };
    let stream: ReturnType<typeof renderToPipeableStream>;
    try {
      stream = renderToPipeableStream(
        <NonceProvider value={nonce}>
          <RequestIdProvider id={trace?.id ?? null}>
            <I18nProvider language={language} messages={resources[language].translation}>
              <DocumentOnlyProvider value={loadContext}>
                <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
              </DocumentOnlyProvider>
            </I18nProvider>
          </RequestIdProvider>
        </NonceProvider>,
        {
          nonce,
          onShellReady() {
            if (readyOption === "onShellReady") ready();
          },
          onAllReady() {
            // Everything is rendered: nothing left for the timer to abort.
            clearTimeout(timeoutId);
            timeoutId = undefined;
            if (readyOption === "onAllReady") ready();
          },
          onShellError(error: unknown) {
            fail(error);
          },
          onError(error: unknown) {
            responseStatusCode = 500;
            if (shellRendered) logError(error, request, loadContext, "rendering the page failed");
          },
        },
      );
    } catch (error) {
      fail(error);
      return;
    }
    const { pipe } = stream;
    abort = stream.abort;
  });
}

/**
 * The request's language (the browser renders with the same text, so hydration matches). When a
 * middleware before the language one failed (the session's database is down: the 503 page is
 * rendered without it), the same choice made from the request alone — ?lng=, the language
 * cookie, Accept-Language — so that page is still in the shopper's language.
 */
async function languageOf(request: Request, loadContext: RouterContextProvider): Promise<Language> {
  try {
    return getLanguage(loadContext);
  } catch {
    return requestLanguage(request);
  }
}

/**
 * Logs an error with the request it broke: its id (the one the error page shows), method and
 * path (no query string: it may hold a token), and the stack.
 */
function logError(error: unknown, request: Request, context: Readonly<RouterContextProvider>, what?: string) {
  let reqId: string | undefined;
  try {
    reqId = context.get(requestInfoContext).trace?.id;
  } catch {
    // A context without the request's information (a test's own).
  }
  const fields = { reqId, method: request.method, path: loggablePath(new URL(request.url).pathname) };
  // An outage is one line (its status and message), not a stack per request while it lasts.
  const outage = outageStatus(error);
  if (outage) {
    logger.warn({ ...fields, status: outage, err: String(error) }, "a dependency failed");
    return;
  }
  const msg = what ?? (error instanceof Error ? error.message : "request failed");
  // React Router's own refusals (a POST where no action is, a 405 to a scanner) are the client's
  // doing: a warning with the status, not an error.
  if (isRouteErrorResponse(error) && error.status < 500) {
    const cause = (error as { error?: unknown }).error;
    logger.warn({ ...fields, status: error.status, err: cause }, cause instanceof Error ? cause.message : msg);
    return;
  }
  logger.error({ ...fields, err: error }, msg);
}

/** Logs unexpected errors once, without the aborted-request noise. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A failed dependency is answered 503/504/507 by the outage middleware (app/middleware/outage.ts).
  noteFailure(error, context);
  if (request.signal.aborted) return;
  logError(error, request, context);
};
