import { type MouseEvent, useCallback, useState } from "react";
import { useLocation, useNavigate } from "react-router";

/*
 * An element whose inside the document brings and the hydration data does not (decision 068,
 * 071): the header's category nav and the footer's quick links are rendered from the root
 * loader's categories on the server, but a document's root data carries no categories (they
 * would be sent twice). In the browser the element keeps the server's markup: React does not
 * hydrate the inside of an element with `dangerouslySetInnerHTML`. That markup is remembered
 * (per key, for the life of the page), so the header put on the screen again later, after a
 * visit to the admin pages, shows the same links. Once the root loader answers again (a language
 * change, an action), its data has the categories and React renders them from then on.
 */

/** The server's markup of each kept element, read when the document was hydrated. */
const kept = new Map<string, string>();

/** Whether the document's markup of `key` was read (the element was hydrated from it). */
export function hasKeptMarkup(key: string): boolean {
  return Boolean(kept.get(key));
}

/**
 * Props for the element that holds the document's markup instead of its React children:
 * spread them on it and render no children. `key` names it (one element per key on a page). A
 * hook, so that the markup given stays the same for the life of the element (React would set it
 * again, and lose the focus inside, if it changed).
 */
export function useKeptMarkup(key: string) {
  const [html] = useState(() => kept.get(key) ?? "");
  const remember = useCallback(
    (element: HTMLElement | null) => {
      if (element && !kept.has(key)) kept.set(key, element.innerHTML);
    },
    [key],
  );
  return {
    suppressHydrationWarning: true,
    dangerouslySetInnerHTML: { __html: html },
    ref: remember,
  };
}

/**
 * A click handler for an element whose links are plain `<a href>`: kept markup, or links a page
 * renders dozens of (the header's categories, a grid's cards), where a <Link> each costs the
 * server a path resolution per link on every render. A plain click on a link inside is a client
 * navigation, as a <Link> makes it (one to the page shown replaces it in the history); a
 * modified click, or a link to another window, is left to the browser.
 */
export function useFollowLinks() {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const here = `${pathname}${search}${hash}`;
  return useCallback(
    (event: MouseEvent<HTMLElement>) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.altKey ||
        event.ctrlKey ||
        event.shiftKey
      )
        return;
      const link = (event.target as Element).closest("a[href]");
      if (!link || !event.currentTarget.contains(link)) return;
      const href = link.getAttribute("href") as string;
      if (
        !href.startsWith("/") ||
        href.startsWith("//") ||
        link.hasAttribute("target") ||
        link.hasAttribute("download")
      )
        return;
      event.preventDefault();
      navigate(href, { replace: href === here });
    },
    [navigate, here],
  );
}
