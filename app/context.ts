import { createContext, type RouterContextProvider } from "react-router";
import type { DB } from "#db/connect.server";
import type { Config } from "./lib/config.server";
import type { Mailer } from "./lib/mail.server";
import type { Storage } from "./lib/storage.server";
import type { Visitor } from "./request/visitor.server";

/**
 * The request context. `getLoadContext` (server/app.ts) puts the long-lived services and what
 * the web server learnt about the request into it; middleware adds the session, language and
 * currency. Tests build their own with `createTestContext`.
 */
export interface Services {
  db: DB;
  storage: Storage;
  config: Config;
  mailer: Mailer;
}

/**
 * What the logs and metrics say about one request (server/request-trace.ts makes it, before the
 * page cache; app/middleware/trace.ts fills in the route and user once React Router knows them).
 */
export interface RequestTrace {
  /** From a trusted proxy's `X-Request-Id`, or generated; sent back as `X-Request-Id`. */
  id: string;
  /** The matched route's pattern (`/product/:id`; a page-cache hit says its page's too); null before routing. */
  route: string | null;
  /** The signed-in user, if any. */
  userId: string | null;
}

export interface RequestInfo {
  /** CSP nonce for this response's inline scripts. */
  nonce: string;
  /** Client address (through the proxy only when TRUST_PROXY is on). */
  ip: string | null;
  /** Trusted proxy's country header, when TRUST_PROXY is on. */
  proxyCountry: string | null;
  /**
   * The path could not be percent-decoded (`/product/%FF%FE`): React Router got it escaped as one
   * segment, which only the store's catch-all route matches, and that answers 400 (server/app.ts).
   */
  unreadablePath?: boolean;
  /** Absent in tests that build their own context. */
  trace?: RequestTrace;
  /**
   * The visitor the page cache read for this request (a cacheable miss), so the visitor middleware
   * does not read it again (app/request/visitor.server.ts).
   */
  visitor?: Visitor;
}

export const servicesContext = createContext<Services>();
export const requestInfoContext = createContext<RequestInfo>({ nonce: "", ip: null, proxyCountry: null });

export function services(context: Readonly<RouterContextProvider>): Services {
  return context.get(servicesContext);
}
