import { createContext, useContext } from "react";

/*
 * What a page's document needs but its browser never does (decision 068). A listing's cards are
 * rendered into the HTML once; sending them again in the loader data the page hydrates from
 * would double them. So for a document request the loader leaves them out of its data and hands
 * them here, keyed by the request's router context; the server render reads them back through
 * the context `app/entry.server.tsx` provides. A client navigation (`.data`) gets them in the
 * loader data as usual. In the browser nothing is ever stored: `useDocumentOnly` answers undefined.
 */

const DocumentOnlyContext = createContext<object | null>(null);

/** Wraps the server render: `value` is the request's router context (the loaders' `context`). */
export const DocumentOnlyProvider = DocumentOnlyContext.Provider;

const store = new WeakMap<object, Map<string, unknown>>();

/** Whether a loader answers a document request rather than a client navigation's `/….data`. */
export function isDocumentRequest(request: Request): boolean {
  return !new URL(request.url).pathname.endsWith(".data");
}

/** Keeps `value` for this request's document render (server only: called from a loader). */
export function putDocumentOnly(context: object, key: string, value: unknown): void {
  const entries = store.get(context) ?? new Map<string, unknown>();
  entries.set(key, value);
  store.set(context, entries);
}

/** What the loader kept under `key` for this document render; undefined in the browser. */
export function useDocumentOnly<T>(key: string): T | undefined {
  const owner = useContext(DocumentOnlyContext);
  return owner ? (store.get(owner)?.get(key) as T | undefined) : undefined;
}
