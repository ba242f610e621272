import fs from "node:fs";
import type { Page } from "@playwright/test";
import en from "../../../app/locales/en/translation";
import zh from "../../../app/locales/zh/translation";
import { seriousViolations } from "../a11y";
import {
  apiAddToCart,
  expect,
  productIdByName,
  setLanguage,
  signInAsAdmin,
  signUpWithRequest,
  shopperTest as test,
  uniqueEmail,
  uniquePassword,
  waitForReact,
} from "../fixtures";

/**
 * The storefront header: one row at desk and phone widths, in both languages, signed in and
 * out. A long e-mail never squeezes the shop name or the search box: the signed-in user is an
 * icon whose menu holds the e-mail. Screenshots go to /tmp/shots/header-*.png for review.
 */

const TEXT = { en, zh } as const;
/** The seeded shop's name (Settings → Shop details defaults). */
const SHOP_NAME = { en: "Harbour Tactical", zh: "港灣戰術" } as const;
type Lang = keyof typeof TEXT;
const SHOTS = "/tmp/shots";

/** A cart with something in it, so the badge shows (the product has plenty of stock). */
async function fillCart(page: Page, lines = 1): Promise<void> {
  const id = await productIdByName(page.request, "M4 CQB Carbine AEG");
  await apiAddToCart(page.request, id, "Black");
  if (lines > 1) await apiAddToCart(page.request, id, "Tan");
}

async function signUpLongEmail(page: Page): Promise<string> {
  // Long on purpose: the kind of address that used to squeeze the header.
  const email = uniqueEmail("customer-with-a-rather-long-name");
  await signUpWithRequest(page.request, email, uniquePassword());
  return email;
}

/** Measures the header bar: everything on one row, nothing truncated, clipped or wrapped. */
async function measureHeader(page: Page) {
  return page.evaluate(() => {
    const header = document.querySelector("header") as HTMLElement;
    const bar = header.firstElementChild as HTMLElement;
    const name = header.querySelector("[data-testid=shop-name]") as HTMLElement;
    // checkVisibility: the content of a closed <details> has boxes, but is not rendered.
    const visible = (el: Element) =>
      el.checkVisibility({ contentVisibilityAuto: true, visibilityProperty: true }) &&
      el.getBoundingClientRect().width > 0;
    const nav = header.querySelector("nav") as HTMLElement | null;
    // A category link that does not fit drops onto a row the bar clips (the menu has every one).
    const droppedLink = (el: Element) =>
      nav?.contains(el) && el.getBoundingClientRect().top >= nav.getBoundingClientRect().bottom - 1;
    // The controls in the bar itself (not inside an open menu panel).
    const controls = [...bar.querySelectorAll("a, button, summary, select, input")].filter(
      (el) => visible(el) && !el.closest("details[open] > div") && !droppedLink(el),
    );
    const barBox = bar.getBoundingClientRect();
    const search = header.querySelector("form[role=search]") as HTMLElement | null;
    return {
      headerHeight: header.getBoundingClientRect().height,
      nameText: name.textContent,
      nameFits: name.scrollWidth <= name.clientWidth && name.getBoundingClientRect().width >= name.scrollWidth - 0.5,
      // A control whose text wrapped is taller than one line; one that left the row sits outside the bar.
      tallest: Math.max(...controls.map((el) => el.getBoundingClientRect().height)),
      outsideRow: controls
        .filter((el) => {
          const box = el.getBoundingClientRect();
          return box.top < barBox.top - 0.5 || box.bottom > barBox.bottom + 0.5;
        })
        .map((el) => el.outerHTML.slice(0, 80)),
      searchWidth: search && visible(search) ? search.getBoundingClientRect().width : 0,
      navVisible: nav ? visible(nav) : false,
      // Any category link cut off at the nav's edge (boxes, not scrollWidth: that rounds up).
      navClipped: nav
        ? [...nav.querySelectorAll("a")].some(
            (a) => a.getBoundingClientRect().right > nav.getBoundingClientRect().right + 0.5,
          )
        : false,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    };
  });
}

async function expectOneRow(page: Page, lang: Lang, width: number) {
  const m = await measureHeader(page);
  const where = `${lang} at ${width}px`;
  expect(m.nameText, where).toBe(SHOP_NAME[lang]);
  expect(m.nameFits, `shop name not truncated, ${where}`).toBe(true);
  expect(m.headerHeight, `header is one row, ${where}`).toBeLessThanOrEqual(64);
  expect(m.tallest, `no control wraps, ${where}`).toBeLessThanOrEqual(40);
  expect(m.outsideRow, where).toEqual([]);
  expect(m.overflow, `no sideways scroll, ${where}`).toBeLessThanOrEqual(0);
  if (width >= 768) expect(m.searchWidth, `search box width, ${where}`).toBeGreaterThanOrEqual(180);
  else expect(m.searchWidth, where).toBe(0);
  if (width >= 1280) {
    expect(m.navVisible, where).toBe(true);
    expect(m.navClipped, `every category link fits, ${where}`).toBe(false);
  }
  return m;
}

/** Opens the user menu and checks the e-mail is there (and only there), inside the screen. */
async function openUserMenu(page: Page, lang: Lang, email: string, width: number) {
  const header = page.locator("header");
  const menu = header.getByTestId("user-menu");
  await expect(header.getByText(email)).toBeHidden();
  await menu.locator("summary").click();
  await expect(menu.getByTestId("user-email")).toHaveText(email);
  await expect(menu.getByTestId("user-email")).toBeVisible();
  await expect(menu.getByRole("link", { name: TEXT[lang].userMenu.account })).toBeVisible();
  await expect(menu.getByRole("button", { name: TEXT[lang].userMenu.logout })).toBeVisible();
  const panel = await menu.locator("summary + div").boundingBox();
  expect(panel, "menu panel").not.toBeNull();
  expect(panel?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((panel?.x ?? 0) + (panel?.width ?? 0)).toBeLessThanOrEqual(width);
  // The whole e-mail shows, not an ellipsis.
  const emailFits = await menu
    .getByTestId("user-email")
    .evaluate((el) => el.scrollWidth <= el.clientWidth + 0.5 && getComputedStyle(el).textOverflow !== "ellipsis");
  expect(emailFits).toBe(true);
}

async function closeUserMenu(page: Page) {
  await page.locator("header [data-testid=user-menu] > summary").click();
  await expect(page.locator("header [data-testid=user-menu]")).not.toHaveAttribute("open", "");
}

test.describe("storefront header", () => {
  test("signed in at 1024, 1280 and 1440 px: one row, whole shop name, e-mail only in the menu", {
    tag: "@render",
  }, async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    const email = await signUpLongEmail(page);
    await fillCart(page);
    for (const lang of ["en", "zh"] as const) {
      await setLanguage(context, baseURL ?? "", lang);
      for (const width of [1024, 1280, 1440]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto("/category/rifles");
        await expect(page.locator("html")).toHaveAttribute("lang", lang === "en" ? "en" : "zh-Hant-HK");
        await expectOneRow(page, lang, width);
        // The user is an icon in the bar; the admin link is not offered to a customer.
        await expect(page.locator("header [data-testid=user-menu] > summary")).toHaveAccessibleName(
          TEXT[lang].userMenu.open,
        );
        await openUserMenu(page, lang, email, width);
        await expect(
          page.getByTestId("user-menu").getByRole("link", { name: TEXT[lang].userMenu.admin, exact: true }),
        ).toHaveCount(0);
        await closeUserMenu(page);
      }
    }
  });

  test("signed in on a 390 px phone: one row, whole shop name, the user menu works", async ({
    page,
    context,
    baseURL,
    jsEnabled,
  }) => {
    const email = await signUpLongEmail(page);
    await fillCart(page);
    fs.mkdirSync(SHOTS, { recursive: true });
    const suffix = jsEnabled ? "" : "-nojs";
    for (const lang of ["en", "zh"] as const) {
      await setLanguage(context, baseURL ?? "", lang);
      await page.setViewportSize({ width: 390, height: 760 });
      await page.goto("/");
      await expectOneRow(page, lang, 390);
      await page.screenshot({ path: `${SHOTS}/header-phone-${lang}${suffix}.png`, clip: bounds(390, 64) });
      await openUserMenu(page, lang, email, 390);
      await page.screenshot({ path: `${SHOTS}/header-phone-${lang}-menu${suffix}.png`, clip: bounds(390, 260) });
      await closeUserMenu(page);
      // The page menu still opens beside it, with the search box and the currency picker.
      await page.getByLabel(TEXT[lang].nav.openMenu).click();
      const menu = page.getByRole("navigation", { name: TEXT[lang].nav.categories });
      await expect(menu).toBeVisible();
      await expect(page.locator("#search-mobile")).toBeVisible();
      await expect(page.locator("#currency-mobile")).toBeVisible();
    }
  });

  test("one category nav: the bar at desk width, the menu on a phone, each category once", async ({
    page,
    jsEnabled,
  }) => {
    let documents = 0;
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents += 1;
    });
    await page.setViewportSize({ width: 1440, height: 800 });
    await page.goto("/category/rifles");
    if (jsEnabled) await waitForReact(page);
    // Decision 071: one nav serves the bar and the menu; no category link is in the header twice.
    const header = page.locator("header");
    await expect(header.getByRole("navigation")).toHaveCount(1);
    await expect(header.locator('a[href="/category/rifles"]')).toHaveCount(1);
    const nav = header.getByRole("navigation", { name: en.nav.categories });
    const rifles = nav.getByRole("link", { name: "Rifles", exact: true });
    await expect(rifles).toBeVisible();
    await expect(rifles).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: en.nav.blog })).toBeVisible();
    // On a phone the links are in the menu only.
    await page.setViewportSize({ width: 390, height: 800 });
    await expect(rifles).toBeHidden();
    await page.getByLabel(en.nav.openMenu).click();
    await expect(rifles).toBeVisible();
    await expect(nav.getByRole("link", { name: en.nav.blog })).toBeVisible();
    // Following a link of the document's nav: a client navigation with JavaScript, and the mark moves.
    await nav.getByRole("link", { name: "Pistols", exact: true }).click();
    await expect(page).toHaveURL(/\/category\/pistols$/);
    await expect(page.getByRole("heading", { level: 1, name: "Pistols" })).toBeVisible();
    // (Without JavaScript the new page's menu is closed: its links are hidden, so found by address.)
    const linkTo = (slug: string) => page.locator(`header nav a[href="/category/${slug}"]`);
    await expect(linkTo("pistols")).toHaveAttribute("aria-current", "page");
    await expect(linkTo("rifles")).not.toHaveAttribute("aria-current");
    expect(documents).toBe(jsEnabled ? 1 : 2);
    // The footer's category links too.
    await page.locator("footer").getByRole("link", { name: "Shotguns", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Shotguns" })).toBeVisible();
    await expect(linkTo("shotguns")).toHaveAttribute("aria-current", "page");
    await expect(linkTo("pistols")).not.toHaveAttribute("aria-current");
    expect(documents).toBe(jsEnabled ? 1 : 3);
  });

  test("an admin's menu has the Admin link, and the header still fits", async ({ page, context, baseURL }) => {
    const email = await signInAsAdmin(page, "admin-with-a-fairly-long-address");
    for (const lang of ["en", "zh"] as const) {
      await setLanguage(context, baseURL ?? "", lang);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto("/");
        await expectOneRow(page, lang, width);
        await openUserMenu(page, lang, email, width);
        await expect(
          page.getByTestId("user-menu").getByRole("link", { name: TEXT[lang].userMenu.admin, exact: true }),
        ).toHaveAttribute("href", "/admin");
        await closeUserMenu(page);
      }
    }
  });

  test("signed out: a Login link, and the same one-row header", { tag: "@render" }, async ({
    page,
    context,
    baseURL,
  }) => {
    for (const lang of ["en", "zh"] as const) {
      await setLanguage(context, baseURL ?? "", lang);
      for (const width of [390, 1024, 1280, 1440]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto("/");
        await expectOneRow(page, lang, width);
        await expect(page.locator("header").getByRole("link", { name: TEXT[lang].nav.login })).toBeVisible();
        await expect(page.getByTestId("user-menu")).toHaveCount(0);
      }
    }
  });

  test("the cart link: its name starts with the visible text and the badge covers nothing", { tag: "@render" }, async ({
    page,
    context,
    baseURL,
    jsEnabled,
  }) => {
    test.setTimeout(60_000);
    await fillCart(page, 2);
    for (const lang of ["en", "zh"] as const) {
      await setLanguage(context, baseURL ?? "", lang);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 800 });
        await page.goto("/");
        const cart = page.locator("header").getByRole("link", {
          name: TEXT[lang].nav.cartItems_other.replace("{{count}}", "2"),
          exact: true,
        });
        await expect(cart).toBeVisible();
        await expect(cart).toHaveAttribute("href", "/cart");
        const badge = cart.getByTestId("cart-count");
        await expect(badge).toHaveText("2");
        const badgeBox = await badge.boundingBox();
        const icon = await cart.locator("svg").boundingBox();
        expect(badgeBox && icon && badgeBox.x >= icon.x + icon.width - 0.5, "badge after the icon").toBe(true);
        if (width >= 640) {
          const label = cart.getByText(TEXT[lang].nav.cart, { exact: true });
          await expect(label).toBeVisible();
          const labelBox = await label.boundingBox();
          expect(
            labelBox && badgeBox && badgeBox.x >= labelBox.x + labelBox.width - 0.5,
            "the badge starts after the last letter",
          ).toBe(true);
        }
        if (width === 1280) expect(await seriousViolations(page, jsEnabled, "header")).toEqual([]);
      }
    }
  });

  test("the Set currency button is there only without JavaScript", async ({ page, jsEnabled }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    const picker = page.locator("header form[action='/resources/currency']").first();
    const button = picker.getByRole("button", { name: en.nav.setCurrency });
    if (jsEnabled) {
      await waitForReact(page);
      await expect(button).toHaveCount(0);
      await picker.getByRole("combobox").selectOption("USD");
    } else {
      await expect(button).toBeVisible();
      await picker.getByRole("combobox").selectOption("USD");
      await button.click();
    }
    await expect(page.getByRole("status").filter({ hasText: "Prices now shown in USD" })).toBeVisible();
    await expect(page.locator("header #currency-desktop")).toHaveValue("USD");
  });

  test("screenshots of the signed-in header at desk width, both languages", { tag: "@render" }, async ({
    page,
    context,
    baseURL,
    jsEnabled,
  }) => {
    const email = await signUpLongEmail(page);
    await fillCart(page);
    fs.mkdirSync(SHOTS, { recursive: true });
    const suffix = jsEnabled ? "" : "-nojs";
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const lang of ["en", "zh"] as const) {
      await setLanguage(context, baseURL ?? "", lang);
      await page.goto("/category/rifles");
      if (jsEnabled) await waitForReact(page);
      await page.screenshot({ path: `${SHOTS}/header-desk-${lang}${suffix}.png`, clip: bounds(1280, 64) });
      await openUserMenu(page, lang, email, 1280);
      await page.screenshot({ path: `${SHOTS}/header-desk-${lang}-menu${suffix}.png`, clip: bounds(1280, 240) });
      await closeUserMenu(page);
    }
  });
});

function bounds(width: number, height: number) {
  return { x: 0, y: 0, width, height };
}
