import type { Page } from "@playwright/test";

/**
 * How the storefront header and the page around it fit the window, for the sweep over widths and
 * shop names (tests/e2e/owner/shop-details.spec.ts). Not a spec: Playwright only runs *.spec.ts.
 */

/**
 * The narrowest and widest widths, common phone widths and both sides of each breakpoint (sm, md,
 * lg, xl): within a breakpoint the bar only gains room as the window widens, so its narrowest
 * width is the hardest.
 */
export const EDGE_WIDTHS = [320, 375, 390, 639, 640, 767, 768, 1023, 1024, 1279, 1280, 1440];

/** Widths from 320 to 1440 px in 24 px steps, and the edge widths. */
export const SWEEP_WIDTHS = [...new Set([...Array.from({ length: 47 }, (_, i) => 320 + i * 24), ...EDGE_WIDTHS])].sort(
  (a, b) => a - b,
);

export interface HeaderFit {
  /** document scrollWidth − clientWidth: > 0 means the page scrolls sideways. */
  overflow: number;
  headerHeight: number;
  /** Controls of the bar (links, buttons, the menu button…) that are not wholly inside the window. */
  offscreen: string[];
  /** Pairs of the bar's items (logo, name, category links, search, controls) that overlap. */
  overlaps: string[];
  logo: { width: number; height: number };
  name: { width: number; height: number; fontSize: number };
  /** The search box in the bar: its input's width, 0 when it is not in the bar (it is in the menu). */
  searchInput: number;
  /** The search button in the bar is wholly visible (or there is no search in the bar). */
  searchButtonWhole: boolean;
}

/** Measures the header at the current window size (layout only: nothing is clicked). */
export function measureHeader(page: Page): Promise<HeaderFit> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const header = document.querySelector("header") as HTMLElement;
    const bar = header.firstElementChild as HTMLElement;
    const visible = (el: Element) =>
      el.checkVisibility({ visibilityProperty: true }) && el.getBoundingClientRect().width > 0;
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}"`;
    // What the bar shows (the open menu panels are not the bar).
    const inBar = (el: Element) => visible(el) && !el.closest("details > div");
    const controls = [...bar.querySelectorAll("a, button, summary, select, input")].filter(inBar);
    const width = root.clientWidth;
    const offscreen = controls
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.left < -0.5 || box.right > width + 0.5;
      })
      .map(describe);

    const logo = bar.querySelector('a[href="/"] > svg') as SVGElement;
    const name = header.querySelector("[data-testid=shop-name]") as HTMLElement;
    const nav = bar.querySelector("nav") as HTMLElement | null;
    // Category links on the bar's one row (the ones wrapped below it are clipped away).
    const navLinks =
      nav && visible(nav)
        ? [...nav.querySelectorAll("a")].filter(
            (a) => visible(a) && a.getBoundingClientRect().top < nav.getBoundingClientRect().bottom - 1,
          )
        : [];
    const search = [...bar.querySelectorAll("form[role=search]")].find(inBar) as HTMLElement | undefined;
    const controlGroup = bar.querySelector(".hd-end") as HTMLElement;
    const items: Element[] = [
      logo,
      name,
      ...navLinks,
      ...(search ? [search] : []),
      ...[...controlGroup.children].filter(inBar),
    ];
    const boxes = items.map((el) => ({ el, box: el.getBoundingClientRect() })).sort((a, b) => a.box.left - b.box.left);
    const overlaps: string[] = [];
    for (let i = 1; i < boxes.length; i++) {
      const [before, after] = [boxes[i - 1], boxes[i]];
      if (before && after && before.box.right > after.box.left + 0.5)
        overlaps.push(`${describe(before.el)} / ${describe(after.el)}`);
    }

    const logoBox = logo.getBoundingClientRect();
    const nameBox = name.getBoundingClientRect();
    const input = search?.querySelector("input");
    const button = search?.querySelector("button");
    const buttonBox = button?.getBoundingClientRect();
    const searchBox = search?.getBoundingClientRect();
    return {
      overflow: root.scrollWidth - root.clientWidth,
      headerHeight: header.getBoundingClientRect().height,
      offscreen,
      overlaps,
      logo: { width: logoBox.width, height: logoBox.height },
      name: {
        width: nameBox.width,
        height: nameBox.height,
        fontSize: Number.parseFloat(getComputedStyle(name).fontSize),
      },
      searchInput: input ? input.getBoundingClientRect().width : 0,
      searchButtonWhole:
        !buttonBox ||
        !searchBox ||
        (buttonBox.right <= searchBox.right + 0.5 && buttonBox.width >= (button?.scrollWidth ?? 0) - 0.5),
    };
  });
}

/**
 * Sideways overflow of the document at the current window size, and the deepest element that
 * reaches past the window's right edge (what to fix).
 */
export function pageOverflow(page: Page): Promise<{ overflow: number; culprit: string }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const overflow = root.scrollWidth - width;
    if (overflow <= 0) return { overflow, culprit: "" };
    const past = [...document.body.querySelectorAll("*")].filter(
      (el) => el.getBoundingClientRect().right + window.scrollX > width + 0.5,
    );
    // An element whose own content (a long word) spills out of its box counts too.
    for (const el of document.body.querySelectorAll("*"))
      if (el.scrollWidth > el.clientWidth + 0.5 && getComputedStyle(el).overflowX === "visible" && el.clientWidth > 0)
        past.push(el);
    const deepest = past.filter((el) => !past.some((other) => other !== el && el.contains(other)));
    const culprit = deepest
      .slice(0, 3)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)} "${(el.textContent ?? "").slice(0, 30)}"`,
      )
      .join(", ");
    return { overflow, culprit };
  });
}
