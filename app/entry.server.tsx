import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { createInstance } from "i18next";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { type EntryContext, type RouterContextProvider, ServerRouter } from "react-router";
import { requestInfoContext } from "./context";
import { NonceProvider } from "./lib/nonce";
import resources from "./locales";
import { getInstance } from "./middleware/i18next";

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

    let stream: ReturnType<typeof renderToPipeableStream>;
    try {
      stream = renderToPipeableStream(
        <NonceProvider value={nonce}>
          <I18nextProvider i18n={i18nFor(loadContext)}>
            <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
          </I18nextProvider>
        </NonceProvider>,
        {
          nonce,
          [readyOption]() {
            shellRendered = true;
            const body = new PassThrough({
              final(callback) {
                clearTimeout(timeoutId);
                timeoutId = undefined;
                callback();
              },
            });
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            pipe(body);
            resolve(
              new Response(createReadableStreamFromReadable(body), {
                headers: responseHeaders,
                status: responseStatusCode,
              }),
            );
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
 * The request's i18next instance; when a middleware before the language one failed (the error
 * page is rendered without it), an English one, so the error page still renders.
 */
function i18nFor(loadContext: RouterContextProvider) {
  try {
    return getInstance(loadContext);
  } catch {
    fallbackI18n ??= createFallbackI18n();
    return fallbackI18n;
  }
}

let fallbackI18n: ReturnType<typeof createFallbackI18n> | undefined;
function createFallbackI18n() {
  const instance = createInstance({ resources, lng: "en", fallbackLng: "en", interpolation: { escapeValue: false } });
  void instance.init();
  return instance;
}

/** Logs unexpected errors once, without the aborted-request noise. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  console.error(error);
}
