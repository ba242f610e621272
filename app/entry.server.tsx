import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, type RouterContextProvider, ServerRouter } from "react-router";
import { requestInfoContext } from "./context";
import { I18nProvider } from "./lib/i18n";
import { createNodeBody } from "./lib/node-body.server";
import { NonceProvider } from "./lib/nonce";
import { noteFailure } from "./lib/outage.server";
import resources, { type Language } from "./locales";
import { getLanguage } from "./middleware/i18next";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce } = loadContext.get(requestInfoContext);
  const language = languageOf(loadContext);

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
          <I18nProvider language={language} messages={resources[language].translation}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </I18nProvider>
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
            if (shellRendered) console.error(error);
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
 * The request's language (the browser renders with the same text, so hydration matches); when a
 * middleware before the language one failed (the error page is rendered without it), English,
 * so the error page still renders.
 */
function languageOf(loadContext: RouterContextProvider): Language {
  try {
    return getLanguage(loadContext);
  } catch {
    return "en";
  }
}

/** Logs unexpected errors once, without the aborted-request noise. */
export function handleError(
  error: unknown,
  { request, context }: { request: Request; context?: Readonly<RouterContextProvider> },
) {
  // A failed dependency is answered 503/504/507 by the outage middleware (app/middleware/outage.ts).
  noteFailure(error, context);
  if (request.signal.aborted) return;
  console.error(error);
}
