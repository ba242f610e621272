import { createContext, useContext } from "react";

/**
 * The id of the request an error page answers, for the shopper to quote (the operator finds it
 * as `reqId` in the log). On the server it is the request's own (app/entry.server.tsx provides
 * it). In the browser it is the one the error page's HTML carries (`<meta name="request-id">`,
 * read before hydration so the page hydrates as it was rendered) or, once the shopper moves on
 * without a page load, the one of the last data request the server failed (`watchFailedRequests`).
 */
const RequestIdContext = createContext<() => string | null>(() => null);

export function RequestIdProvider({ id, children }: { id: string | null; children: React.ReactNode }) {
  return <RequestIdContext.Provider value={() => id}>{children}</RequestIdContext.Provider>;
}

/** The browser's provider: reads the current id when an error page renders. */
export function BrowserRequestIdProvider({ children }: { children: React.ReactNode }) {
  return <RequestIdContext.Provider value={browserRequestId}>{children}</RequestIdContext.Provider>;
}

export function useRequestId(): string | null {
  return useContext(RequestIdContext)();
}

export const REQUEST_ID_META = "request-id";

let documentId: string | null = null;
let failedId: string | null = null;

function browserRequestId(): string | null {
  return failedId ?? documentId;
}

/**
 * In the browser, before hydration: remembers the id the server-rendered error page carries, and
 * from then on the `X-Request-Id` of every data request (`.data`, a form's fetch) the server
 * answered with a 5xx, which is the one the next error page is about.
 */
export function watchFailedRequests(window: Window & typeof globalThis): void {
  documentId = window.document.querySelector(`meta[name="${REQUEST_ID_META}"]`)?.getAttribute("content") ?? null;
  const fetch = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (response.status >= 500) failedId = response.headers.get("X-Request-Id") ?? failedId;
    return response;
  };
}
