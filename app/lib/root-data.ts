import { useMemo } from "react";
import { createContext, useRouteLoaderData } from "react-router";
import type { loader } from "~/root";

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** The root loader's data (language, currency, flash, navigation) from any component. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root") as RootData | undefined;
}

/**
 * The key a storefront document's nav categories are kept under for its render
 * (app/lib/document-only.ts): the header and footer show them in its HTML, and its root data
 * carries none (decision 071).
 */
export const NAV_CATEGORIES = "nav-categories";

/** The same for the footer's shop details (name, blurb, address, support e-mail, "Supported By"). */
export const SHOP_FOOTER = "shop-footer";

/**
 * What a page shows of its visitor: the header's account menu and cart badge, nothing else
 * (docs/decisions/067). The root loader sends it as ONE string, `JSON.stringify(view)`, so the
 * page cache can put another visitor's view in its place in a stored page (server/page-slots.ts)
 * without disturbing any other value of the page's data.
 */
export interface VisitorView {
  email: string | null;
  admin: boolean;
  cartCount: number;
}

/** What `useVisitor` answers: the view, and on a page rendered for the cache its slot token. */
export interface VisitorData extends VisitorView {
  /** Set only while the page cache renders a page to store: the VisitorSlot's marker token. */
  slot: string | null;
}

/** The root loader's `visitor` string for a view (always its three fields, in this order). */
export function visitorJson(view: VisitorView): string {
  return JSON.stringify({ email: view.email, admin: view.admin, cartCount: view.cartCount });
}

export const ANONYMOUS: VisitorView = Object.freeze({ email: null, admin: false, cartCount: 0 });

/** The prefix of the root loader's `visitor` string on a render for the page cache. */
export const SLOT_PREFIX = "slot:";

/**
 * Set by the request handler (server/request-handler.ts) on a cacheable miss: a random token
 * the root loader sends as `visitor` (after SLOT_PREFIX) instead of the visitor's view, so the
 * rendered page holds nobody's e-mail or cart, only the token to cut at.
 */
export const cacheRenderContext = createContext<string | null>(null);

/** The root loader's `visitor` string read back; anything not a view is the anonymous one. */
export function parseVisitor(text: string | undefined): VisitorData {
  if (text?.startsWith(SLOT_PREFIX)) return { ...ANONYMOUS, slot: text.slice(SLOT_PREFIX.length) };
  if (!text?.startsWith("{")) return { ...ANONYMOUS, slot: null };
  try {
    const view = JSON.parse(text) as Partial<VisitorView>;
    return {
      email: typeof view.email === "string" ? view.email : null,
      admin: view.admin === true,
      cartCount: typeof view.cartCount === "number" ? view.cartCount : 0,
      slot: null,
    };
  } catch {
    return { ...ANONYMOUS, slot: null };
  }
}

/**
 * The visitor's view for the header (VisitorSlot) and the few places that fill in the visitor's
 * own e-mail after hydration. Catalogue pages' server markup must not depend on it outside the
 * VisitorSlot: the page cache serves that markup to every visitor.
 */
export function useVisitor(): VisitorData {
  const text = useRootData()?.visitor;
  return useMemo(() => parseVisitor(text), [text]);
}
